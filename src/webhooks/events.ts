/**
 * The event outbox: services record what happened with `emitEvent(tx, ...)` inside the same
 * transaction as the change itself, so an event exists if and only if the change committed. The
 * webhook delivery (src/webhooks/delivery*) fans events out to subscribed webhooks from here.
 *
 * Event names follow the webhook resource's categories (see src/webhooks/catalog.ts when present),
 * e.g. `user_signup`, `book_posted`, `book_requested`, `book_matched`, `cart_checked_out`,
 * `book_status_changed`, `book_unlisted`, `task_finished`, `report_published`.
 */
import type { Queryable } from '../platform/db.ts';

export interface EmittedEvent {
  /** Event name, e.g. `book_posted`. */
  name: string;
  /** Id of the object the event is about (book id, task id, ...). */
  objectId: string;
  /** The object as delivered to webhooks (JSON-serialisable). */
  payload: unknown;
}

export async function emitEvent(tx: Queryable, event: EmittedEvent): Promise<void> {
  await tx.query('INSERT INTO webhooks.outbox (event_name, object_id, payload) VALUES ($1, $2, $3)', [event.name, event.objectId, JSON.stringify(event.payload)]);
}
