/** SQL of the webhook resource: webhooks of a merchant, their pending counts, and their logs. */
import type { Queryable } from '../platform/db.ts';

/** The writable columns, as stored. */
export interface WebhookValues {
  api_user_oid: number | null;
  application_profile: Record<string, string | null> | null;
  api_version: string;
  authentication_type: string;
  basic_username: string | null;
  basic_password_enc: string | null;
  iam_access_key: string | null;
  iam_secret_key_enc: string | null;
  compress_events: boolean;
  disabled: boolean;
  events: string[];
  expansions: Record<string, string>;
  maximum_events: number;
  maximum_size: number;
  merchant_comments: string | null;
  name: string | null;
  webhook_url: string;
}

/** A stored webhook: its writable columns plus identity, signing secret and delivery state. */
export interface WebhookRow extends WebhookValues {
  webhook_oid: number;
  merchant_id: string;
  signing_secret_enc: string;
  /** The secret a rotation replaced, still signed with until previous_secret_until (see routes-secret.ts). */
  previous_signing_secret_enc: string | null;
  previous_secret_until: Date | null;
  /** Attempts per second at most (throttle.ts), or null. */
  rate_limit_per_second: number | null;
  consecutive_failures: number;
  next_retry_after: Date | null;
  pending: number;
}

const SELECT = `SELECT w.*, (SELECT count(*)::int FROM webhooks.queue q WHERE q.webhook_oid = w.webhook_oid AND q.delivered_at IS NULL) AS pending FROM webhooks.webhooks w`;

export const SORTS: Record<string, string> = {
  webhook_oid: 'w.webhook_oid',
  name: 'w.name',
  webhook_url: 'w.webhook_url',
};

export async function listWebhooks(
  q: Queryable,
  merchantId: string,
  opts: { limit: number; offset: number; sort: string; desc: boolean },
): Promise<{ rows: WebhookRow[]; total: number }> {
  const order = `${SORTS[opts.sort] ?? 'w.webhook_oid'} ${opts.desc ? 'DESC' : 'ASC'} NULLS LAST, w.webhook_oid`;
  const rows = await q.query<WebhookRow>(`${SELECT} WHERE w.merchant_id = $1 ORDER BY ${order} LIMIT $2 OFFSET $3`, [
    merchantId,
    opts.limit,
    opts.offset,
  ]);
  const total = await q.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM webhooks.webhooks WHERE merchant_id = $1',
    [merchantId],
  );
  return { rows, total: total[0]!.n };
}

export async function getWebhook(q: Queryable, merchantId: string, oid: number): Promise<WebhookRow | undefined> {
  return (await q.query<WebhookRow>(`${SELECT} WHERE w.merchant_id = $1 AND w.webhook_oid = $2`, [merchantId, oid]))[0];
}

export async function findWebhooksByUrl(q: Queryable, merchantId: string, url: string): Promise<WebhookRow[]> {
  return q.query<WebhookRow>(`${SELECT} WHERE w.merchant_id = $1 AND w.webhook_url = $2 ORDER BY w.webhook_oid`, [
    merchantId,
    url,
  ]);
}

const COLUMNS: (keyof WebhookValues)[] = [
  'api_user_oid',
  'application_profile',
  'api_version',
  'authentication_type',
  'basic_username',
  'basic_password_enc',
  'iam_access_key',
  'iam_secret_key_enc',
  'compress_events',
  'disabled',
  'events',
  'expansions',
  'maximum_events',
  'maximum_size',
  'merchant_comments',
  'name',
  'webhook_url',
];

function params(v: WebhookValues): unknown[] {
  return COLUMNS.map((k) =>
    k === 'application_profile' || k === 'expansions' ? (v[k] === null ? null : JSON.stringify(v[k])) : v[k],
  );
}

export async function insertWebhook(
  q: Queryable,
  merchantId: string,
  v: WebhookValues,
  signingSecretEnc: string,
): Promise<number> {
  const cols = [...COLUMNS, 'merchant_id', 'signing_secret_enc'];
  const rows = await q.query<{ webhook_oid: number }>(
    `INSERT INTO webhooks.webhooks (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING webhook_oid`,
    [...params(v), merchantId, signingSecretEnc],
  );
  return rows[0]!.webhook_oid;
}

/** Updates the writable columns; re-enabling resets the failure state so delivery resumes. */
export async function updateWebhook(q: Queryable, merchantId: string, oid: number, v: WebhookValues): Promise<boolean> {
  const sets = COLUMNS.map((c, i) => `${c} = $${i + 3}`).join(', ');
  const rows = await q.query(
    `UPDATE webhooks.webhooks SET ${sets}, updated_at = now(),
       consecutive_failures = CASE WHEN disabled AND NOT $${COLUMNS.indexOf('disabled') + 3} THEN 0 ELSE consecutive_failures END,
       next_retry_after = CASE WHEN disabled AND NOT $${COLUMNS.indexOf('disabled') + 3} THEN NULL ELSE next_retry_after END
     WHERE merchant_id = $1 AND webhook_oid = $2 RETURNING webhook_oid`,
    [merchantId, oid, ...params(v)],
  );
  return rows.length > 0;
}

export async function deleteWebhook(q: Queryable, merchantId: string, oid: number): Promise<boolean> {
  return (
    (
      await q.query('DELETE FROM webhooks.webhooks WHERE merchant_id = $1 AND webhook_oid = $2 RETURNING webhook_oid', [
        merchantId,
        oid,
      ])
    ).length > 0
  );
}

export async function keyBelongsTo(q: Queryable, merchantId: string, keyId: number): Promise<boolean> {
  return (
    (await q.query('SELECT 1 FROM webhooks.merchant_keys WHERE merchant_id = $1 AND key_id = $2', [merchantId, keyId]))
      .length > 0
  );
}

export interface LogSummaryRow {
  request_id: string;
  delivery_dts: Date;
  success: boolean;
}

export interface LogRow extends LogSummaryRow {
  webhook_oid: number;
  duration: number;
  queue_delay: number;
  request: string;
  request_headers: { name: string; value: string }[];
  response: string;
  response_headers: { name: string; value: string }[];
  status_code: number;
  uri: string;
}

export async function listLogs(
  q: Queryable,
  oid: number,
  opts: { limit: number; offset: number; since: Date | null },
): Promise<{ rows: LogSummaryRow[]; total: number }> {
  const since = opts.since ? opts.since.toISOString() : null;
  const rows = await q.query<LogSummaryRow>(
    `SELECT request_id, delivery_dts, success FROM webhooks.logs WHERE webhook_oid = $1 AND ($2::timestamptz IS NULL OR delivery_dts >= $2)
     ORDER BY delivery_dts DESC, request_id LIMIT $3 OFFSET $4`,
    [oid, since, opts.limit, opts.offset],
  );
  const total = await q.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM webhooks.logs WHERE webhook_oid = $1 AND ($2::timestamptz IS NULL OR delivery_dts >= $2)',
    [oid, since],
  );
  return { rows, total: total[0]!.n };
}

export async function getLog(q: Queryable, oid: number, requestId: string): Promise<LogRow | undefined> {
  return (
    await q.query<LogRow>(
      `SELECT request_id, webhook_oid, delivery_dts, success, duration, queue_delay, request, request_headers, response, response_headers, status_code, uri
     FROM webhooks.logs WHERE webhook_oid = $1 AND request_id = $2`,
      [oid, requestId],
    )
  )[0];
}
