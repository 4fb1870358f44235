/**
 * The per-webhook throttle, an extension beside the UltraCart resource (its Webhook object has no
 * such member, and the SDKs send whole objects back, so it is configured here rather than in PUT
 * /webhooks/{oid}): `GET|PUT .../webhooks/{oid}/throttle {requests_per_second: number | null}`.
 * Delivery paces the webhook's attempts to that rate (throttle.ts); null removes the limit.
 */
import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../platform/env.ts';
import { validate } from '../platform/validate.ts';
import { merchantOf } from './merchant-keys.ts';
import { ok } from './views.ts';
import { setRateLimit } from './queries-throttle.ts';
import { BASE, mustGet, oidParam } from './routes-shared.ts';

export const MIN_RATE = 0.01;
export const MAX_RATE = 1000;

export const throttleRoutes = new Hono<AppEnv>();

const PATH = `${BASE}/webhooks/:webhook_oid/throttle`;
const throttleBody = z.object({ requests_per_second: z.number().min(MIN_RATE).max(MAX_RATE).nullable() }).strict();

throttleRoutes.get(PATH, validate('param', oidParam), async (c) => {
  const m = merchantOf(c.get('principal'));
  const w = await mustGet(c.get('db'), m.merchantId, c.req.valid('param').webhook_oid);
  return c.json(ok({ throttle: { requests_per_second: w.rate_limit_per_second } }));
});

throttleRoutes.put(PATH, validate('param', oidParam), validate('json', throttleBody), async (c) => {
  const m = merchantOf(c.get('principal'));
  const db = c.get('db');
  const oid = c.req.valid('param').webhook_oid;
  await mustGet(db, m.merchantId, oid);
  await setRateLimit(db, m.merchantId, oid, c.req.valid('json').requests_per_second);
  const w = await mustGet(db, m.merchantId, oid);
  return c.json(ok({ throttle: { requests_per_second: w.rate_limit_per_second } }));
});
