/** SQL for GetDependencies: cached graphs and the rows the Postgres-backed resolve Client reads. */
import type { Queryable } from '../platform/db.ts';

export interface VersionRow { name: string; version: string; upstream_version: string; meta: Record<string, unknown>; dist_tags: Record<string, string> }
export interface RequirementRow { name: string; version: string; requirements: Record<string, unknown> }

/** One read: the cached body for that target, or null (missing, another target, or invalidated by the triggers of 0150). */
export async function getCachedGraph(db: Queryable, system: string, name: string, version: string, target: string): Promise<string | null> {
  const rows = await db.query<{ body: string }>(
    'SELECT body::text AS body FROM insights.dependency_graphs WHERE system = $1 AND name = $2 AND version = $3 AND target = $4',
    [system, name, version, target],
  );
  return rows[0]?.body ?? null;
}

export async function putCachedGraph(db: Queryable, system: string, name: string, version: string, target: string, packages: string[], body: string): Promise<void> {
  await db.query(
    `INSERT INTO insights.dependency_graphs (system, name, version, target, packages, body) VALUES ($1, $2, $3, $4, $5, $6::json)
     ON CONFLICT (system, name, version) DO UPDATE SET target = EXCLUDED.target, packages = EXCLUDED.packages, body = EXCLUDED.body,
       computed_at = now()`,
    [system, name, version, target, packages, body],
  );
}

export async function packageStored(db: Queryable, system: string, name: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM insights.packages WHERE system = $1 AND name = $2', [system, name]);
  return rows.length > 0;
}

export async function versionExists(db: Queryable, system: string, name: string, version: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM insights.versions WHERE system = $1 AND name = $2 AND version = $3', [system, name, version]);
  return rows.length > 0;
}

/**
 * Every version of the packages, in version order, from each package's `resolve_doc` (migration 0156;
 * computed on read when not yet written), plus the requirements of each package's default version
 * (the version resolvers most often pick, so a lookahead needs no second round trip for it), or of every
 * version with `allRequirements` (Cargo: features are part of what a version offers): one row per package.
 */
export async function versionsOf(db: Queryable, system: string, names: readonly string[], allRequirements = false): Promise<{ versions: VersionRow[]; requirements: RequirementRow[] }> {
  const rows = await db.query<{ name: string; dist_tags: Record<string, string>; doc: [string, string | null, Record<string, unknown>][] | null;
    reqs: [string, Record<string, unknown>][] | null }>(
    `SELECT p.name, p.dist_tags, COALESCE(p.resolve_doc, insights.resolve_doc(p.system, p.name)) AS doc,
        (SELECT json_agg(json_build_array(r.version, r.requirements)) FROM insights.versions v
           JOIN insights.requirements r ON r.system = v.system AND r.name = v.name AND r.version = v.version
          WHERE v.system = p.system AND v.name = p.name AND ($3 OR v.is_default)) AS reqs
       FROM insights.packages p WHERE p.system = $1 AND p.name = ANY($2)`,
    [system, names, allRequirements],
  );
  return {
    versions: rows.flatMap((r) => (r.doc ?? []).map(([version, upstream, meta]) => ({
      name: r.name, version, upstream_version: upstream ?? version, meta, dist_tags: r.dist_tags,
    }))),
    requirements: rows.flatMap((r) => (r.reqs ?? []).map(([version, requirements]) => ({ name: r.name, version, requirements }))),
  };
}

export function requirementsOf(db: Queryable, system: string, keys: readonly { name: string; version: string }[]): Promise<RequirementRow[]> {
  return db.query<RequirementRow>(
    `SELECT r.name, r.version, r.requirements FROM insights.requirements r
       JOIN unnest($2::text[], $3::text[]) AS k(name, version) ON r.name = k.name AND r.version = k.version
      WHERE r.system = $1`,
    [system, keys.map((k) => k.name), keys.map((k) => k.version)],
  );
}
