/**
 * The event contracts: for each event name of the catalogue, the zod schema of its payload as it goes
 * on the wire (the JSON form: dates are ISO strings or epoch milliseconds, as the services' views
 * render them), and the id of the object the event is about. Strict: a field a view adds or drops
 * without changing its schema fails the emit in the tests of the service that emits it.
 *
 * The objects are the services' own API views (marketplace: publicUser, publicBook, publicRequest,
 * publicTransaction; pipeline: taskView, publishedReportView), so a receiver sees what the API shows.
 */
import * as z from 'zod';

const id = z.string().min(1);
const epochMs = z.number().int();
const isoTime = z.iso.datetime({ offset: true });

export const bookSchema = z.strictObject({
  _id: id,
  name: z.string(),
  edition: z.number(),
  course: z.string(),
  price: z.number(),
  condition: z.string(),
  comments: z.string(),
  ISBN: z.string().nullable(),
  date: epochMs,
  status: z.number().int(),
  owner: id,
  buyer: z.string(),
});

export const userSchema = z.strictObject({
  _id: id,
  emailAddress: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  university: z.string(),
  CMC: z.string(),
  venmoUsername: z.string(),
  permissionType: z.number().int(),
  numberOfBooksSold: z.number().int(),
  numberOfBooksBought: z.number().int(),
  moneyMade: z.number(),
  createdAt: isoTime,
});

export const requestSchema = z.strictObject({
  _id: id,
  name: z.string(),
  course: z.string(),
  ISBN: z.string().nullable(),
  status: z.number().int(),
  owner: id,
  date: epochMs,
});

/** A book that moved from one status to another (book_status_changed, book_unlisted). */
export const bookMoveSchema = z.strictObject({ book: bookSchema, from: z.number().int(), to: z.number().int() });

/** A request matched with a book; `userId` is the requester. */
export const matchSchema = z.strictObject({ bookId: id, requestId: id, userId: id });

export const transactionSchema = z.strictObject({
  _id: id,
  date: epochMs,
  buyerID: id,
  buyerFirstName: z.string(),
  buyerLastName: z.string(),
  buyerVenmo: z.string(),
  buyerEmail: z.string(),
  subtotal: z.number(),
  totalCharged: z.number(),
  booksPurchased: z.array(id),
  status: z.number().int(),
});

const trace = z.array(z.record(z.string(), z.unknown()));

export const taskSchema = z.strictObject({
  id,
  run_id: id,
  monitor_id: z.string().nullable(),
  source_id: z.string().nullable(),
  trigger_type: z.string(),
  status: z.string(),
  started_at: isoTime.nullable(),
  finished_at: isoTime.nullable(),
  articles_count: z.number().int(),
  error_message: z.string().nullable(),
  stage_trace: trace,
  created_at: isoTime,
});

/** A report as the pipeline API shows it, plus where it was published (`url` for external destinations). */
export const publishedReportSchema = z.strictObject({
  id,
  title: z.string(),
  time_period: z.string(),
  report_type: z.string(),
  report_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  monitor_id: z.string().nullable(),
  monitor_name: z.string().nullable(),
  tldr: z.string(),
  categories: z.array(z.unknown()),
  article_count: z.number().int(),
  published_to: z.array(z.string()),
  created_at: isoTime,
  topics: z.array(z.unknown()),
  content: z.string(),
  article_ids: z.array(z.string()),
  metadata: z.record(z.string(), z.unknown()),
  publish_trace: trace,
  run_id: z.string().nullable(),
  destination: z.string(),
  url: z.string().nullable().optional(),
});

interface EventContract<S extends z.ZodType> {
  schema: S;
  /** The id of the object the event is about (outbox object_id). */
  objectId: (payload: z.output<S>) => string;
}

function contract<S extends z.ZodType>(schema: S, objectId: (payload: z.output<S>) => string): EventContract<S> {
  return { schema, objectId };
}

export const EVENT_CONTRACTS = {
  user_signup: contract(userSchema, (u) => u._id),
  book_posted: contract(bookSchema, (b) => b._id),
  book_status_changed: contract(bookMoveSchema, (m) => m.book._id),
  book_unlisted: contract(bookMoveSchema, (m) => m.book._id),
  book_requested: contract(requestSchema, (r) => r._id),
  book_matched: contract(matchSchema, (m) => m.bookId),
  cart_checked_out: contract(transactionSchema, (t) => t._id),
  task_finished: contract(taskSchema, (t) => t.id),
  report_published: contract(publishedReportSchema, (r) => r.id),
};

export type EventName = keyof typeof EVENT_CONTRACTS;
/** The payload of an event as it goes on the wire. */
export type EventPayload<N extends EventName> = z.output<(typeof EVENT_CONTRACTS)[N]['schema']>;

export function isEventName(name: string): name is EventName {
  return Object.hasOwn(EVENT_CONTRACTS, name);
}
