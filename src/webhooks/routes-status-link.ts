/**
 * The status page through a signed link, an extension beside the UltraCart resource:
 *   POST .../webhooks/{oid}/status_link {expires_in_seconds?}   (merchant key) -> {status_link:{url, expires_dts}}
 *   GET  .../webhooks/{oid}/status?token=<token>               (no key) -> the page, or a 403 page
 * `statusLinkAuth` runs before the merchant-key check on the page's path: with a `token` it stands in
 * for the key (an expired or invalid token is a 403 HTML page that says which); without one the key
 * is required as before. Tokens: status-link.ts.
 */
import { Hono, type MiddlewareHandler } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../platform/env.ts';
import { validate } from '../platform/validate.ts';
import { merchantOf, type Merchant } from './merchant-keys.ts';
import { BASE, mustGet, oidParam } from './routes-shared.ts';
import {
  issueStatusToken,
  STATUS_LINK_DEFAULT_SECONDS,
  STATUS_LINK_MAX_SECONDS,
  verifyStatusToken,
} from './status-link.ts';
import { ok } from './views.ts';
import { renderLinkRefused, STATUS_PAGE_HEADERS } from './views-status-page.ts';

export const STATUS_PATH = `${BASE}/webhooks/:webhook_oid/status`;

export const statusLinkRoutes = new Hono<AppEnv>();

const linkBody = z
  .object({
    expires_in_seconds: z.number().int().min(1).max(STATUS_LINK_MAX_SECONDS).default(STATUS_LINK_DEFAULT_SECONDS),
  })
  .strict();

statusLinkRoutes.post(`${STATUS_PATH}_link`, validate('param', oidParam), validate('json', linkBody), async (c) => {
  const m = merchantOf(c.get('principal'));
  const oid = c.req.valid('param').webhook_oid;
  await mustGet(c.get('db'), m.merchantId, oid);
  const { token, expires } = await issueStatusToken(c.env, m.merchantId, oid, c.req.valid('json').expires_in_seconds);
  const url = new URL(`${BASE}/webhooks/${oid}/status`, c.req.url);
  url.searchParams.set('token', token);
  c.header('Cache-Control', 'no-store');
  return c.json(ok({ status_link: { url: url.toString(), expires_dts: expires.toISOString() } }));
});

/** On the page's path: a `token` query parameter stands in for the merchant key. */
export const statusLinkAuth: MiddlewareHandler<AppEnv> = async (c, next) => {
  const token = c.req.query('token');
  if (token === undefined || c.req.method !== 'GET') return next();
  const oid = Number(c.req.param('webhook_oid'));
  const check =
    Number.isSafeInteger(oid) && oid > 0 && token.length <= 2000
      ? await verifyStatusToken(c.env, token, oid)
      : ({ ok: false, why: 'invalid' } as const);
  if (!check.ok) return c.html(renderLinkRefused(check.why), 403, STATUS_PAGE_HEADERS);
  c.set('principal', { merchantId: check.merchantId, keyId: 0 } satisfies Merchant);
  return next();
};
