/**
 * SQL of delivery: fan-out from the outbox, the per-webhook lease, batch selection and the
 * result of an attempt. Invariants (see deliver.ts): a queue row is marked delivered only after a
 * 2xx for its batch; a batch keeps its id until delivered; `pending` = rows not yet delivered.
 */
import type { Queryable } from '../platform/db.ts';
import type { EmittedEvent } from '../platform/events.ts';
import { itemSize } from '../platform/events.ts';
import type { WebhookRow } from './queries.ts';

export const DRAIN_LOCK = 4_000_001;

/** Fans out up to `limit` outbox events (event_id order) to the queues of subscribed, enabled webhooks. */
export async function fanOut(tx: Queryable, limit: number): Promise<{ events: number; webhooks: number[] }> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [DRAIN_LOCK]);
  const rows = await tx.query<{ events: number; webhooks: number[] }>(
    `WITH ev AS (
       SELECT event_id, event_name, payload, size, created_at FROM webhooks.outbox
       WHERE fanned_out_at IS NULL ORDER BY event_id LIMIT $1 FOR UPDATE SKIP LOCKED
     ), ins AS (
       INSERT INTO webhooks.queue (webhook_oid, event_id, event_name, payload, size, created_at)
       SELECT w.webhook_oid, ev.event_id, ev.event_name, ev.payload,
         coalesce(ev.size, octet_length(jsonb_build_object(ev.event_name, ev.payload)::text)), ev.created_at
       FROM ev JOIN webhooks.webhooks w ON ev.event_name = ANY (w.events) AND NOT w.disabled
       ORDER BY ev.event_id, w.webhook_oid
       ON CONFLICT (webhook_oid, event_id) DO NOTHING
       RETURNING webhook_oid
     ), upd AS (
       UPDATE webhooks.outbox o SET fanned_out_at = now() FROM ev WHERE o.event_id = ev.event_id RETURNING o.event_id
     )
     SELECT (SELECT count(*) FROM upd)::int AS events, ARRAY(SELECT DISTINCT webhook_oid FROM ins ORDER BY 1) AS webhooks`,
    [limit],
  );
  return { events: rows[0]!.events, webhooks: rows[0]!.webhooks.map(Number) };
}

/**
 * Queues events for one webhook (reflow), under the drain lock so queue order stays event order. The
 * payloads are the events' wire JSON and their sizes, both made in TypeScript (events.ts).
 */
export async function enqueueForWebhook(tx: Queryable, oid: number, events: readonly EmittedEvent[]): Promise<number> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [DRAIN_LOCK]);
  if (events.length === 0) return 0;
  const rows = await tx.query(
    `INSERT INTO webhooks.queue (webhook_oid, event_name, payload, size)
     SELECT $1, e->>'name', e->'payload', (e->>'size')::int
     FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS t(e, n) ORDER BY n
     RETURNING queue_id`,
    [oid, JSON.stringify(events.map((e) => ({ name: e.name, payload: e.payload, size: itemSize(e.name, e.payload) })))],
  );
  return rows.length;
}

export type LeasedWebhook = Omit<WebhookRow, 'pending'> & {
  retry_token: string | null;
  inflight_batch: string | null;
  lease_token: string;
};

export interface BatchRow {
  queue_id: string;
  event_name: string;
  payload: unknown;
  size: number;
  created_at: Date;
}

export interface Batch {
  id: string;
  rows: BatchRow[];
}

type RawRow = Omit<BatchRow, 'queue_id' | 'created_at'> & { queue_id: number | string; created_at: string };

function toBatch(id: string | null, raw: RawRow[] | null): Batch | undefined {
  if (!id || !raw || raw.length === 0) return undefined;
  return { id, rows: raw.map((r) => ({ ...r, queue_id: String(r.queue_id), created_at: new Date(r.created_at) })) };
}

