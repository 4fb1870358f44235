/**
 * SQL of the attempts API: where each event of a webhook stands (its queue rows: the original and
 * any replays), every attempt made for it (the logs of the batches its rows were sent in), and per
 * webhook the success rate of attempts and the oldest undelivered event.
 */
import type { Queryable } from '../platform/db.ts';

/** Characters of an answer kept in an attempt's excerpt. */
export const EXCERPT_CHARS = 256;

export interface EventRow {
  queue_id: string;
  event_id: string | null;
  event_name: string;
  replay_id: string | null;
  created_at: Date;
  delivered_at: Date | null;
  attempts: number;
  last_status: number | null;
}

export interface AttemptRow {
  request_id: string;
  batch_id: string;
  delivery_dts: Date;
  status_code: number;
  success: boolean;
  duration: number;
  excerpt: string;
  event_count: number;
  queue_id: string;
  replay_id: string | null;
}

const EVENT_COLUMNS = `q.queue_id::text, coalesce(q.event_id, q.replay_event_id)::text AS event_id, q.event_name,
  q.replay_id::text, q.created_at, q.delivered_at,
  (SELECT count(*)::int FROM webhooks.logs l
   WHERE l.webhook_oid = q.webhook_oid AND l.batch_id = q.batch_id) AS attempts,
  (SELECT l.status_code FROM webhooks.logs l WHERE l.webhook_oid = q.webhook_oid AND l.batch_id = q.batch_id
   ORDER BY l.delivery_dts DESC, l.request_id DESC LIMIT 1) AS last_status`;

const STATE_FILTER = { pending: 'AND q.delivered_at IS NULL', delivered: 'AND q.delivered_at IS NOT NULL' };

/** A webhook's queue rows, newest first (`state` pending or delivered filters). */
export async function listEvents(
  q: Queryable,
  oid: number,
  opts: { limit: number; offset: number; state: 'pending' | 'delivered' | undefined },
): Promise<{ rows: EventRow[]; total: number }> {
  const filter = opts.state ? STATE_FILTER[opts.state] : '';
  const rows = await q.query<EventRow>(
    `SELECT ${EVENT_COLUMNS} FROM webhooks.queue q WHERE q.webhook_oid = $1 ${filter}
     ORDER BY q.queue_id DESC LIMIT $2 OFFSET $3`,
    [oid, opts.limit, opts.offset],
  );
  const total = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM webhooks.queue q WHERE q.webhook_oid = $1 ${filter}`,
    [oid],
  );
  return { rows, total: total[0]!.n };
}

/** The queue rows of one outbox event for a webhook: the original and its replays, in queue order. */
export async function eventRows(q: Queryable, oid: number, eventId: number): Promise<EventRow[]> {
  return q.query<EventRow>(
    `SELECT ${EVENT_COLUMNS} FROM webhooks.queue q
     WHERE q.webhook_oid = $1 AND (q.event_id = $2 OR q.replay_event_id = $2) ORDER BY q.queue_id`,
    [oid, eventId],
  );
}

/** Every attempt for those rows, oldest first: time, status, latency (ms) and the answer's first characters. */
export async function eventAttempts(q: Queryable, oid: number, eventId: number): Promise<AttemptRow[]> {
  return q.query<AttemptRow>(
    `SELECT l.request_id, l.batch_id, l.delivery_dts, l.status_code, l.success, l.duration,
       left(l.response, ${EXCERPT_CHARS}) AS excerpt, l.event_count, q.queue_id::text, q.replay_id::text
     FROM webhooks.queue q JOIN webhooks.logs l ON l.webhook_oid = q.webhook_oid AND l.batch_id = q.batch_id
     WHERE q.webhook_oid = $1 AND (q.event_id = $2 OR q.replay_event_id = $2)
     ORDER BY l.delivery_dts, l.request_id`,
    [oid, eventId],
  );
}

/** The latest attempts of a webhook (the status page), newest first. */
export type WebhookAttemptRow = Omit<AttemptRow, 'queue_id' | 'replay_id'>;

export async function recentAttempts(q: Queryable, oid: number, limit: number): Promise<WebhookAttemptRow[]> {
  return q.query(
    `SELECT l.request_id, l.batch_id, l.delivery_dts, l.status_code, l.success, l.duration,
       left(l.response, ${EXCERPT_CHARS}) AS excerpt, l.event_count
     FROM webhooks.logs l WHERE l.webhook_oid = $1 ORDER BY l.delivery_dts DESC, l.request_id DESC LIMIT $2`,
    [oid, limit],
  );
}

export interface WebhookStats {
  attempts: number;
  successful: number;
  delivered: number;
  pending: number;
  oldest: EventRow | undefined;
}

/** Attempts and their successes (since `since`, or all), delivered and pending rows, the oldest undelivered row. */
export async function webhookStats(q: Queryable, oid: number, since: Date | null): Promise<WebhookStats> {
  const rows = await q.query<{ attempts: number; successful: number; delivered: number; pending: number }>(
    `SELECT
       (SELECT count(*)::int FROM webhooks.logs l
        WHERE l.webhook_oid = $1 AND ($2::timestamptz IS NULL OR l.delivery_dts >= $2)) AS attempts,
       (SELECT count(*)::int FROM webhooks.logs l
        WHERE l.webhook_oid = $1 AND l.success AND ($2::timestamptz IS NULL OR l.delivery_dts >= $2)) AS successful,
       (SELECT count(*)::int FROM webhooks.queue q
        WHERE q.webhook_oid = $1 AND q.delivered_at IS NOT NULL) AS delivered,
       (SELECT count(*)::int FROM webhooks.queue q WHERE q.webhook_oid = $1 AND q.delivered_at IS NULL) AS pending`,
    [oid, since ? since.toISOString() : null],
  );
  const oldest = await q.query<EventRow>(
    `SELECT ${EVENT_COLUMNS} FROM webhooks.queue q
     WHERE q.webhook_oid = $1 AND q.delivered_at IS NULL ORDER BY q.queue_id LIMIT 1`,
    [oid],
  );
  return { ...rows[0]!, oldest: oldest[0] };
}
