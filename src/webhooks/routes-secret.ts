/**
 * Signing-secret rotation, an extension beside the UltraCart resource (UltraCart has no Standard
 * Webhooks secret): `POST .../webhooks/{oid}/signing_secret/rotate {overlap_seconds?}` makes a new
 * secret current and keeps the replaced one for the overlap (default 24 h, at most 7 days, 0 = drop
 * it now); during the overlap every delivery carries both signatures, `webhook-signature:
 * v1,<new> v1,<old>`, so receivers verifying with either secret keep working. The new secret is
 * shown once, in the `Webhook-Signing-Secret` header, like at creation. `GET .../signing_secret`
 * tells the state (never a secret), `DELETE .../signing_secret/previous` ends the overlap early.
 */
import { Hono } from 'hono';
import * as z from 'zod';
import { encryptSecret } from '../platform/crypto.ts';
import type { AppEnv } from '../platform/env.ts';
import { validate } from '../platform/validate.ts';
import { merchantOf } from './merchant-keys.ts';
import { ok } from './views.ts';
import { dropPreviousSecret, rotateSecret } from './queries-secret.ts';
import { BASE, mustGet, oidParam } from './routes-shared.ts';
import { newSigningSecret } from './signing.ts';
import { encryptionKey } from '../platform/config/shared.ts';

export const DEFAULT_OVERLAP_SECONDS = 86_400;
export const MAX_OVERLAP_SECONDS = 7 * 86_400;

export const secretRoutes = new Hono<AppEnv>();

const rotateBody = z
  .object({
    overlap_seconds: z.coerce.number().int().min(0).max(MAX_OVERLAP_SECONDS).default(DEFAULT_OVERLAP_SECONDS),
  })
  .strict();

const PATH = `${BASE}/webhooks/:webhook_oid/signing_secret`;

/** The state of a webhook's secrets: when the previous one stops signing, if one is still valid. */
function secretState(previousUntil: Date | null, now = Date.now()) {
  const live = previousUntil !== null && previousUntil.getTime() > now;
  return { previous_secret_active: live, previous_secret_expires_dts: live ? previousUntil.toISOString() : null };
}

secretRoutes.get(PATH, validate('param', oidParam), async (c) => {
  const m = merchantOf(c.get('principal'));
  const w = await mustGet(c.get('db'), m.merchantId, c.req.valid('param').webhook_oid);
  const until = w.previous_signing_secret_enc && w.previous_secret_until ? new Date(w.previous_secret_until) : null;
  return c.json(ok({ signing_secret: secretState(until) }));
});

secretRoutes.post(`${PATH}/rotate`, validate('param', oidParam), validate('json', rotateBody), async (c) => {
  const m = merchantOf(c.get('principal'));
  const db = c.get('db');
  const oid = c.req.valid('param').webhook_oid;
  await mustGet(db, m.merchantId, oid);
  const secret = newSigningSecret();
  const overlap = c.req.valid('json').overlap_seconds;
  const r = await rotateSecret(db, m.merchantId, oid, await encryptSecret(encryptionKey(c.env), secret), overlap);
  await mustGet(db, m.merchantId, oid); // deleted meanwhile: 404
  c.header('Webhook-Signing-Secret', secret);
  c.header('Cache-Control', 'no-store');
  return c.json(ok({ signing_secret: { ...secretState(r?.until ?? null), overlap_seconds: overlap } }));
});

secretRoutes.delete(`${PATH}/previous`, validate('param', oidParam), async (c) => {
  const m = merchantOf(c.get('principal'));
  const db = c.get('db');
  const oid = c.req.valid('param').webhook_oid;
  await mustGet(db, m.merchantId, oid);
  await dropPreviousSecret(db, m.merchantId, oid);
  return c.json(ok({ signing_secret: secretState(null) }));
});