/**
 * The head of a webhook's queue as the next batch (the SQL form of payload.ts's takeBatch): the
 * longest prefix, in queue order, of at most maximum_events pending rows whose body
 * (13 + sizes + commas) stays within maximum_size; the first row always goes. `$exclude` is the
 * batch just marked delivered in the same statement (the statement's snapshot still sees it pending),
 * or null.
 * Reads the CTE named `w` (the webhook row after its UPDATE) and cuts only when w.inflight_batch is
 * the new batch id `$new`.
 */
const CUT = (exclude: string | null, newId: string) => `cut AS (
  SELECT h.queue_id, h.event_name, h.payload, h.size, h.created_at FROM (
    SELECT q.queue_id, q.event_name, q.payload, q.size, q.created_at, w.maximum_size,
      row_number() OVER (ORDER BY q.queue_id) AS n,
      12 + sum(q.size + 1) OVER (ORDER BY q.queue_id) AS total
    FROM w CROSS JOIN LATERAL (
      SELECT * FROM webhooks.queue q WHERE q.webhook_oid = w.webhook_oid AND q.delivered_at IS NULL${exclude ? ` AND q.batch_id IS DISTINCT FROM ${exclude}` : ''}
      ORDER BY q.queue_id LIMIT w.maximum_events
    ) q
    WHERE w.inflight_batch = ${newId}
  ) h WHERE h.n = 1 OR h.total <= h.maximum_size
), assigned AS (
  UPDATE webhooks.queue q SET batch_id = ${newId} FROM cut WHERE q.queue_id = cut.queue_id RETURNING q.queue_id
)`;

const BATCH_JSON = `(SELECT json_agg(c ORDER BY c.queue_id) FROM cut c)`;

/**
 * One statement starts a delivery run: takes the webhook's lease unless another run holds it, it is
 * disabled, or it waits for a retry (only the scheduled retry, carrying `retry_token`, may go
 * early); picks the batch to send (the in-flight one if it still has pending rows, so a retry keeps
 * its webhook-id, else a new batch `newBatchId` cut from the head of the queue); and reads the api
 * user's signing key. Returns undefined when the lease was not taken; `batch` is undefined when
 * nothing is pending.
 */
export async function startRun(
  q: Queryable,
  a: { oid: number; leaseToken: string; retryToken: string | null; leaseSeconds: number; newBatchId: string },
): Promise<
  | {
      webhook: LeasedWebhook;
      batch: Batch | undefined;
      apiUserKeyEnc: string | undefined;
      sinceLastAttemptMs: number | null;
    }
  | undefined
