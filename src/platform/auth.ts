/**
 * JSON Web Tokens with jose: HS256 only (so `alg: none` and any other algorithm are refused),
 * expiry required, issuer and audience checked. The secret comes from `JWT_SECRET`; a secret
 * shorter than 32 bytes is refused rather than silently weakening every token.
 */
import { SignJWT, jwtVerify, errors as joseErrors, type JWTPayload } from 'jose';
import { authConfig } from './config/shared.ts';
import type { Env } from './env.ts';
import { HttpError } from './errors.ts';

export interface TokenOptions {
  /** Lifetime, e.g. '30d', '1h' or seconds. */
  expiresIn: string | number;
  audience: string;
  subject?: string;
}

function key(env: Pick<Env, 'JWT_SECRET'>): Uint8Array {
  return new TextEncoder().encode(authConfig(env).JWT_SECRET);
}

export async function issueToken(
  env: Pick<Env, 'JWT_SECRET' | 'JWT_ISSUER'>,
  claims: JWTPayload,
  opts: TokenOptions,
): Promise<string> {
  const jwt = new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setIssuer(authConfig(env).JWT_ISSUER)
    .setAudience(opts.audience)
    .setExpirationTime(
      typeof opts.expiresIn === 'number' ? Math.floor(Date.now() / 1000) + opts.expiresIn : opts.expiresIn,
    );
  if (opts.subject) jwt.setSubject(opts.subject);
  return jwt.sign(key(env));
}

/** Verifies a token; any failure becomes a 401 HttpError with a short reason. */
export async function verifyToken<T extends JWTPayload = JWTPayload>(
  env: Pick<Env, 'JWT_SECRET' | 'JWT_ISSUER'>,
  token: string,
  audience: string,
): Promise<T> {
  try {
    const { payload } = await jwtVerify(token, key(env), {
      algorithms: ['HS256'],
      issuer: authConfig(env).JWT_ISSUER,
      audience,
      requiredClaims: ['exp', 'iat'],
    });
    return payload as T;
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) throw new HttpError(401, 'token expired');
    if (err instanceof joseErrors.JOSEError) throw new HttpError(401, 'invalid token');
    throw err;
  }
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1] : undefined;
}
