/** /api/v1/sources: CRUD, categories with counts, and `test` (runs the collector once, stores nothing). */
import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../platform/env.ts';
import { HttpError } from '../platform/errors.ts';
import { parseWith, validate } from '../platform/validate.ts';
import { agentChat } from './agent-provider.ts';
import { ACADEMIC_METHODS, AGENT_METHODS, collect, refusal, targetUrl } from './collectors/index.ts';
import { refuseOutbound } from './saved-urls.ts';
import { checkApiConfig } from './source-config.ts';
import { limitOf } from './collectors/upstream.ts';
import { optionalJson, uuidParam } from './params.ts';
import {
  categoryCounts,
  deleteSource,
  getSource,
  insertSource,
  listSources,
  setSourceStatus,
  updateSource,
} from './queries-sources.ts';
import { sourceView } from './views.ts';
import { sourceCreate, sourcePatch, sourceTest } from './schemas.ts';

/** 422 unless the method runs here and the config is usable for it. */
function checkSource(env: AppEnv['Bindings'], method: string, cfg: Record<string, unknown>): void {
  const why = refusal(env, method);
  if (why) throw new HttpError(422, why);
  if (['rss', 'blog_scraper', 'deepbrowse', ...AGENT_METHODS].includes(method)) checkUrl(env, method, cfg);
  else checkApiConfig(method, cfg);
}

function checkUrl(env: AppEnv['Bindings'], method: string, cfg: Record<string, unknown>): void {
  const url = targetUrl({ collect_method: method, config: cfg });
  if (!url)
    throw new HttpError(
      422,
      method === 'rss' ? 'config.feed_url is required for rss sources' : `config.url is required for ${method} sources`,
    );
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
  } catch {
    throw new HttpError(422, 'source URL must be an absolute http(s) URL');
  }
  // Every URL the source may read, with the rule every fetch applies again (saved-urls.ts).
  refuseOutbound(env, 'source URL', url);
  const starts = (cfg.profile as { start_urls?: unknown } | undefined)?.start_urls;
  if (Array.isArray(starts)) for (const u of starts) refuseOutbound(env, 'source URL', u);
}

export const sourceRoutes = new Hono<AppEnv>();

sourceRoutes.get('/', validate('query', z.object({ category: z.string().max(32).optional() })), async (c) => {
  const rows = await listSources(c.get('db'), c.req.valid('query').category);
  return c.json(rows.map(sourceView));
});

sourceRoutes.get('/categories', async (c) => c.json(await categoryCounts(c.get('db'))));

sourceRoutes.get('/:source_id', async (c) => {
  const row = await getSource(c.get('db'), uuidParam(c, 'source_id'));
  if (!row) throw new HttpError(404, 'Source not found');
  return c.json(sourceView(row));
});

sourceRoutes.post('/', validate('json', sourceCreate), async (c) => {
  const body = c.req.valid('json');
  checkSource(c.env, body.collect_method, body.config);
  const db = c.get('db');
  const id = await insertSource(db, body);
  return c.json(sourceView((await getSource(db, id))!), 201);
});

sourceRoutes.patch('/:source_id', validate('json', sourcePatch), async (c) => {
  const id = uuidParam(c, 'source_id');
  const db = c.get('db');
  const body = c.req.valid('json');
  const current = await getSource(db, id);
  if (!current) throw new HttpError(404, 'Source not found');
  if (body.config) checkSource(c.env, current.collect_method, body.config);
  await updateSource(db, id, body);
  return c.json(sourceView((await getSource(db, id))!));
});

sourceRoutes.delete('/:source_id', async (c) => {
  if (!(await deleteSource(c.get('db'), uuidParam(c, 'source_id')))) throw new HttpError(404, 'Source not found');
  return c.body(null, 204);
});

sourceRoutes.post('/:source_id/test', async (c) => {
  const id = uuidParam(c, 'source_id');
  const opts = parseWith(sourceTest, await optionalJson(c));
  const db = c.get('db');
  const source = await getSource(db, id);
  if (!source) throw new HttpError(404, 'Source not found');
  const academic = source.category === 'academic' && ACADEMIC_METHODS.includes(source.collect_method);
  const start = opts.start_at ? new Date(opts.start_at) : null;
  const end = opts.end_at ? new Date(opts.end_at) : null;
  if (start && end && start > end) throw new HttpError(422, 'start_at must not be after end_at');
  // Academic tests fetch max_results (else the source's, else 30) and list them all, as the original.
  const limit = academic ? (opts.max_results ?? limitOf(source.config, {}, 30)) : opts.max_results;
  try {
    const agent = await agentChat(c.env, db, source);
    const result = await collect(c.env, source, {
      maxItems: limit,
      keywords: opts.keywords,
      window: { start, end },
      agentChat: agent,
    });
    await setSourceStatus(db, id, 'healthy');
    const sample = (items: typeof result.items, n: number) =>
      items.slice(0, n).map((i) => ({ title: i.title, url: i.url, published_at: i.published_at }));
    if (!academic) {
      return c.json({
        success: true,
        message: `Connection successful. Retrieved ${result.items.length} items.`,
        format: result.format,
        sample_articles: sample(result.items, 3),
      });
    }
    // As the original: the API's answer counted, then checked against the exact window (the APIs filter by day).
    const inWindow = result.items.filter((i) => {
      const t = i.published_at ? Date.parse(i.published_at) : NaN;
      if (!start && !end) return true;
      return !Number.isNaN(t) && (!start || t >= start.getTime()) && (!end || t <= end.getTime());
    });
    return c.json({
      success: true,
      message: `Fetched ${result.fetched ?? result.items.length} items, matched ${inWindow.length} items in the requested window.`,
      format: result.format,
      fetched_count: result.fetched ?? result.items.length,
      matched_count: inWindow.length,
      effective_keywords: opts.keywords?.length ? opts.keywords : keywordsOf(source.config),
      effective_max_results: limit,
      window_start: start?.toISOString() ?? null,
      window_end: end?.toISOString() ?? null,
      sample_articles: sample(inWindow, limit ?? 30),
    });
  } catch (err) {
    return c.json({ success: false, message: `Test failed: ${(err as Error).message}`, sample_articles: [] });
  }
});

function keywordsOf(config: Record<string, unknown>): string[] {
  return Array.isArray(config.keywords)
    ? config.keywords.filter((k): k is string => typeof k === 'string' && !!k.trim())
    : [];
}
