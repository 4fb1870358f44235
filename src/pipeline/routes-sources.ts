/** /api/v1/sources: CRUD, categories with counts, and `test` (runs the collector once, stores nothing). */
import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../platform/env.ts';
import { HttpError } from '../platform/errors.ts';
import { parseWith, validate } from '../platform/validate.ts';
import { collect, COLLECT_METHODS, targetUrl } from './collectors/index.ts';
import { optionalJson, uuidParam } from './params.ts';
import { categoryCounts, deleteSource, getSource, insertSource, listSources, setSourceStatus, updateSource } from './queries-sources.ts';
import { sourceView } from './views.ts';

export const CATEGORIES = ['open_source', 'blog', 'academic', 'social'] as const;

const config = z.record(z.string(), z.unknown());
const CREATE = z.object({
  name: z.string().trim().min(1).max(128),
  category: z.enum(CATEGORIES),
  collect_method: z.enum(COLLECT_METHODS),
  config: config.default({}),
  enabled: z.boolean().default(true),
});
const PATCH = z.object({ name: z.string().trim().min(1).max(128).optional(), config: config.optional(), enabled: z.boolean().optional() }).strict();
const TEST = z.object({ keywords: z.array(z.string().max(100)).max(20).optional(), max_results: z.number().int().min(1).max(200).optional() });

function checkUrl(method: string, cfg: Record<string, unknown>): void {
  const url = targetUrl({ collect_method: method, config: cfg });
  if (!url) throw new HttpError(422, method === 'rss' ? 'config.feed_url is required for rss sources' : 'config.url is required for blog_scraper sources');
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
  } catch {
    throw new HttpError(422, 'source URL must be an absolute http(s) URL');
  }
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

sourceRoutes.post('/', validate('json', CREATE), async (c) => {
  const body = c.req.valid('json');
  checkUrl(body.collect_method, body.config);
  const db = c.get('db');
  const id = await insertSource(db, body);
  return c.json(sourceView((await getSource(db, id))!), 201);
});

sourceRoutes.patch('/:source_id', validate('json', PATCH), async (c) => {
  const id = uuidParam(c, 'source_id');
  const db = c.get('db');
  const body = c.req.valid('json');
  const current = await getSource(db, id);
  if (!current) throw new HttpError(404, 'Source not found');
  if (body.config) checkUrl(current.collect_method, body.config);
  await updateSource(db, id, body);
  return c.json(sourceView((await getSource(db, id))!));
});

sourceRoutes.delete('/:source_id', async (c) => {
  if (!(await deleteSource(c.get('db'), uuidParam(c, 'source_id')))) throw new HttpError(404, 'Source not found');
  return c.body(null, 204);
});

sourceRoutes.post('/:source_id/test', async (c) => {
  const id = uuidParam(c, 'source_id');
  const opts = parseWith(TEST, await optionalJson(c));
  const db = c.get('db');
  const source = await getSource(db, id);
  if (!source) throw new HttpError(404, 'Source not found');
  try {
    const result = await collect(c.env, source, { maxItems: opts.max_results, keywords: opts.keywords });
    await setSourceStatus(db, id, 'healthy');
    return c.json({
      success: true,
      message: `Connection successful. Retrieved ${result.items.length} items.`,
      format: result.format,
      sample_articles: result.items.slice(0, 3).map((i) => ({ title: i.title, url: i.url, published_at: i.published_at })),
    });
  } catch (err) {
    return c.json({ success: false, message: `Test failed: ${(err as Error).message}`, sample_articles: [] });
  }
});
