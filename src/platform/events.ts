/**
 * The event contract between the services that publish events and the webhook delivery that sends
 * them, so dependence runs one way: a service (marketplace, pipeline) owns its events' payload schemas,
 * its catalogue entries and the reflow of its past objects, and records events here; src/webhooks reads
 * what the services declared (`registeredEventCategories`) and the outbox, and imports no service.
 * functions/event-catalog.ts registers the services' declarations in the functions that deliver.
 *
 * Services record what happened with their `emitEvent(tx, name, object)` (built on `makeEvent` and
 * `recordRawEvent`) inside the same transaction as the change itself, so an event exists if and only
 * if the change committed. `makeEvent` is the one way a payload is made: the object as the owning
 * service's view renders it, turned into its wire JSON (JSON.stringify: Dates become ISO strings) and
 * checked against the event's schema; the live path and the reflow path both go through it, so the two
 * cannot drift apart. The outbox keeps the wire JSON and its size as an item of a delivery body
 * (`{"<name>": payload}`), so batches are cut on the bytes that are sent.
 */
import type * as z from 'zod';
import type { Queryable } from './db.ts';
import type { Env } from './env.ts';
import { publish } from './queue.ts';

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

export interface EventContract<S extends z.ZodType = z.ZodType> {
  /** The payload as it goes on the wire (strict: a view that adds or drops a field fails the emit). */
  schema: S;
  /** The id of the object the event is about (outbox object_id). */
  objectId: (payload: z.output<S>) => string;
}

export function eventContract<S extends z.ZodType>(
  schema: S,
  objectId: (payload: z.output<S>) => string,
): EventContract<S> {
  return { schema, objectId };
}

/** A service's contracts by event name. */
export type Contracts = Record<string, EventContract>;
/** The payload of event `N` of contracts `C` as it goes on the wire. */
export type PayloadOf<C extends Contracts, N extends keyof C> = z.output<C[N]['schema']>;

export interface TypedEvent<C extends Contracts, N extends keyof C & string> extends EmittedEvent {
  name: N;
  payload: PayloadOf<C, N>;
}

/** The event `name` about `object`, as it goes on the wire; throws (a programming error) if it breaks the contract. */
export function makeEvent<C extends Contracts, N extends keyof C & string>(
  contracts: C,
  name: N,
  object: Rendered<PayloadOf<C, N>>,
): TypedEvent<C, N> {
  const contract = contracts[name]!;
  const parsed = contract.schema.safeParse(JSON.parse(JSON.stringify(object)));
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`event ${name} breaks its schema: ${issues}`);
  }
  const payload = parsed.data as PayloadOf<C, N>;
  return { name, objectId: contract.objectId(payload), payload };
}

/**
 * A service's `emitEvent(tx, name, object)`: records the event `name` about `object` in the outbox,
 * inside the caller's transaction, after checking it against the service's contract.
 */
export function eventEmitter<C extends Contracts>(contracts: C) {
  return async <N extends keyof C & string>(tx: Queryable, name: N, object: Rendered<PayloadOf<C, N>>) => {
    await recordRawEvent(tx, makeEvent(contracts, name, object));
  };
}

/** Serialized size of one `{"<name>": payload}` item of a delivery body. */
export function itemSize(name: string, payload: unknown): number {
  return new TextEncoder().encode(JSON.stringify({ [name]: payload })).length;
}

/**
 * Records an event in the outbox as given (inside the caller's transaction). Services call it through
 * their `emitEvent`, which checks the contract; the delivery tests, the bench and the ledger call it
 * directly with synthetic payloads that exercise delivery, not an event type.
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

/** The current objects an event is about, as events (for reflow), in id order. */
export type ReflowQuery = (q: Queryable) => Promise<EmittedEvent[]>;

export interface EventDeclaration {
  event_name: string;
  event_description: string;
  webhook_event_oid: number;
  contract: EventContract;
  /** Set when the event supports reflow. */
  reflow?: ReflowQuery;
}

/**
 * A category of the webhook resource's catalogue. `customerData` marks categories whose objects carry
 * customer-related information (people, their e-mail, their orders).
 */
export interface EventCategoryDeclaration {
  event_category: string;
  customerData: boolean;
  available_expansions: string[];
  events: EventDeclaration[];
}

/** The objects each reflow answers at most. */
export const REFLOW_LIMIT = 10_000;

const registered = new Map<string, EventCategoryDeclaration>();

/** Adds a service's categories to the catalogue, in order; registering a category again replaces it. */
export function registerEventCategories(categories: readonly EventCategoryDeclaration[]): void {
  for (const c of categories) registered.set(c.event_category, c);
}

/** Every registered category, in registration order. */
export function registeredEventCategories(): readonly EventCategoryDeclaration[] {
  return [...registered.values()];
}
