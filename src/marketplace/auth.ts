/**
 * Authentication for the marketplace: a jose HS256 token (audience `marketplace`, subject = user
 * id, claim `tv` = the user's token version, 30 days like the original) checked on every request,
 * and the user's permission read from the database each time, so a demoted admin loses rights at
 * once and a password change ends every older session.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../platform/env.ts';
import { HttpError } from '../platform/errors.ts';
import { bearerToken, issueToken, verifyToken } from '../platform/auth.ts';
import { authState } from './queries-users.ts';

export const AUDIENCE = 'marketplace';
export const TOKEN_LIFETIME = '30d';

export interface Principal {
  id: string;
  permissionType: number;
}

export async function tokenFor(env: AppEnv['Bindings'], userId: string, tokenVersion: number): Promise<string> {
  return issueToken(env, { tv: tokenVersion }, { expiresIn: TOKEN_LIFETIME, audience: AUDIENCE, subject: userId });
}

async function authenticate(c: Context<AppEnv>, token: string): Promise<Principal> {
  const claims = await verifyToken<{ sub?: string; tv?: number }>(c.env, token, AUDIENCE);
  if (!claims.sub || !/^\d{1,15}$/.test(claims.sub)) throw new HttpError(401, 'invalid token');
  const state = await authState(c.get('db'), claims.sub);
  if (!state || state.token_version !== claims.tv) throw new HttpError(401, 'invalid token');
  return { id: claims.sub, permissionType: state.permission_type };
}

/** 401 without a valid token. */
export const requireUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  const token = bearerToken(c.req.header('Authorization'));
  if (!token) throw new HttpError(401, 'No token provided.');
  c.set('principal', await authenticate(c, token));
  await next();
};

/** A token is optional, but a token that is sent must be valid. */
export const optionalUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  const token = bearerToken(c.req.header('Authorization'));
  if (token) c.set('principal', await authenticate(c, token));
  else if (c.req.header('Authorization')) throw new HttpError(401, 'invalid token');
  await next();
};

/** After requireUser: 403 unless the user's current permission is at least `level`. */
export function requireRole(level: 1 | 2): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (me(c).permissionType < level) throw new HttpError(403, 'Unauthorized');
    await next();
  };
}

export function me(c: Context<AppEnv>): Principal {
  const p = c.get('principal') as Principal | undefined;
  if (!p) throw new HttpError(401, 'No token provided.');
  return p;
}

export function maybeMe(c: Context<AppEnv>): Principal | undefined {
  return c.get('principal') as Principal | undefined;
}
