/**
 * /api/v1/destinations: the three fixed destinations `notion`, `obsidian`, `rss` (the original's
 * fixed-id version, which the spec's endpoint list mirrors: list, read, update, test).
 * destinationPatch merges `config` into the stored one; the secret key (`token` / `api_key`) is split off and
 * stored encrypted. Enabling, or saving an enabled destination, requires a complete configuration
 * (422 otherwise); Obsidian `file` mode is refused with a clear message (no file system on Workers);
 * an `api_url` the outbound guard refuses is refused when saved (saved-urls.ts).
 * `test` checks connectivity with the stored config overlaid by `config` (nothing saved):
 * `{success, message, latency_ms, mode, checked_target}`, 200 either way like the original.
 */
import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../platform/env.ts';
import { HttpError } from '../platform/errors.ts';
import { parseWith, validate } from '../platform/validate.ts';
import { feedUrl } from './monitor-runner.ts';
import { optionalJson } from './params.ts';
import { refuseOutbound } from './saved-urls.ts';
import { notionId, testNotion } from './publishers/notion.ts';
import { FILE_MODE_REFUSED, obsidianMode, testObsidian } from './publishers/obsidian.ts';
import { getDestination, listDestinations, saveDestination, type DestinationRow } from './queries-settings.ts';
import {
  DESTINATION_IDS,
  destinationSecret,
  destinationView,
  isMasked,
  nextSecret,
  SECRET_KEY,
  type DestinationId,
} from './settings.ts';
import { destinationConfigs, destinationPatch } from './schemas.ts';
import { pipelineConfig } from './config.ts';

function destinationId(raw: string): DestinationId {
  if (!(DESTINATION_IDS as readonly string[]).includes(raw)) throw new HttpError(404, 'Destination not found');
  return raw as DestinationId;
}

/** Stored config merged with an update; the secret is returned separately (undefined = unchanged). */
function merge(
  id: DestinationId,
  stored: Record<string, unknown>,
  raw: unknown,
): { config: Record<string, unknown>; secret: string | null | undefined } {
  const incoming = parseWith(destinationConfigs[id], raw ?? {}, 'body');
  const key = SECRET_KEY[id];
  const { [key ?? '']: secret, ...rest } = incoming;
  const config = { ...stored, ...rest };
  if (id === 'notion') {
    config.database_id = notionId(config.database_id);
    config.parent_page_id = notionId(config.parent_page_id);
  }
  if (id === 'obsidian' && !rest.mode) config.mode = obsidianMode(config);
  return { config, secret: key ? (secret as string | null | undefined) : undefined };
}

/** Why a destination cannot be enabled with this configuration, or null. */
function incomplete(id: DestinationId, config: Record<string, unknown>, hasSecret: boolean): string | null {
  if (id === 'notion') {
    if (!hasSecret) return 'Notion token is required';
    if (!config.database_id && !config.parent_page_id) return 'Notion database_id or parent_page_id is required';
  }
  if (id === 'obsidian') {
    if (config.mode === 'file') return FILE_MODE_REFUSED;
    if (!config.api_url) return 'Obsidian api_url is required in rest mode';
    if (!hasSecret) return 'Obsidian api_key is required in rest mode';
  }
  return null;
}

export const destinationRoutes = new Hono<AppEnv>();

destinationRoutes.get('/', async (c) => {
  const rows = await listDestinations(c.get('db'));
  return c.json(await Promise.all(rows.map((d) => destinationView(c.env, d, feedUrl(c.env)))));
});

destinationRoutes.get('/:destination_id', async (c) => {
  const row = (await getDestination(c.get('db'), destinationId(c.req.param('destination_id'))))!;
  return c.json(await destinationView(c.env, row, feedUrl(c.env)));
});

destinationRoutes.patch('/:destination_id', validate('json', destinationPatch), async (c) => {
  const db = c.get('db');
  const id = destinationId(c.req.param('destination_id'));
  const current = (await getDestination(db, id))!;
  const body = c.req.valid('json');
  const { config, secret } = merge(id, current.config, body.config);
  const secretEnc = await nextSecret(c.env, secret, current.secret_enc);
  const enabled = body.enabled ?? current.enabled;
  if (id === 'obsidian' && config.mode === 'file') throw new HttpError(422, FILE_MODE_REFUSED);
  if (id !== 'rss') refuseOutbound(c.env, 'config.api_url', config.api_url);
  const problem = enabled ? incomplete(id, config, secretEnc !== null) : null;
  if (problem) throw new HttpError(422, `Cannot enable ${id}: ${problem}`);
  const saved: DestinationRow = await saveDestination(db, {
    id,
    name: body.name ?? current.name,
    enabled,
    config,
    secret_enc: secretEnc,
  });
  return c.json(await destinationView(c.env, saved, feedUrl(c.env)));
});

destinationRoutes.post('/:destination_id/test', async (c) => {
  const id = destinationId(c.req.param('destination_id'));
  const current = (await getDestination(c.get('db'), id))!;
  const body = parseWith(z.object({ config: z.record(z.string(), z.unknown()).optional() }), await optionalJson(c));
  const { config, secret } = merge(id, current.config, body.config);
  const storedSecret = await destinationSecret(c.env, current);
  const token = secret === undefined || (typeof secret === 'string' && isMasked(secret)) ? storedSecret : secret;
  const started = Date.now();
  const mode = id === 'obsidian' ? obsidianMode(config) : id === 'notion' ? 'rest' : 'config';
  const target =
    id === 'notion'
      ? String(config.api_url ?? 'https://api.notion.com')
      : id === 'obsidian'
        ? String(mode === 'file' ? (config.vault_path ?? '') : (config.api_url ?? ''))
        : String(config.feed_url || feedUrl(c.env));
  try {
    let message: string;
    if (id === 'notion') message = await testNotion(c.env, config, token);
    else if (id === 'obsidian') message = await testObsidian(c.env, config, token);
    else {
      if (!config.feed_url && !pipelineConfig(c.env).PIPELINE_URL) throw new Error('feed_url is required');
      message = 'RSS feed configuration looks valid';
    }
    return c.json({ success: true, message, latency_ms: Date.now() - started, mode, checked_target: target });
  } catch (err) {
    const m = (err as Error).message;
    return c.json({
      success: false,
      message: m.startsWith('could not reach') || m.startsWith('timed out') ? `Network error: ${m}` : m,
      latency_ms: Date.now() - started,
      mode,
      checked_target: target,
    });
  }
});
