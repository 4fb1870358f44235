/**
 * Merchant API keys: `uck_<43 url-safe chars>` (32 random bytes), stored as SHA-256 hex only, plus
 * the encrypted "api user" signing key HMAC-SHA256(key, "webhook-signing") that delivery uses for
 * `authentication_type = "api user"` (a receiver holding the key derives the same value; a leaked
 * key_hash does not give it). Sent as `X-UltraCart-Simple-Key` (the original's header) or as
 * `Authorization: Bearer <key>`.
 */
import type { MiddlewareHandler } from 'hono';
import type { Queryable } from '../platform/db.ts';
import type { AppEnv } from '../platform/env.ts';
import { bearerToken } from '../platform/auth.ts';
import { encryptSecret, hmacSha256, randomToken, sha256Hex, toHex } from '../platform/crypto.ts';
import { HttpError } from '../platform/errors.ts';
import { findKeyByHash, insertMerchantKey } from './queries-keys.ts';

export interface Merchant {
  merchantId: string;
  keyId: number;
}

export const KEY_PREFIX = 'uck_';

export async function apiUserSigningKey(apiKey: string): Promise<string> {
  return toHex(await hmacSha256(apiKey, 'webhook-signing'));
}

/** Creates a key for a merchant; the clear key is returned once and never stored. */
export async function createMerchantKey(
  q: Queryable,
  encryptionKey: string,
  merchantId: string,
  label: string | null = null,
  key = KEY_PREFIX + randomToken(32),
): Promise<{ keyId: number; key: string }> {
  const keyId = await insertMerchantKey(q, {
    merchantId,
    keyHash: await sha256Hex(key),
    signingKeyEnc: await encryptSecret(encryptionKey, await apiUserSigningKey(key)),
    label,
  });
  return { keyId, key };
}

function presentedKey(simple: string | undefined, authorization: string | undefined): string | undefined {
  return simple?.trim() || bearerToken(authorization);
}

/**
 * Resolves the merchant from the request's key; 401 in the UltraCart envelope otherwise. A principal
 * set before (routes-status-link.ts, on the status page only) stands.
 */
export const merchantAuth: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.get('principal') !== undefined) return next(); // already authenticated (a signed status link)
  const key = presentedKey(c.req.header('X-UltraCart-Simple-Key'), c.req.header('Authorization'));
  if (!key?.startsWith(KEY_PREFIX) || key.length > 200)
    throw new HttpError(
      401,
      'Invalid credentials: send a merchant API key as X-UltraCart-Simple-Key or a bearer token',
    );
  const row = await findKeyByHash(c.get('db'), await sha256Hex(key));
  if (!row) throw new HttpError(401, 'Invalid credentials: unknown merchant API key');
  c.set('principal', { merchantId: row.merchant_id, keyId: row.key_id } satisfies Merchant);
  await next();
};

export function merchantOf(principal: unknown): Merchant {
  return principal as Merchant;
}
