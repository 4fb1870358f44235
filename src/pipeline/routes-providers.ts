/**
 * /api/v1/providers: the two fixed providers `llm_alpha` and `llm_beta` (OpenAI-compatible chat).
 * providerPatch merges `config` into the stored settings (api_key encrypted; a masked value keeps the stored
 * key); `test` sends the original's probe prompt with the stored settings overlaid by `config` (not
 * saved) and answers `{success, message, latency_ms, model}`, 200 either way like the original.
 */
import { Hono } from 'hono';
import { refuseOutbound } from './saved-urls.ts';
import type { AppEnv } from '../platform/env.ts';
import { HttpError } from '../platform/errors.ts';
import { parseWith, validate } from '../platform/validate.ts';
import { chat, ChatError } from './chat-client.ts';
import { optionalJson } from './params.ts';
import { getProvider, listProviders, saveProvider, type ProviderRow } from './queries-settings.ts';
import { chatSettings, nextSecret, PROVIDER_IDS, providerView } from './settings.ts';
import { providerPatch, providerTest } from './schemas.ts';

export const PROBE_PROMPT = 'Return JSON only: {"ok": true, "message": "pong"}';

function providerId(raw: string): (typeof PROVIDER_IDS)[number] {
  if (!(PROVIDER_IDS as readonly string[]).includes(raw)) throw new HttpError(404, 'Provider not found');
  return raw as (typeof PROVIDER_IDS)[number];
}

export const providerRoutes = new Hono<AppEnv>();

providerRoutes.get('/', async (c) => {
  const rows = await listProviders(c.get('db'));
  return c.json(await Promise.all(rows.map((p) => providerView(c.env, p))));
});

providerRoutes.get('/:provider_id', async (c) => {
  const row = await getProvider(c.get('db'), providerId(c.req.param('provider_id')));
  return c.json(await providerView(c.env, row!));
});

providerRoutes.patch('/:provider_id', validate('json', providerPatch), async (c) => {
  const db = c.get('db');
  const current = (await getProvider(db, providerId(c.req.param('provider_id'))))!;
  const { enabled, config = {} } = c.req.valid('json');
  refuseOutbound(c.env, 'config.base_url', config.base_url);
  const next: ProviderRow = {
    ...current,
    enabled: enabled ?? current.enabled,
    base_url: config.base_url?.replace(/\/+$/, '') ?? current.base_url,
    model: config.model ?? current.model,
    api_key_enc: await nextSecret(c.env, config.api_key, current.api_key_enc),
    timeout_sec: config.timeout_sec ?? current.timeout_sec,
    max_retry: config.max_retry ?? current.max_retry,
    temperature: config.temperature ?? current.temperature,
    max_output_tokens: config.max_output_tokens ?? current.max_output_tokens,
  };
  return c.json(await providerView(c.env, await saveProvider(db, next)));
});

providerRoutes.post('/:provider_id/test', async (c) => {
  const current = (await getProvider(c.get('db'), providerId(c.req.param('provider_id'))))!;
  const { config = {} } = parseWith(providerTest, await optionalJson(c));
  const settings = await chatSettings(c.env, current);
  const merged = {
    ...settings,
    ...Object.fromEntries(Object.entries(config).filter(([k, v]) => v !== undefined && k !== 'api_key')),
    ...(config.api_key && !/^\*{4}/.test(config.api_key) ? { api_key: config.api_key } : {}),
  };
  merged.base_url = merged.base_url.replace(/\/+$/, '');
  const started = Date.now();
  try {
    const answer = await chat(c.env, merged, [{ role: 'user', content: PROBE_PROMPT }], {
      temperature: 0,
      max_output_tokens: 32,
    });
    return c.json({
      success: true,
      message: `Provider reachable (${answer.attempts} attempt${answer.attempts === 1 ? '' : 's'})`,
      latency_ms: answer.latency_ms,
      model: answer.model,
    });
  } catch (err) {
    if (!(err instanceof ChatError)) throw err;
    return c.json({ success: false, message: err.message, latency_ms: Date.now() - started, model: merged.model });
  }
});
