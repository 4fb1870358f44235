/** SQL of sources and articles. Articles are stored once per URL (`ON CONFLICT (url) DO NOTHING`). */
import type { Queryable } from '../platform/db.ts';
import type { CollectedItem } from './collectors/types.ts';

export interface SourceRow {
  id: string;
  name: string;
  category: string;
  collect_method: string;
  config: Record<string, unknown>;
  enabled: boolean;
  status: string;
  last_collected: Date | null;
  created_at: Date;
  updated_at: Date;
  last_run: Date | null;
  last_task_status: string | null;
}

const SELECT = `SELECT s.*, t.last_run, t.status AS last_task_status FROM pipeline.sources s
  LEFT JOIN LATERAL (SELECT coalesce(started_at, created_at) AS last_run, status FROM pipeline.tasks WHERE source_id = s.id ORDER BY created_at DESC LIMIT 1) t ON true`;

export async function listSources(db: Queryable, category?: string): Promise<SourceRow[]> {
  return category
    ? db.query<SourceRow>(`${SELECT} WHERE s.category = $1 ORDER BY s.created_at DESC, s.id`, [category])
    : db.query<SourceRow>(`${SELECT} ORDER BY s.created_at DESC, s.id`);
}

export async function getSource(db: Queryable, id: string): Promise<SourceRow | undefined> {
  return (await db.query<SourceRow>(`${SELECT} WHERE s.id = $1`, [id]))[0];
}

export async function getSources(db: Queryable, ids: string[]): Promise<SourceRow[]> {
  if (!ids.length) return [];
  return db.query<SourceRow>(`${SELECT} WHERE s.id = ANY($1::uuid[]) ORDER BY s.created_at`, [ids]);
}

export async function categoryCounts(db: Queryable): Promise<{ category: string; count: number }[]> {
  return db.query(`SELECT category, count(*)::int AS count FROM pipeline.sources GROUP BY category ORDER BY category`);
}

export async function insertSource(
  db: Queryable,
  s: { name: string; category: string; collect_method: string; config: Record<string, unknown>; enabled: boolean },
): Promise<string> {
  const id = crypto.randomUUID();
  await db.query(
    `INSERT INTO pipeline.sources (id, name, category, collect_method, config, enabled) VALUES ($1, $2, $3, $4, $5::jsonb, $6)`,
    [id, s.name, s.category, s.collect_method, JSON.stringify(s.config), s.enabled],
  );
  return id;
}

export async function updateSource(
  db: Queryable,
  id: string,
  p: { name?: string; config?: Record<string, unknown>; enabled?: boolean },
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE pipeline.sources SET name = coalesce($2, name), config = coalesce($3::jsonb, config), enabled = coalesce($4, enabled), updated_at = now() WHERE id = $1 RETURNING id`,
    [id, p.name ?? null, p.config === undefined ? null : JSON.stringify(p.config), p.enabled ?? null],
  );
  return rows.length > 0;
}

export async function deleteSource(db: Queryable, id: string): Promise<boolean> {
  return (await db.query(`DELETE FROM pipeline.sources WHERE id = $1 RETURNING id`, [id])).length > 0;
}

export async function setSourceStatus(
  db: Queryable,
  id: string,
  status: 'healthy' | 'error' | 'running',
  collected = false,
): Promise<void> {
  await db.query(
    `UPDATE pipeline.sources SET status = $2, last_collected = CASE WHEN $3 THEN now() ELSE last_collected END WHERE id = $1`,
    [id, status, collected],
  );
}

/** Most recently updated enabled source of a category (the original's trigger-by-category rule). */
export async function latestEnabledInCategory(db: Queryable, category: string): Promise<string | undefined> {
  return (
    await db.query<{ id: string }>(
      `SELECT id FROM pipeline.sources WHERE category = $1 AND enabled ORDER BY updated_at DESC, id LIMIT 1`,
      [category],
    )
  )[0]?.id;
}

/** Stores new articles; returns how many were new and the ids of all given URLs. */
export async function storeArticles(
  db: Queryable,
  sourceId: string,
  items: CollectedItem[],
): Promise<{ inserted: number; ids: string[] }> {
  if (!items.length) return { inserted: 0, ids: [] };
  // One row per URL even inside one answer (ON CONFLICT cannot settle two rows of one INSERT).
  const unique = [...new Map(items.map((i) => [i.url, i])).values()];
  const inserted = await db.query<{ id: string }>(
    `INSERT INTO pipeline.articles (id, source_id, url, title, summary, published_at, metadata)
     SELECT gen_random_uuid(), $1, x.url, x.title, x.summary, x.published_at, coalesce(x.metadata, '{}')
     FROM jsonb_to_recordset($2::jsonb) AS x(url text, title text, summary text, published_at timestamptz, metadata jsonb)
     ON CONFLICT (url) DO NOTHING RETURNING id`,
    [sourceId, JSON.stringify(unique)],
  );
  const all = await db.query<{ id: string }>(`SELECT id FROM pipeline.articles WHERE url = ANY($1::text[])`, [
    items.map((i) => i.url),
  ]);
  return { inserted: inserted.length, ids: all.map((r) => r.id) };
}

export interface ArticleRow {
  id: string;
  source_id: string | null;
  url: string;
  title: string;
  summary: string;
  published_at: Date | null;
  collected_at: Date;
  /** Structured facts of API collectors (authors, venue, doi, abstract, ...); {} for feeds and pages. */
  metadata?: Record<string, unknown>;
  source_name: string | null;
  category: string | null;
}

/** Articles of the given sources published (or, undated, collected) inside the window, newest first. */
export async function articlesInWindow(
  db: Queryable,
  sourceIds: string[],
  windowHours: number,
  limit = 100,
): Promise<ArticleRow[]> {
  if (!sourceIds.length) return [];
  return db.query<ArticleRow>(
    `SELECT a.*, s.name AS source_name, s.category FROM pipeline.articles a LEFT JOIN pipeline.sources s ON s.id = a.source_id
     WHERE a.source_id = ANY($1::uuid[]) AND coalesce(a.published_at, a.collected_at) >= now() - make_interval(hours => $2)
     ORDER BY coalesce(a.published_at, a.collected_at) DESC, a.url LIMIT $3`,
    [sourceIds, windowHours, limit],
  );
}

export async function articlesByIds(db: Queryable, ids: string[]): Promise<ArticleRow[]> {
  if (!ids.length) return [];
  return db.query<ArticleRow>(
    `SELECT a.*, s.name AS source_name, s.category FROM pipeline.articles a LEFT JOIN pipeline.sources s ON s.id = a.source_id
     WHERE a.id = ANY($1::uuid[]) ORDER BY coalesce(a.published_at, a.collected_at) DESC, a.url`,
    [ids],
  );
}
