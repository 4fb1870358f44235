/** SQL for GetDependencies: cached graphs and the rows the Postgres-backed resolve Client reads. */
import type { Queryable } from '../platform/db.ts';

export interface VersionRow {
  name: string;
  version: string;
  upstream_version: string;
  meta: Record<string, unknown>;
  dist_tags: Record<string, string>;
}
export interface RequirementRow {
  name: string;
  version: string;
  requirements: Record<string, unknown>;
}

/**
 * The first read of a graph request, in one round trip: the cached body for that target (null when missing,
 * computed for another target, or invalidated by the triggers of 0150) and whether the version is stored.
 */
export async function cachedGraphOrVersion(
  db: Queryable,
  system: string,
  name: string,
  version: string,
  target: string,
): Promise<{ body: string | null; stored: boolean }> {
  const rows = await db.query<{ body: string | null; stored: boolean }>(
    `SELECT (SELECT g.body::text FROM insights.dependency_graphs g
              WHERE g.system = $1 AND g.name = $2 AND g.version = $3 AND g.target = $4) AS body,
        EXISTS (SELECT 1 FROM insights.versions v WHERE v.system = $1 AND v.name = $2 AND v.version = $3) AS stored`,
    [system, name, version, target],
  );
  return { body: rows[0]?.body ?? null, stored: rows[0]?.stored === true };
}

/**
 * Caches a graph. With `startedAt` (when its resolution began), not when one of its packages was replaced or
 * removed since then (insights.feed_refreshes, 0191; 5 s of margin for the clocks of Worker and database):
 * the resolution may have read that package before the refresh and the 0150 trigger, which would have
 * dropped the cached graph, ran before it was stored. Nor when its root version is no longer stored (the
 * resolution stored it, so it was removed meanwhile, and no trigger is left to drop the entry).
 */
