/** Batch reads of the v3alpha batch methods: one statement per page, answers in request order. */
import type { Queryable } from '../platform/db.ts';
import { PROJECT_JSON } from './queries.ts';

/** projectbatch: Project JSON (or null) for each id (lower-cased already), in request order. */
export async function batchProjects(db: Queryable, ids: string[]): Promise<(unknown | null)[]> {
  const rows = await db.query<{ body: string }>(
    `SELECT COALESCE(json_agg(
      CASE WHEN p.id IS NULL THEN NULL ELSE ${PROJECT_JSON} END ORDER BY k.i), '[]'::json)::text AS body
    FROM json_to_recordset($1::json) AS k(id text, i int)
    LEFT JOIN insights.projects p ON p.id = k.id`,
    [JSON.stringify(ids.map((id, i) => ({ id, i })))],
  );
  return JSON.parse(rows[0]!.body) as (unknown | null)[];
}

export const MAX_CONTAINER_RESULTS = 1000;

/**
 * QueryContainerImages: repositories holding the chain id, by repository name, at most 1000.
 * `dockerMetadata` only for rows that carry any of it; int64 counts as JSON strings (proto3 JSON).
 */
export async function queryContainerImages(db: Queryable, chainId: string): Promise<string> {
  const rows = await db.query<{ body: string }>(
    `SELECT json_strip_nulls(json_build_object('results', COALESCE(json_agg(
      json_build_object('repository', i.repository, 'registry', i.registry,
        'dockerMetadata', CASE WHEN num_nonnulls(i.date_registered, i.last_updated, i.star_count, i.pull_count,
          i.is_official) > 0 THEN json_build_object(
          'dateRegistered', insights.rfc3339(i.date_registered), 'lastUpdated', insights.rfc3339(i.last_updated),
          'starCount', COALESCE(i.star_count, 0)::text, 'pullCount', COALESCE(i.pull_count, 0)::text,
          'isOfficial', COALESCE(i.is_official, false)) END)
      ORDER BY i.repository COLLATE "C"), '[]'::json)))::text AS body
    FROM (SELECT * FROM insights.container_images WHERE chain_id = $1
          ORDER BY repository COLLATE "C" LIMIT ${MAX_CONTAINER_RESULTS}) i`,
    [chainId],
  );
  return rows[0]!.body;
}
