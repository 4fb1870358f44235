/**
 * The webhook resource, path- and shape-compatible with UltraCart's REST API v2
 * (`/rest/v2/webhook/...`, `{webhook|webhooks, success, error, warning, metadata}`), so its SDKs work
 * with only the base URL changed. Every route needs a merchant API key; a merchant sees only its own
 * webhooks (others' are 404). Errors use the UltraCart envelope (own onError and a catch-all 404).
 */
import { Hono } from 'hono';
import * as z from 'zod';
import { encryptSecret, randomToken } from '../platform/crypto.ts';
import type { AppEnv, Env } from '../platform/env.ts';
import { errorHandler, HttpError } from '../platform/errors.ts';
import { queryBool } from '../platform/query-bool.ts';
import { validate } from '../platform/validate.ts';
import { findEvent } from './catalog.ts';
import { scheduleDelivery } from './deliver.ts';
import { merchantAuth, merchantOf } from './merchant-keys.ts';
import { ok, logView, logSummaryView, webhookView, resultSet } from './views.ts';
import {
  deleteWebhook,
  findWebhooksByUrl,
  getLog,
  insertWebhook,
  keyBelongsTo,
  listLogs,
  listWebhooks,
  SORTS,
  updateWebhook,
  type WebhookRow,
  type WebhookValues,
} from './queries.ts';
import { enqueueForWebhook } from './queries-delivery.ts';
import { mergeWebhook, webhookInput, type Merged } from './schemas-webhook.ts';
import { newSigningSecret } from './signing.ts';
import { BASE, mustGet, oidParam } from './routes-shared.ts';
import { secretRoutes } from './routes-secret.ts';
import { replayRoutes } from './routes-replay.ts';
import { attemptRoutes } from './routes-attempts.ts';
import { throttleRoutes } from './routes-throttle.ts';
import { STATUS_PATH, statusLinkAuth, statusLinkRoutes } from './routes-status-link.ts';
import { encryptionKey } from '../platform/config/shared.ts';

export const webhookRoutes = new Hono<AppEnv>();
webhookRoutes.onError(errorHandler('ultracart'));

