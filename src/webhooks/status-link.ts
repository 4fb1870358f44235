/**
 * Signed links to the webhook status page, so a person opens it in a browser without a header: the API
 * (with the merchant key) issues `.../webhooks/{oid}/status?token=<jwt>`; the page accepts that token
 * instead of the key. The token is an HS256 JWT (jose) for audience `webhook-status`, subject the
 * webhook oid, claim `mid` the merchant, and a short expiry (at most an hour). Its key is derived from
 * ENCRYPTION_KEY (HMAC-SHA256 over a fixed label), so the pipeline function needs no new secret and a
 * token for one purpose is worthless for any other. A token grants read access to one webhook's page
 * only, and never leaves the page (`Referrer-Policy: no-referrer`, the page links nowhere).
 */
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { encryptionKey } from '../platform/config/shared.ts';
import { hmacSha256 } from '../platform/crypto.ts';
import type { Env } from '../platform/env.ts';

export const STATUS_LINK_DEFAULT_SECONDS = 900;
export const STATUS_LINK_MAX_SECONDS = 3600;
const AUDIENCE = 'webhook-status';

async function linkKey(env: Pick<Env, 'ENCRYPTION_KEY'>): Promise<Uint8Array> {
  return hmacSha256(encryptionKey(env), 'webhook-status-link');
}

/** A token for the status page of webhook `oid` of `merchantId`, valid for `seconds`. */
export async function issueStatusToken(
  env: Pick<Env, 'ENCRYPTION_KEY'>,
  merchantId: string,
  oid: number,
  seconds: number,
): Promise<{ token: string; expires: Date }> {
  const now = Math.floor(Date.now() / 1000);
  const token = await new SignJWT({ mid: merchantId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(now)
    .setAudience(AUDIENCE)
    .setSubject(String(oid))
    .setExpirationTime(now + seconds)
    .sign(await linkKey(env));
  return { token, expires: new Date((now + seconds) * 1000) };
}

export type StatusTokenCheck = { ok: true; merchantId: string } | { ok: false; why: 'expired' | 'invalid' };

/** Verifies a token for webhook `oid`: expired, forged, altered or for another webhook are refused. */
export async function verifyStatusToken(
  env: Pick<Env, 'ENCRYPTION_KEY'>,
  token: string,
  oid: number,
): Promise<StatusTokenCheck> {
  try {
    const { payload } = await jwtVerify(token, await linkKey(env), {
      algorithms: ['HS256'],
      audience: AUDIENCE,
      subject: String(oid),
      requiredClaims: ['exp', 'iat', 'sub'],
    });
    return typeof payload.mid === 'string' ? { ok: true, merchantId: payload.mid } : { ok: false, why: 'invalid' };
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) return { ok: false, why: 'expired' };
    if (err instanceof joseErrors.JOSEError) return { ok: false, why: 'invalid' };
    throw err;
  }
}
