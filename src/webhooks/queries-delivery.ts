/**
 * SQL of delivery: fan-out from the outbox, the per-webhook lease, batch selection and the
 * result of an attempt. Invariants (see deliver.ts): a queue row is marked delivered only after a
 * 2xx for its batch; a batch keeps its id until delivered; `pending` = rows not yet delivered.
 */
import type { Queryable } from '../platform/db.ts';
import type { WebhookRow } from './queries.ts';

export const DRAIN_LOCK = 4_000_001;

/** Fans out up to `limit` outbox events (event_id order) to the queues of subscribed, enabled webhooks. */
export async function fanOut(tx: Queryable, limit: number): Promise<{ events: number; webhooks: number[] }> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [DRAIN_LOCK]);
  const rows = await tx.query<{ events: number; webhooks: number[] }>(
    `WITH ev AS (
       SELECT event_id, event_name, payload, created_at FROM webhooks.outbox
       WHERE fanned_out_at IS NULL ORDER BY event_id LIMIT $1 FOR UPDATE SKIP LOCKED
     ), ins AS (
       INSERT INTO webhooks.queue (webhook_oid, event_id, event_name, payload, size, created_at)
       SELECT w.webhook_oid, ev.event_id, ev.event_name, ev.payload, octet_length(jsonb_build_object(ev.event_name, ev.payload)::text), ev.created_at
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

/** Queues objects for one webhook (reflow), under the drain lock so queue order stays event order. */
export async function enqueueForWebhook(tx: Queryable, oid: number, eventName: string, payloads: unknown[]): Promise<number> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [DRAIN_LOCK]);
  if (payloads.length === 0) return 0;
  const rows = await tx.query(
    `INSERT INTO webhooks.queue (webhook_oid, event_name, payload, size)
     SELECT $1, $2, p, octet_length(jsonb_build_object($2::text, p)::text) FROM jsonb_array_elements($3::jsonb) WITH ORDINALITY AS t(p, n) ORDER BY n
     RETURNING queue_id`,
    [oid, eventName, JSON.stringify(payloads)],
  );
  return rows.length;
}

export type LeasedWebhook = Omit<WebhookRow, 'pending'> & { retry_token: string | null; inflight_batch: string | null; lease_token: string };

/**
 * Takes the webhook's lease unless another delivery holds it, it is disabled, or it waits for a
 * retry (only the scheduled retry, carrying `retry_token`, may go early).
 */
export async function acquireLease(q: Queryable, oid: number, leaseToken: string, retryToken: string | null, leaseSeconds: number): Promise<LeasedWebhook | undefined> {
  return (await q.query<LeasedWebhook>(
    `UPDATE webhooks.webhooks SET lease_token = $2, lease_until = now() + make_interval(secs => $4)
     WHERE webhook_oid = $1 AND NOT disabled AND (lease_until IS NULL OR lease_until < now())
       AND (next_retry_after IS NULL OR next_retry_after <= now() OR retry_token = $3)
     RETURNING *`,
    [oid, leaseToken, retryToken, leaseSeconds],
  ))[0];
}

export async function extendLease(q: Queryable, oid: number, leaseToken: string, leaseSeconds: number): Promise<boolean> {
  return (await q.query('UPDATE webhooks.webhooks SET lease_until = now() + make_interval(secs => $3) WHERE webhook_oid = $1 AND lease_token = $2 AND NOT disabled RETURNING 1', [oid, leaseToken, leaseSeconds])).length > 0;
}

export async function releaseLease(q: Queryable, oid: number, leaseToken: string): Promise<void> {
  await q.query('UPDATE webhooks.webhooks SET lease_token = NULL, lease_until = NULL WHERE webhook_oid = $1 AND lease_token = $2', [oid, leaseToken]);
}

export interface BatchRow {
  queue_id: string;
  event_name: string;
  payload: unknown;
  size: number;
  created_at: Date;
}

export async function batchRows(q: Queryable, oid: number, batchId: string): Promise<BatchRow[]> {
  return q.query<BatchRow>('SELECT queue_id, event_name, payload, size, created_at FROM webhooks.queue WHERE webhook_oid = $1 AND batch_id = $2 AND delivered_at IS NULL ORDER BY queue_id', [oid, batchId]);
}

export async function headOfQueue(q: Queryable, oid: number, limit: number): Promise<BatchRow[]> {
  return q.query<BatchRow>('SELECT queue_id, event_name, payload, size, created_at FROM webhooks.queue WHERE webhook_oid = $1 AND delivered_at IS NULL ORDER BY queue_id LIMIT $2', [oid, limit]);
}

export async function assignBatch(tx: Queryable, oid: number, batchId: string, queueIds: string[]): Promise<void> {
  await tx.query('UPDATE webhooks.queue SET batch_id = $2 WHERE webhook_oid = $1 AND queue_id = ANY ($3::bigint[])', [oid, batchId, queueIds]);
  await tx.query('UPDATE webhooks.webhooks SET inflight_batch = $2 WHERE webhook_oid = $1', [oid, batchId]);
}

export async function clearInflight(q: Queryable, oid: number): Promise<void> {
  await q.query('UPDATE webhooks.webhooks SET inflight_batch = NULL WHERE webhook_oid = $1', [oid]);
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

export async function insertLog(tx: Queryable, l: AttemptLog): Promise<void> {
  await tx.query(
    `INSERT INTO webhooks.logs (request_id, webhook_oid, batch_id, duration, queue_delay, request, request_headers, response, response_headers, status_code, success, uri, event_count)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [l.requestId, l.webhookOid, l.batchId, l.duration, l.queueDelay, l.request, JSON.stringify(l.requestHeaders), l.response, JSON.stringify(l.responseHeaders), l.statusCode, l.success, l.uri, l.eventCount],
  );
}

