/** SQL for merchant API keys (webhooks.merchant_keys). */
import type { Queryable } from '../platform/db.ts';

export interface KeyRow {
  key_id: number;
  merchant_id: string;
  signing_key_enc: string;
}

export async function insertMerchantKey(
  q: Queryable,
  k: { merchantId: string; keyHash: string; signingKeyEnc: string; label: string | null },
): Promise<number> {
  const rows = await q.query<{ key_id: number }>(
    `INSERT INTO webhooks.merchant_keys (merchant_id, key_hash, signing_key_enc, label) VALUES ($1, $2, $3, $4)
     ON CONFLICT (key_hash) DO UPDATE SET merchant_id = EXCLUDED.merchant_id RETURNING key_id`,
    [k.merchantId, k.keyHash, k.signingKeyEnc, k.label],
  );
  return rows[0]!.key_id;
}

export async function findKeyByHash(q: Queryable, keyHash: string): Promise<KeyRow | undefined> {
  return (
    await q.query<KeyRow>(
      'SELECT key_id, merchant_id, signing_key_enc FROM webhooks.merchant_keys WHERE key_hash = $1',
      [keyHash],
    )
  )[0];
}

export async function findKey(q: Queryable, keyId: number): Promise<KeyRow | undefined> {
  return (
    await q.query<KeyRow>('SELECT key_id, merchant_id, signing_key_enc FROM webhooks.merchant_keys WHERE key_id = $1', [
      keyId,
    ])
  )[0];
}
