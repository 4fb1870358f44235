/** SQL of signing-secret rotation: the current secret becomes the previous one for an overlap. */
import type { Queryable } from '../platform/db.ts';

/**
 * Installs `newSecretEnc` as the current secret. With an overlap > 0 the replaced secret stays valid
 * until now() + overlap (a previous secret still in its overlap is dropped: two secrets at most);
 * with 0 it is dropped at once. Returns when the previous secret stops being signed with, or null.
 */
export async function rotateSecret(
  q: Queryable,
  merchantId: string,
  oid: number,
  newSecretEnc: string,
  overlapSeconds: number,
): Promise<{ until: Date | null } | undefined> {
  const rows = await q.query<{ previous_secret_until: Date | string | null }>(
    `UPDATE webhooks.webhooks SET
       previous_signing_secret_enc = CASE WHEN $4 > 0 THEN signing_secret_enc ELSE NULL END,
       previous_secret_until = CASE WHEN $4 > 0 THEN now() + make_interval(secs => $4) ELSE NULL END,
       signing_secret_enc = $3, updated_at = now()
     WHERE merchant_id = $1 AND webhook_oid = $2 RETURNING previous_secret_until`,
    [merchantId, oid, newSecretEnc, overlapSeconds],
  );
  const row = rows[0];
  if (!row) return undefined;
  return { until: row.previous_secret_until === null ? null : new Date(row.previous_secret_until) };
}

/** Ends the overlap now: only the current secret signs from the next attempt on. */
export async function dropPreviousSecret(q: Queryable, merchantId: string, oid: number): Promise<boolean> {
  const rows = await q.query(
    `UPDATE webhooks.webhooks SET previous_signing_secret_enc = NULL, previous_secret_until = NULL, updated_at = now()
     WHERE merchant_id = $1 AND webhook_oid = $2 RETURNING webhook_oid`,
    [merchantId, oid],
  );
  return rows.length > 0;
}