export async function putCachedGraph(
  db: Queryable,
  system: string,
  name: string,
  version: string,
  target: string,
  packages: string[],
  body: string,
  startedAt?: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO insights.dependency_graphs (system, name, version, target, packages, body)
     SELECT $1, $2, $3, $4, $5, $6::json
     WHERE $7::timestamptz IS NULL OR (NOT EXISTS (SELECT 1 FROM insights.feed_refreshes r
       WHERE r.system = $1 AND r.name = ANY($5::text[]) AND r.refreshed_at > $7::timestamptz - interval '5 seconds')
       AND EXISTS (SELECT 1 FROM insights.versions v WHERE v.system = $1 AND v.name = $2 AND v.version = $3))
     ON CONFLICT (system, name, version) DO UPDATE SET target = EXCLUDED.target, packages = EXCLUDED.packages, body = EXCLUDED.body,
       computed_at = now()`,
    [system, name, version, target, packages, body, startedAt ?? null],
  );
}

export async function packageStored(db: Queryable, system: string, name: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM insights.packages WHERE system = $1 AND name = $2', [system, name]);
  return rows.length > 0;
}

/**
 * Every version of the packages, in version order, from each package's `resolve_doc` (migration 0156;
 * computed on read when not yet written), plus the requirements of each package's default version
 * (the version resolvers most often pick, so a lookahead needs no second round trip for it), or of every
 * version with `allRequirements` (Cargo: features are part of what a version offers): one row per package.
 */
export async function versionsOf(
  db: Queryable,
  system: string,
  names: readonly string[],
  allRequirements = false,
): Promise<{ versions: VersionRow[]; requirements: RequirementRow[] }> {
  const rows = await db.query<{
    name: string;
    dist_tags: Record<string, string>;
    doc: [string, string | null, Record<string, unknown>][] | null;
    reqs: [string, Record<string, unknown>][] | null;
  }>(
    `SELECT p.name, p.dist_tags, COALESCE(p.resolve_doc, insights.resolve_doc(p.system, p.name)) AS doc,
        (SELECT json_agg(json_build_array(r.version, r.requirements)) FROM insights.versions v
           JOIN insights.requirements r ON r.system = v.system AND r.name = v.name AND r.version = v.version
          WHERE v.system = p.system AND v.name = p.name AND ($3 OR v.is_default)) AS reqs
       FROM insights.packages p WHERE p.system = $1 AND p.name = ANY($2)`,
    [system, names, allRequirements],
  );
  return {
    versions: rows.flatMap((r) =>
      (r.doc ?? []).map(([version, upstream, meta]) => ({
        name: r.name,
        version,
        upstream_version: upstream ?? version,
        meta,
        dist_tags: r.dist_tags,
      })),
    ),
    requirements: rows.flatMap((r) =>
      (r.reqs ?? []).map(([version, requirements]) => ({ name: r.name, version, requirements })),
    ),
  };
}

export function requirementsOf(
  db: Queryable,
  system: string,
  keys: readonly { name: string; version: string }[],
): Promise<RequirementRow[]> {
  return db.query<RequirementRow>(
    `SELECT r.name, r.version, r.requirements FROM insights.requirements r
       JOIN unnest($2::text[], $3::text[]) AS k(name, version) ON r.name = k.name AND r.version = k.version
      WHERE r.system = $1`,
    [system, keys.map((k) => k.name), keys.map((k) => k.version)],
  );
}

export interface GoModRow {
  name: string;
  version: string;
  upstream_version: string;
  ready: boolean;
  /** In the module's version list (a pseudo-version's go.mod is kept in `unlisted_requirements`). */
  listed: boolean;
  requirements: Record<string, unknown>;
}

/**
 * Go: every stored go.mod a resolution from `name@version` reads, in one round trip: the root's, and when the
 * root's go directive is below 1.17 (or absent: no graph pruning) the transitive closure of its `require` lines
 * (direct and indirect, exact versions), as src/resolve/go.ts reads them level by level; a version's go.mod is
 * its requirements row, or for a version the module's list does not show (a pseudo-version) its
 * `unlisted_requirements` row. `ready` is false for a version stored `pending` (its go.mod not read yet).
 * Modules not stored are absent (the client reads them on demand).
 */
export function goModClosure(db: Queryable, name: string, version: string): Promise<GoModRow[]> {
  return db.query<GoModRow>(
    `WITH RECURSIVE mods(name, version, below) AS (
       SELECT $1::text, $2::text, false
       UNION
       SELECT d->>'name', d->>'requirement', true
         FROM mods m
         CROSS JOIN LATERAL (
           SELECT r.requirements->'go' AS go FROM insights.requirements r
            WHERE r.system = 'GO' AND r.name = m.name AND r.version = m.version
            UNION ALL
           SELECT u.requirements->'go' FROM insights.unlisted_requirements u
            WHERE u.system = 'GO' AND u.name = m.name AND u.version = m.version) AS g
         CROSS JOIN LATERAL (
           SELECT json_array_elements(COALESCE(g.go->'directDependencies', '[]'::json)) AS d
            UNION ALL
           SELECT json_array_elements(COALESCE(g.go->'indirectDependencies', '[]'::json))) AS deps
        WHERE m.below
           OR COALESCE(string_to_array(substring(g.go->>'goVersion' FROM '^(\\d+\\.\\d+)'), '.')::int[]
                       < ARRAY[1, 17], true)
     ), read AS (SELECT DISTINCT name, version FROM mods)
     SELECT r.name, r.version, v.upstream_version, NOT COALESCE(v.meta->'pending' = 'true'::jsonb, false) AS ready,
            true AS listed, r.requirements
       FROM read m
       JOIN insights.requirements r ON r.system = 'GO' AND r.name = m.name AND r.version = m.version
       JOIN insights.versions v ON v.system = 'GO' AND v.name = r.name AND v.version = r.version
     UNION ALL
     SELECT u.name, u.version, u.version, true, false, u.requirements
       FROM read m
       JOIN insights.unlisted_requirements u ON u.system = 'GO' AND u.name = m.name AND u.version = m.version`,
    [name, version],
  );
}
