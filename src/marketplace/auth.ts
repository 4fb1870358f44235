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
import type { Statement } from '../platform/db.ts';
import { authState, type AuthState, rowsAsJson, withAuthState } from './queries-users.ts';

export const AUDIENCE = 'marketplace';
export const TOKEN_LIFETIME = '30d';

export interface Principal {
  id: string;
  permissionType: number;
}

export async function tokenFor(env: AppEnv['Bindings'], userId: string, tokenVersion: number): Promise<string> {
  return issueToken(env, { tv: tokenVersion }, { expiresIn: TOKEN_LIFETIME, audience: AUDIENCE, subject: userId });
}

/** What a token says once its signature, audience and expiry are checked: no database read yet. */
interface Claims {
  sub: string;
  tv: number | undefined;
}

async function verifiedClaims(c: Context<AppEnv>, token: string): Promise<Claims> {
  const claims = await verifyToken<{ sub?: string; tv?: number }>(c.env, token, AUDIENCE);
  if (!claims.sub || !/^\d{1,15}$/.test(claims.sub)) throw new HttpError(401, 'invalid token');
  return { sub: claims.sub, tv: claims.tv };
}

/** The user's state decides: a deleted user or a token of an older version is a 401. */
function principalOf(claims: Claims, state: AuthState | undefined): Principal {
  if (!state || state.token_version !== claims.tv) throw new HttpError(401, 'invalid token');
  return { id: claims.sub, permissionType: state.permission_type };
}

/** A token's principal (signature, audience, expiry, then the user's current version and permission); 401 otherwise. */
export async function authenticate(c: Context<AppEnv>, token: string): Promise<Principal> {
  const claims = await verifiedClaims(c, token);
  return principalOf(claims, await authState(c.get('db'), claims.sub));
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

const pendingClaims = new WeakMap<Context<AppEnv>, Claims>();

/**
 * requireUser (`required`) or optionalUser for a read route whose answer is one statement: the token is
 * checked here (signature, audience, expiry), and the user's state is read by `readAsViewer` in the same
 * round trip as that statement. The route returns no data before that check has passed (a malformed
 * request is still a 400 first, as it is for everyone).
 */
export function tokenForRead(required: boolean): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = bearerToken(c.req.header('Authorization'));
    if (token) pendingClaims.set(c, await verifiedClaims(c, token));
    else if (required) throw new HttpError(401, 'No token provided.');
    else if (c.req.header('Authorization')) throw new HttpError(401, 'invalid token');
    await next();
  };
}

/**
 * The rows of a read route's one statement, built for the signed-in viewer (undefined without a token).
 * With a token, the user's state is read by the same statement (one round trip, withAuthState); when it
 * fails the check the answer is a 401 and the rows are dropped unread.
 */
export async function readAsViewer<T>(
  c: Context<AppEnv>,
  statement: (viewer: string | undefined) => Statement,
): Promise<T[]> {
  const claims = pendingClaims.get(c);
  if (!claims) {
    const st = rowsAsJson(statement(undefined));
    return (await c.get('db').query<{ rows: T[] }>(st.text, st.params))[0]!.rows;
  }
  const st = withAuthState(statement(claims.sub), claims.sub);
  const [row] = await c.get('db').query<{ auth: AuthState | null; rows: T[] }>(st.text, st.params);
  c.set('principal', principalOf(claims, row?.auth ?? undefined));
  return row!.rows;
}

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
