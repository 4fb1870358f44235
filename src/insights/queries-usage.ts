/**
 * Usage of packages in what this service has indexed, for the LOW_USAGE finding (findings.ts): the number of
 * distinct other stored packages that depend on any version of a package - a node of a stored resolved graph
 * (dependency_graphs' `packages` GIN index) or a name in a stored requirements row (0161's expression index),
 * the same sources as GetDependents (queries-dependents.ts) without the per-version match - and, for a package
 * under the threshold, its similarly named stored packages (similar-names.ts) with their own counts, the
 * candidates for `lowUsageContext.alternativePackages`. One statement for the counts of a set of names.
 */
import type { Queryable } from '../platform/db.ts';
import { similarlyNamed } from './similar-names.ts';

/** Distinct dependent packages of each name (same system), by name. */
export async function dependentPackageCounts(
  db: Queryable,
  system: string,
  names: string[],
): Promise<Map<string, number>> {
  if (names.length === 0) return new Map();
  const rows = await db.query<{ name: string; n: number | string }>(
    `SELECT k.name, (SELECT count(*) FROM (
        SELECT g.name FROM insights.dependency_graphs g
        WHERE g.system = $1 AND g.packages @> ARRAY[k.name] AND g.name <> k.name
        UNION SELECT r.name FROM insights.requirements r
        WHERE r.system = $1 AND insights.requirement_names(r.system, r.requirements) @> ARRAY[k.name]
          AND r.name <> k.name) d) AS n
    FROM unnest($2::text[]) AS k(name)`,
    [system, [...new Set(names)]],
  );
  return new Map(rows.map((r) => [r.name, Number(r.n)]));
}

export interface Usage {
  dependents: number;
  /** Similarly named packages used at least `threshold` times, most used first; only for a low-usage package. */
  alternatives: string[];
}

/** The usage of stored packages of one system, by name; alternatives only for those used by fewer than `threshold`. */
export async function usageOf(
  db: Queryable,
  system: string,
  names: string[],
  threshold: number,
): Promise<Map<string, Usage>> {
  const counts = await dependentPackageCounts(db, system, names);
  const out = new Map<string, Usage>();
  for (const name of new Set(names)) {
    const dependents = counts.get(name) ?? 0;
    const alternatives = dependents < threshold ? await alternativesOf(db, system, name, threshold) : [];
    out.set(name, { dependents, alternatives });
  }
  return out;
}

/** Similarly named stored packages used by at least `threshold` packages, most used first (then by similarity). */
async function alternativesOf(db: Queryable, system: string, name: string, threshold: number): Promise<string[]> {
  const similar = await similarlyNamed(db, system, name);
  const names =
    similar.body === null
      ? []
      : (JSON.parse(similar.body) as { packages: { packageKey: { name: string } }[] }).packages.map(
          (p) => p.packageKey.name,
        );
  const counts = await dependentPackageCounts(db, system, names);
  return names
    .map((n, rank) => ({ n, rank, used: counts.get(n) ?? 0 }))
    .filter((a) => a.used >= threshold)
    .sort((a, b) => b.used - a.used || a.rank - b.rank)
    .map((a) => a.n);
}
