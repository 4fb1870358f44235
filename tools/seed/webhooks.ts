/**
 * Demo data for the webhook resource (`npm start` calls `seed`): a merchant API key for merchant
 * DEMO, derived from ENCRYPTION_KEY (HMAC), so every start prints the same working key while only
 * its hash is stored; idempotent (the key row is upserted by hash). A local development key only:
 * production keys come from `npm run merchant-key`.
 */
import pg from 'pg';
import { hmacSha256, toBase64Url } from '../../src/platform/crypto.ts';
import { createMerchantKey, KEY_PREFIX } from '../../src/webhooks/merchant-keys.ts';
import { DEV_SECRETS } from '../stack/config.ts';

export const DEMO_MERCHANT = 'DEMO';

export async function seed(ctx: { databaseUrl: string; env: Record<string, string> }): Promise<string[]> {
  const encryptionKey = ctx.env.ENCRYPTION_KEY ?? DEV_SECRETS.ENCRYPTION_KEY;
  const demoKey = KEY_PREFIX + toBase64Url(await hmacSha256(encryptionKey, 'demo-merchant-key:DEMO'));
  const client = new pg.Client({ connectionString: ctx.databaseUrl });
  await client.connect();
  try {
    const q = {
      query: async <T>(text: string, params: readonly unknown[] = []) =>
        (await client.query(text, params as unknown[])).rows as T[],
    };
    await createMerchantKey(q, encryptionKey, DEMO_MERCHANT, 'demo (npm start)', demoKey);
  } finally {
    await client.end();
  }
  const base = `${ctx.env.PIPELINE_URL ?? 'http://127.0.0.1:8789'}/rest/v2/webhook/webhooks`;
  return [
    `webhooks: merchant ${DEMO_MERCHANT}, API key ${demoKey}`,
    `  list:   curl -s -H 'X-UltraCart-Simple-Key: ${demoKey}' ${base}`,
    `  create: curl -s -H 'X-UltraCart-Simple-Key: ${demoKey}' -H 'content-type: application/json' -d '{"webhook_url":"https://example.com/hook","event_categories":[{"event_category":"book","subscribed":true}]}' ${base}`,
  ];
}
