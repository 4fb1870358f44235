/** SQL of the per-webhook throttle: its rate (attempts per second, null = none). */
import type { Queryable } from '../platform/db.ts';

export async function setRateLimit(
  q: Queryable,
  merchantId: string,
  oid: number,
  perSecond: number | null,
): Promise<boolean> {
  const rows = await q.query(
    `UPDATE webhooks.webhooks SET rate_limit_per_second = $3, updated_at = now()
     WHERE merchant_id = $1 AND webhook_oid = $2 RETURNING webhook_oid`,
    [merchantId, oid, perSecond],
  );
  return rows.length > 0;
}