export async function markDelivered(tx: Queryable, oid: number, batchId: string): Promise<void> {
  await tx.query('UPDATE webhooks.queue SET delivered_at = now() WHERE webhook_oid = $1 AND batch_id = $2 AND delivered_at IS NULL', [oid, batchId]);
  await tx.query(
    `UPDATE webhooks.webhooks SET consecutive_failures = 0, next_retry_after = NULL, retry_token = NULL,
       inflight_batch = CASE WHEN inflight_batch = $2 THEN NULL ELSE inflight_batch END WHERE webhook_oid = $1`,
    [oid, batchId],
  );
}

/** Records a failure; returns the new failure count and whether the webhook is now disabled. */
export async function markFailed(tx: Queryable, oid: number, f: { delaySeconds: number; retryToken: string; disable: boolean }): Promise<{ consecutive_failures: number; disabled: boolean }> {
  return (await tx.query<{ consecutive_failures: number; disabled: boolean }>(
    `UPDATE webhooks.webhooks SET consecutive_failures = consecutive_failures + 1,
       next_retry_after = CASE WHEN $4 THEN NULL ELSE now() + make_interval(secs => $2) END,
       retry_token = $3, disabled = disabled OR $4, lease_token = NULL, lease_until = NULL
     WHERE webhook_oid = $1 RETURNING consecutive_failures, disabled`,
    [oid, f.delaySeconds, f.retryToken, f.disable],
  ))[0]!;
}

export async function pendingCount(q: Queryable, oid: number): Promise<number> {
  return (await q.query<{ n: number }>('SELECT count(*)::int AS n FROM webhooks.queue WHERE webhook_oid = $1 AND delivered_at IS NULL', [oid]))[0]!.n;
}

/** Webhooks the sweep should (re)start: pending rows, enabled, no live lease, no retry waiting. */
export async function stalledWebhooks(q: Queryable, limit: number): Promise<{ webhook_oid: number; retry_token: string | null }[]> {
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
  return (await q.query<{ n: number }>('SELECT count(*)::int AS n FROM webhooks.outbox WHERE fanned_out_at IS NULL'))[0]!.n;
}

export async function apiUserSigningKeyEnc(q: Queryable, keyId: number): Promise<string | undefined> {
  return (await q.query<{ signing_key_enc: string }>('SELECT signing_key_enc FROM webhooks.merchant_keys WHERE key_id = $1', [keyId]))[0]?.signing_key_enc;
}
