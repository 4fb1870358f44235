/**
 * The event outbox: services record what happened with `emitEvent(tx, ...)` inside the same
 * transaction as the change itself, so an event exists if and only if the change committed. The
 * webhook delivery (src/webhooks/deliver.ts, its queue callbacks in jobs.ts) fans events out to subscribed webhooks from here.
 *
 * Event names follow the webhook resource's categories (see src/webhooks/catalog.ts when present),
 * e.g. `user_signup`, `book_posted`, `book_requested`, `book_matched`, `cart_checked_out`,
 * `book_status_changed`, `book_unlisted`, `task_finished`, `report_published`.
 */
import type { Queryable } from '../platform/db.ts';
import type { Env } from '../platform/env.ts';
import { publish } from '../platform/queue.ts';

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

/**
 * After the transaction that emitted events has committed, ask the delivery function to drain the
 * outbox now. Not deduplicated: a drain that ran just before this commit would otherwise swallow
 * this notification and leave the events to the sweep; an extra drain finds nothing and is cheap.
 * Best effort: the scheduled sweep drains whatever a lost notification left behind, so a failure
 * here only delays delivery. Call it through waitUntil.
 */
export async function notifyOutbox(env: Env): Promise<void> {
  try {
    await publish(env, { path: '/webhooks/drain', body: { reason: 'outbox' } });
  } catch (err) {
    console.warn('webhook outbox notification failed (the sweep will pick the events up):', (err as Error).message);
  }
}