> {
  const rows = await q.query<
    LeasedWebhook & {
      api_user_key_enc: string | null;
      cut_rows: RawRow[] | null;
      inflight_rows: RawRow[] | null;
      since_last_ms: number | string | null;
    }
  >(
    `WITH w AS (
       UPDATE webhooks.webhooks w0 SET lease_token = $2, lease_until = now() + make_interval(secs => $4),
         inflight_batch = CASE
           WHEN w0.inflight_batch IS NOT NULL AND EXISTS (SELECT 1 FROM webhooks.queue q WHERE q.webhook_oid = w0.webhook_oid AND q.batch_id = w0.inflight_batch AND q.delivered_at IS NULL) THEN w0.inflight_batch
           WHEN EXISTS (SELECT 1 FROM webhooks.queue q WHERE q.webhook_oid = w0.webhook_oid AND q.delivered_at IS NULL) THEN $5
           ELSE NULL END
       WHERE w0.webhook_oid = $1 AND NOT w0.disabled AND (w0.lease_until IS NULL OR w0.lease_until < now())
         AND (w0.next_retry_after IS NULL OR w0.next_retry_after <= now() OR w0.retry_token = $3)
       RETURNING w0.*
     ), ${CUT(null, '$5')}
     SELECT w.*, (SELECT k.signing_key_enc FROM webhooks.merchant_keys k WHERE k.key_id = w.api_user_oid) AS api_user_key_enc,
       ${BATCH_JSON} AS cut_rows,
       (SELECT json_agg(r ORDER BY r.queue_id) FROM (SELECT queue_id, event_name, payload, size, created_at FROM webhooks.queue q
          WHERE q.webhook_oid = w.webhook_oid AND q.batch_id = w.inflight_batch AND q.delivered_at IS NULL AND w.inflight_batch <> $5) r) AS inflight_rows,
       -- throttled webhooks only: ms since their last attempt started (logged at its end, minus its duration)
       CASE WHEN w.rate_limit_per_second IS NOT NULL THEN (
         SELECT floor(extract(epoch FROM (clock_timestamp() - l.delivery_dts)) * 1000) + l.duration FROM webhooks.logs l
         WHERE l.webhook_oid = w.webhook_oid ORDER BY l.delivery_dts DESC LIMIT 1) END AS since_last_ms
     FROM w`,
    [a.oid, a.leaseToken, a.retryToken, a.leaseSeconds, a.newBatchId],
  );
  const row = rows[0];
  if (!row) return undefined;
  const { api_user_key_enc, cut_rows, inflight_rows, since_last_ms, ...webhook } = row;
  return {
    webhook,
    batch: toBatch(webhook.inflight_batch, webhook.inflight_batch === a.newBatchId ? cut_rows : inflight_rows),
    apiUserKeyEnc: api_user_key_enc ?? undefined,
    sinceLastAttemptMs: since_last_ms === null ? null : Number(since_last_ms),
  };
}

export interface AttemptLog {
  requestId: string;
  webhookOid: number;
  batchId: string;
  duration: number;
  queueDelay: number;
  request: string;
  requestHeaders: { name: string; value: string }[];
  response: string;
  responseHeaders: { name: string; value: string }[];
  statusCode: number;
  success: boolean;
  uri: string;
  eventCount: number;
}

/** `INSERT INTO webhooks.logs` as a CTE; its parameters are $1..$13 (logParams). */
const LOG_CTE = `log AS (
  INSERT INTO webhooks.logs (request_id, webhook_oid, batch_id, duration, queue_delay, request, request_headers, response, response_headers, status_code, success, uri, event_count)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
)`;

function logParams(l: AttemptLog): unknown[] {
  return [
    l.requestId,
    l.webhookOid,
    l.batchId,
    l.duration,
    l.queueDelay,
    l.request,
    JSON.stringify(l.requestHeaders),
    l.response,
    JSON.stringify(l.responseHeaders),
    l.statusCode,
    l.success,
    l.uri,
    l.eventCount,
  ];
}

export type Completed = { next: Batch } | { next: undefined; disabled: boolean };

/**
 * One statement after a 2xx: logs the attempt, marks the batch's rows delivered, resets the
 * failure state, and, when the run may go on (`goOn`: time budget left) and still holds its lease
 * on an enabled webhook with more pending rows, extends the lease and cuts the next batch
 * (`newBatchId`). Otherwise it releases the lease (if still ours) in the same statement; the
 * caller then re-checks pending rows with a fresh snapshot (rows queued during this statement).
 */