const page = (def: number) => ({
  _limit: z.coerce.number().int().min(1).max(500).default(def),
  _offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
const listQuery = z.object({ ...page(100), _sort: z.string().max(50).optional(), _placeholders: queryBool.optional() });
const placeholdersQuery = z.object({ _placeholders: queryBool.optional() });
const logsQuery = z.object({
  ...page(100),
  _since: z
    .string()
    .max(40)
    .refine((s) => !Number.isNaN(Date.parse(s)), { message: 'must be a date/time' })
    .optional(),
});
const logParam = oidParam.extend({ request_id: z.string().max(100) });
const reflowParam = oidParam.extend({ event_name: z.string().max(100) });
const deleteByUrl = z.object({ webhook_url: z.string().min(1).max(2048) });

webhookRoutes.use(STATUS_PATH, statusLinkAuth); // a signed link stands in for the key on the status page
webhookRoutes.use(`${BASE}/*`, merchantAuth);

function storedForMerge(w: WebhookRow) {
  return { ...w, hasBasicPassword: Boolean(w.basic_password_enc), hasIamSecret: Boolean(w.iam_secret_key_enc) };
}

async function toValues(env: Env, merged: Merged, stored: WebhookRow | undefined): Promise<WebhookValues> {
  const enc = async (clear: string | null | undefined, storedEnc: string | null | undefined) =>
    clear === undefined ? (storedEnc ?? null) : clear === null ? null : encryptSecret(encryptionKey(env), clear);
  return {
    ...merged.values,
    basic_password_enc: await enc(merged.secrets.basicPassword, stored?.basic_password_enc),
    iam_secret_key_enc: await enc(merged.secrets.iamSecretKey, stored?.iam_secret_key_enc),
  };
}

async function checkApiUser(db: AppEnv['Variables']['db'], merchantId: string, v: WebhookValues): Promise<void> {
  if (v.api_user_oid !== null && !(await keyBelongsTo(db, merchantId, v.api_user_oid)))
    throw new HttpError(400, 'api_user_oid is not an API user of this merchant');
}

webhookRoutes.get(`${BASE}/webhooks`, validate('query', listQuery), async (c) => {
  const q = c.req.valid('query');
  const m = merchantOf(c.get('principal'));
  const sort = (q._sort ?? 'webhook_oid').replace(/^[-+]/, '');
  if (!(sort in SORTS))
    throw new HttpError(400, `_sort must be one of ${Object.keys(SORTS).join(', ')} (optionally prefixed with -)`);
  const { rows, total } = await listWebhooks(c.get('db'), m.merchantId, {
    limit: q._limit,
    offset: q._offset,
    sort,
    desc: (q._sort ?? '').startsWith('-'),
  });
  const webhooks = await Promise.all(rows.map((w) => webhookView(c.env, w, q._placeholders ?? false)));
  return c.json(ok({ webhooks }, resultSet('webhooks', webhooks.length, q._limit, q._offset, total)));
});

webhookRoutes.post(
  `${BASE}/webhooks`,
  validate('query', placeholdersQuery),
  validate('json', webhookInput),
  async (c) => {
    const m = merchantOf(c.get('principal'));
    const db = c.get('db');
    const merged = mergeWebhook(c.req.valid('json'), undefined, c.env, m.keyId, () => randomToken(18));
    const values = await toValues(c.env, merged, undefined);
    await checkApiUser(db, m.merchantId, values);
    const secret = newSigningSecret();
    const oid = await insertWebhook(db, m.merchantId, values, await encryptSecret(encryptionKey(c.env), secret));
    const webhook = await webhookView(
      c.env,
      await mustGet(db, m.merchantId, oid),
      c.req.valid('query')._placeholders ?? false,
    );
    // Shown once: the generated basic password (the original returns generated credentials) and the
    // Standard Webhooks signing secret (a header, so the Webhook object keeps the SDKs' shape).
    if (merged.generatedPassword && merged.secrets.basicPassword) webhook.basic_password = merged.secrets.basicPassword;
    c.header('Webhook-Signing-Secret', secret);
    c.header('Cache-Control', 'no-store');
    return c.json(ok({ webhook }), 200);
  },
);

webhookRoutes.put(
  `${BASE}/webhooks/:webhook_oid`,
  validate('param', oidParam),
  validate('query', placeholdersQuery),
  validate('json', webhookInput),
  async (c) => {
    const m = merchantOf(c.get('principal'));
    const db = c.get('db');
    const oid = c.req.valid('param').webhook_oid;
    const stored = await mustGet(db, m.merchantId, oid);
    const merged = mergeWebhook(c.req.valid('json'), storedForMerge(stored), c.env, m.keyId, () => randomToken(18));
    const values = await toValues(c.env, merged, stored);
    await checkApiUser(db, m.merchantId, values);
    await updateWebhook(db, m.merchantId, oid, values);
    const after = await mustGet(db, m.merchantId, oid);
    if (stored.disabled && !after.disabled && after.pending > 0)
      c.executionCtx.waitUntil(scheduleDelivery(c.env, oid).catch(() => undefined));
    const webhook = await webhookView(c.env, after, c.req.valid('query')._placeholders ?? false);
    if (merged.generatedPassword && merged.secrets.basicPassword) webhook.basic_password = merged.secrets.basicPassword;
    c.header('Cache-Control', 'no-store');
    return c.json(ok({ webhook }));
  },
);

webhookRoutes.delete(`${BASE}/webhooks/:webhook_oid`, validate('param', oidParam), async (c) => {
  const m = merchantOf(c.get('principal'));
  if (!(await deleteWebhook(c.get('db'), m.merchantId, c.req.valid('param').webhook_oid)))
    throw new HttpError(404, `webhook ${c.req.valid('param').webhook_oid} not found`);
  return c.body(null, 204);
});

webhookRoutes.delete(`${BASE}/webhooks`, validate('json', deleteByUrl), async (c) => {
  const m = merchantOf(c.get('principal'));
  const db = c.get('db');
  const matches = await findWebhooksByUrl(db, m.merchantId, c.req.valid('json').webhook_url);
  if (!matches.length) throw new HttpError(404, 'no webhook with that webhook_url');
  for (const w of matches) await deleteWebhook(db, m.merchantId, w.webhook_oid);
  return c.json(ok({ webhook: await webhookView(c.env, matches[0]!) }));
});

webhookRoutes.get(
  `${BASE}/webhooks/:webhook_oid/logs`,
  validate('param', oidParam),
  validate('query', logsQuery),
  async (c) => {
    const m = merchantOf(c.get('principal'));
    const db = c.get('db');
    const oid = c.req.valid('param').webhook_oid;
    await mustGet(db, m.merchantId, oid);
    const q = c.req.valid('query');
    const { rows, total } = await listLogs(db, oid, {
      limit: q._limit,
      offset: q._offset,
      since: q._since ? new Date(q._since) : null,
    });
    return c.json(
      ok(
        { webhook_log_summaries: rows.map(logSummaryView) },
        resultSet('webhook_log_summaries', rows.length, q._limit, q._offset, total),
      ),
    );
  },
);

webhookRoutes.get(`${BASE}/webhooks/:webhook_oid/logs/:request_id`, validate('param', logParam), async (c) => {
  const m = merchantOf(c.get('principal'));
  const db = c.get('db');
  const { webhook_oid, request_id } = c.req.valid('param');
  await mustGet(db, m.merchantId, webhook_oid);
  const log = await getLog(db, webhook_oid, request_id);
  if (!log) throw new HttpError(404, `log ${request_id} not found`);
  return c.json(ok({ webhook_log: logView(log) }));
});

webhookRoutes.post(`${BASE}/webhooks/:webhook_oid/reflow/:event_name`, validate('param', reflowParam), async (c) => {
  const m = merchantOf(c.get('principal'));
  const db = c.get('db');
  const { webhook_oid, event_name } = c.req.valid('param');
  const w = await mustGet(db, m.merchantId, webhook_oid);
  const found = findEvent(event_name);
  if (!found) throw new HttpError(400, `unknown event ${event_name}`);
  if (!w.events.includes(event_name))
    throw new HttpError(400, `webhook ${webhook_oid} is not subscribed to ${event_name}`);
  if (w.disabled) throw new HttpError(400, `webhook ${webhook_oid} is disabled`);
  const reflow = found.event.reflow;
  if (!reflow) throw new HttpError(400, `event ${event_name} does not support reflow`);
  const queued = await db.transaction(async (tx) => enqueueForWebhook(tx, webhook_oid, await reflow(tx)));
  if (queued > 0)
    c.executionCtx.waitUntil(
      scheduleDelivery(c.env, webhook_oid).catch((err) =>
        console.warn('reflow schedule failed (sweep will retry):', (err as Error).message),
      ),
    );
  return c.json(ok({ reflow: { event_name, queued: queued > 0 } }));
});

webhookRoutes.route('/', secretRoutes);
webhookRoutes.route('/', replayRoutes);
webhookRoutes.route('/', attemptRoutes);
webhookRoutes.route('/', throttleRoutes);
webhookRoutes.route('/', statusLinkRoutes);

webhookRoutes.all(`${BASE}/*`, (c) => {
  throw new HttpError(404, `no route for ${c.req.method} ${c.req.path}`);
});
