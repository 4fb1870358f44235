/**
 * The event outbox: services record what happened with `emitEvent(tx, name, object)` inside the same
 * transaction as the change itself, so an event exists if and only if the change committed. The
 * webhook delivery (src/webhooks/deliver.ts, its queue callbacks in jobs.ts) fans events out to
 * subscribed webhooks from here.
 *
 * `webhookEvent(name, object)` is the one way an event's payload is made: the object as the owning
 * service's view renders it, turned into its wire JSON here (JSON.stringify: Dates become ISO strings)
 * and checked against the event's schema (schemas-events.ts). The live path (emitEvent) and the
 * reflow path (queries-reflow.ts) both go through it, so the two cannot drift apart. The outbox
 * keeps the wire JSON and its size as an item of a delivery body (payload.ts's itemSize), so batches
 * are cut on the bytes that are sent.
 */
import type { Queryable } from '../platform/db.ts';
import type { Env } from '../platform/env.ts';
import { publish } from '../platform/queue.ts';
import { itemSize } from './payload.ts';
import { EVENT_CONTRACTS, type EventName, type EventPayload } from './schemas-events.ts';

/** A value as a view renders it before JSON: wherever the wire has a string, a Date may stand. */
export type Rendered<T> = T extends string
  ? string | Date
  : T extends readonly (infer U)[]
    ? Rendered<U>[]
    : T extends object
      ? { [K in keyof T]: Rendered<T[K]> }
      : T;

export interface EmittedEvent {
  /** Event name, e.g. `book_posted`. */
  name: string;
  /** Id of the object the event is about (book id, task id, ...). */
  objectId: string;
  /** The object as delivered to webhooks (JSON-serialisable). */
  payload: unknown;
}

export interface WebhookEvent<N extends EventName = EventName> extends EmittedEvent {
  name: N;
  payload: EventPayload<N>;
}

/** The event `name` about `object`, as it goes on the wire; throws (a programming error) if it breaks the contract. */
export function webhookEvent<N extends EventName>(name: N, object: Rendered<EventPayload<N>>): WebhookEvent<N> {
  const contract = EVENT_CONTRACTS[name];
  const parsed = contract.schema.safeParse(JSON.parse(JSON.stringify(object)));
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`event ${name} breaks its schema: ${issues}`);
  }
  const payload = parsed.data as EventPayload<N>;
  return { name, objectId: (contract.objectId as (p: EventPayload<N>) => string)(payload), payload };
}

/** Records the event `name` about `object` in the outbox (inside the caller's transaction). */
export async function emitEvent<N extends EventName>(
  tx: Queryable,
  name: N,
  object: Rendered<EventPayload<N>>,
): Promise<void> {
  await recordRawEvent(tx, webhookEvent(name, object));
}

/**
 * Records an event as given, without its contract: for the delivery tests, the bench and the ledger,
 * whose synthetic payloads exercise delivery, not an event type. Services use emitEvent.
 */
export async function recordRawEvent(tx: Queryable, event: EmittedEvent): Promise<void> {
  await tx.query('INSERT INTO webhooks.outbox (event_name, object_id, payload, size) VALUES ($1, $2, $3, $4)', [
    event.name,
    event.objectId,
    JSON.stringify(event.payload),
    itemSize(event.name, event.payload),
  ]);
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
