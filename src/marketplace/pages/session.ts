/**
 * Sessions and CSRF protection of the pages. The session is the API's own signed token (auth.ts
 * `tokenFor`), held in an HttpOnly, Secure, SameSite=Lax cookie and checked exactly as a bearer token is
 * (`authenticate`: signature, audience, expiry, then the user's current token version and permission),
 * so logging out (a new token version) or a password change ends it, and the API keeps reading bearer
 * tokens only (a cookie never authenticates an API call, so the API needs no CSRF defence).
 *
 * CSRF: every form carries `_csrf`, an HMAC (JWT_SECRET) of a random nonce held in its own cookie and of
 * the session cookie's value; a POST without the matching value is a 403 before anything else runs. A
 * forged cross-site form can neither read the nonce nor compute the HMAC, and a token made for one
 * session does not fit another.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { authConfig } from '../../platform/config/shared.ts';
import { hmacSha256, randomToken, timingSafeEqual, toBase64Url } from '../../platform/crypto.ts';
import type { AppEnv } from '../../platform/env.ts';
import { HttpError } from '../../platform/errors.ts';
import { authenticate, type Principal } from '../auth.ts';

export const SESSION_COOKIE = 'mp_session';
export const CSRF_COOKIE = 'mp_csrf';
export const CSRF_FIELD = '_csrf';
const SESSION_SECONDS = 30 * 24 * 3600; // the token's own lifetime (auth.ts TOKEN_LIFETIME)

const COOKIE = { path: '/', httpOnly: true, secure: true, sameSite: 'Lax' } as const;

export function startSession(c: Context<AppEnv>, token: string): void {
  setCookie(c, SESSION_COOKIE, token, { ...COOKIE, maxAge: SESSION_SECONDS });
}

export function endSession(c: Context<AppEnv>): void {
  deleteCookie(c, SESSION_COOKIE, COOKIE);
}

/** The signed-in user of a page request, or undefined (an invalid or revoked session cookie is dropped). */
export const sessionUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  const token = getCookie(c, SESSION_COOKIE);
  if (token) {
    try {
      c.set('principal', await authenticate(c, token));
    } catch (err) {
      if (!(err instanceof HttpError) || err.status !== 401) throw err;
      endSession(c);
    }
  }
  await next();
};

export function viewer(c: Context<AppEnv>): Principal | undefined {
  return c.get('principal') as Principal | undefined;
}

/** Pages for signed-in users: anyone else is sent to the login page, which returns them here. */
export const requireSession: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!viewer(c)) return c.redirect(`/login?next=${encodeURIComponent(c.req.path)}`, 303);
  await next();
};

async function csrfFor(c: Context<AppEnv>, nonce: string): Promise<string> {
  const session = getCookie(c, SESSION_COOKIE) ?? '';
  return toBase64Url(await hmacSha256(authConfig(c.env).JWT_SECRET, `csrf\n${nonce}\n${session}`));
}

const tokens = new WeakMap<Context<AppEnv>, Promise<string>>();

/** The `_csrf` value for this request's forms (setting the nonce cookie on first use; one per request). */
export function csrfToken(c: Context<AppEnv>): Promise<string> {
  let t = tokens.get(c);
  if (!t) {
    let nonce = getCookie(c, CSRF_COOKIE);
    if (!nonce || !/^[A-Za-z0-9_-]{20,64}$/.test(nonce)) {
      nonce = randomToken(24);
      setCookie(c, CSRF_COOKIE, nonce, COOKIE);
    }
    t = csrfFor(c, nonce);
    tokens.set(c, t);
  }
  return t;
}

/** Every POST of the pages: the form must carry this session's `_csrf` (403 otherwise). */
export const checkCsrf: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method !== 'POST') return next();
  const nonce = getCookie(c, CSRF_COOKIE);
  const form = await c.req.parseBody();
  const sent = form[CSRF_FIELD];
  if (!nonce || typeof sent !== 'string' || !timingSafeEqual(sent, await csrfFor(c, nonce)))
    throw new HttpError(403, 'This form has expired or did not come from this site; reload the page and try again.');
  await next();
};
