/**
 * `npm run merchant-key -- <merchant_id> [label]`: creates a merchant API key for the webhook
 * resource on DATABASE_URL (default: the local stack), stores only its SHA-256 hash (and the
 * encrypted "api user" signing key, with ENCRYPTION_KEY, default the local development key), and
 * prints the key once. Send it as `X-UltraCart-Simple-Key: <key>` or `Authorization: Bearer <key>`.
 */
import pg from 'pg';
import { createMerchantKey } from '../src/webhooks/merchant-keys.ts';
import { DEV_SECRETS, LOCAL } from './stack/config.ts';

const [merchantId, label] = process.argv.slice(2);
if (!merchantId || !/^[A-Za-z0-9_-]{1,40}$/.test(merchantId)) {
  console.error('usage: npm run merchant-key -- <merchant_id> [label]   (merchant_id: 1-40 of A-Z a-z 0-9 _ -)');
  process.exit(2);
}
const client = new pg.Client({ connectionString: process.env.DATABASE_URL ?? LOCAL.databaseUrl });
await client.connect();
try {
  const q = {
    query: async <T>(text: string, params: readonly unknown[] = []) =>
      (await client.query(text, params as unknown[])).rows as T[],
  };
  const { keyId, key } = await createMerchantKey(
    q,
    process.env.ENCRYPTION_KEY ?? DEV_SECRETS.ENCRYPTION_KEY!,
    merchantId,
    label ?? null,
  );
  console.log(`merchant ${merchantId}: API key (api_user_oid ${keyId}); shown once, only its hash is stored:`);
  console.log(key);
} finally {
  await client.end();
}
