/**
 * Delivery signatures.
 *  - Standard Webhooks v1 (standard-webhooks spec 1.0.0): secret `whsec_<base64 of 24 random
 *    bytes>`, `webhook-signature: v1,<base64 HMAC-SHA256(secret bytes, "<id>.<timestamp>.<body>")>`,
 *    `webhook-id` stable per batch across retries, `webhook-timestamp` unix seconds of the attempt.
 *  - "api user" authentication: `X-UltraCart-Api-User-Oid` and
 *    `X-UltraCart-Signature: t=<timestamp>,v1=<hex HMAC-SHA256(api user signing key, "<timestamp>.<body>")>`
 *    where the signing key is HMAC-SHA256(api key, "webhook-signing") in hex (see merchant-keys.ts).
 *  - basic: `Authorization: Basic base64(user:password)`.
 */
import { fromBase64, hmacSha256, randomBytes, timingSafeEqual, toBase64, toHex } from '../platform/crypto.ts';

export function newSigningSecret(): string {
  return `whsec_${toBase64(randomBytes(24))}`;
}

function secretBytes(secret: string): Uint8Array {
  return fromBase64(secret.startsWith('whsec_') ? secret.slice(6) : secret);
}

export async function standardSignature(secret: string, id: string, timestamp: number, body: string): Promise<string> {
  return `v1,${toBase64(await hmacSha256(secretBytes(secret), `${id}.${timestamp}.${body}`))}`;
}

/** Verifies a `webhook-signature` header (any of its space-separated v1 entries) with a tolerance. */
export async function verifyStandardSignature(
  secret: string,
  headers: { id: string; timestamp: string; signature: string },
  body: string,
  nowSeconds = Math.floor(Date.now() / 1000),
  toleranceSeconds = 300,
): Promise<boolean> {
  const ts = Number(headers.timestamp);
  if (!Number.isInteger(ts) || Math.abs(nowSeconds - ts) > toleranceSeconds) return false;
  const expected = await standardSignature(secret, headers.id, ts, body);
  return headers.signature.split(' ').some((s) => timingSafeEqual(s, expected));
}

export async function apiUserSignature(signingKeyHex: string, timestamp: number, body: string): Promise<string> {
  return `t=${timestamp},v1=${toHex(await hmacSha256(signingKeyHex, `${timestamp}.${body}`))}`;
}

export function basicAuthorization(user: string, password: string): string {
  return `Basic ${toBase64(new TextEncoder().encode(`${user}:${password}`))}`;
}