export async function completeBatch(
  q: Queryable,
  log: AttemptLog,
  a: { leaseToken: string; goOn: boolean; newBatchId: string; leaseSeconds: number },
): Promise<Completed> {
  const keep = `(w0.lease_token = $14 AND NOT w0.disabled AND $15 AND more.more)`;
  const rows = await q.query<{ disabled: boolean; inflight_batch: string | null; cut_rows: RawRow[] | null }>(
    `WITH ${LOG_CTE}, done AS (
       UPDATE webhooks.queue SET delivered_at = now() WHERE webhook_oid = $2 AND batch_id = $3 AND delivered_at IS NULL RETURNING queue_id
     ), more AS (
       SELECT EXISTS (SELECT 1 FROM webhooks.queue q WHERE q.webhook_oid = $2 AND q.delivered_at IS NULL AND q.batch_id IS DISTINCT FROM $3) AS more
     ), w AS (
       UPDATE webhooks.webhooks w0 SET consecutive_failures = 0, next_retry_after = NULL, retry_token = NULL,
         inflight_batch = CASE WHEN ${keep} THEN $16 WHEN w0.inflight_batch = $3 THEN NULL ELSE w0.inflight_batch END,
         lease_until = CASE WHEN ${keep} THEN now() + make_interval(secs => $17) WHEN w0.lease_token = $14 THEN NULL ELSE w0.lease_until END,
         lease_token = CASE WHEN ${keep} THEN w0.lease_token WHEN w0.lease_token = $14 THEN NULL ELSE w0.lease_token END
       FROM more WHERE w0.webhook_oid = $2
       RETURNING w0.*
     ), ${CUT('$3', '$16')}
     SELECT w.disabled, w.inflight_batch, ${BATCH_JSON} AS cut_rows FROM w`,
    [...logParams(log), a.leaseToken, a.goOn, a.newBatchId, a.leaseSeconds],
  );
  const row = rows[0];
  if (!row) return { next: undefined, disabled: false };
  const next = row.inflight_batch === a.newBatchId ? toBatch(row.inflight_batch, row.cut_rows) : undefined;
  return next ? { next } : { next: undefined, disabled: row.disabled };
}

/**
 * One statement after a failed attempt: logs it, counts the failure, sets next_retry_after (or
 * disables the webhook), stores the retry token and releases the lease. The in-flight batch stays,
 * so the retry re-sends it with the same webhook-id.
 */
export async function failBatch(
  q: Queryable,
  log: AttemptLog,
  f: { delaySeconds: number; retryToken: string; disable: boolean },
): Promise<void> {
  await q.query(
    `WITH ${LOG_CTE}
     UPDATE webhooks.webhooks SET consecutive_failures = consecutive_failures + 1,
       next_retry_after = CASE WHEN $16 THEN NULL ELSE now() + make_interval(secs => $14) END,
       retry_token = $15, disabled = disabled OR $16, lease_token = NULL, lease_until = NULL
     WHERE webhook_oid = $2`,
    [...logParams(log), f.delaySeconds, f.retryToken, f.disable],
  );
}

export async function releaseLease(q: Queryable, oid: number, leaseToken: string): Promise<void> {
  await q.query(
    'UPDATE webhooks.webhooks SET lease_token = NULL, lease_until = NULL WHERE webhook_oid = $1 AND lease_token = $2',
    [oid, leaseToken],
  );
}

export async function pendingCount(q: Queryable, oid: number): Promise<number> {
  return (
    await q.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM webhooks.queue WHERE webhook_oid = $1 AND delivered_at IS NULL',
      [oid],
    )
  )[0]!.n;
}

/** Webhooks the sweep should (re)start: pending rows, enabled, no live lease, no retry waiting. */
export async function stalledWebhooks(
  q: Queryable,
  limit: number,
): Promise<{ webhook_oid: number; retry_token: string | null }[]> {
  return q.query(
    `SELECT w.webhook_oid, w.retry_token FROM webhooks.webhooks w
     WHERE NOT w.disabled AND (w.lease_until IS NULL OR w.lease_until < now())
       AND (w.next_retry_after IS NULL OR w.next_retry_after <= now())
       AND EXISTS (SELECT 1 FROM webhooks.queue q WHERE q.webhook_oid = w.webhook_oid AND q.delivered_at IS NULL)
     ORDER BY w.webhook_oid LIMIT $1`,
    [limit],
  );
}

export async function unfannedCount(q: Queryable): Promise<number> {
  return (
    await q.query<{ n: number }>('SELECT count(*)::int AS n FROM webhooks.outbox WHERE fanned_out_at IS NULL')
  )[0]!.n;
}
