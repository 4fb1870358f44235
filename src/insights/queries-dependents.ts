/**
 * GetDependents over what this service has indexed: the stored versions (of other packages) that depend on
 * one version. A stored resolved graph (insights.dependency_graphs, found through its `packages` GIN index)
 * is the truth for its root: the version is a DIRECT or INDIRECT node of it or it is not a dependent.
 * A version without a stored graph counts as a direct dependent when its requirements row declares a
 * runtime dependency on the package (migrations/0161_requirement_names.sql, GIN expression index) whose
 * requirement the version satisfies (src/versions); it cannot count as an indirect one (nothing resolved).
 * Maven requirements with no version of their own (managed by a parent/BOM) count only through graphs.
 */
import type { Queryable } from '../platform/db.ts';
import { satisfies, type System } from '../versions/index.ts';

export interface Dependent {
  system: string;
  name: string;
  version: string;
  relation: 'DIRECT' | 'INDIRECT';
}

interface Row {
  name: string;
  version: string;
  ordinal: number;
  relation: 'DIRECT' | 'INDIRECT' | null;
  requirement: string | null;
}

/** Every dependent version, by package name (byte order) then version order. */
export async function dependentsOf(db: Queryable, system: System, name: string, version: string): Promise<Dependent[]> {
  const rows = await db.query<Row>(
    `WITH graph AS (
      SELECT g.name, g.version,
        CASE WHEN bool_or(n->>'relation' = 'DIRECT') THEN 'DIRECT' ELSE 'INDIRECT' END AS relation
      FROM insights.dependency_graphs g CROSS JOIN LATERAL json_array_elements(g.body->'nodes') n
      WHERE g.system = $1 AND g.packages @> ARRAY[$2] AND g.name <> $2
        AND n->'versionKey'->>'name' = $2 AND n->'versionKey'->>'version' = $3
        AND n->>'relation' IN ('DIRECT', 'INDIRECT')
      GROUP BY g.name, g.version),
    declared AS (
      SELECT r.name, r.version, e.requirement
      FROM insights.requirements r CROSS JOIN LATERAL insights.requirement_edges(r.system, r.requirements) e
      WHERE r.system = $1 AND insights.requirement_names(r.system, r.requirements) @> ARRAY[$2]
        AND e.dep = $2 AND r.name <> $2
        AND NOT EXISTS (SELECT 1 FROM insights.dependency_graphs g
          WHERE g.system = r.system AND g.name = r.name AND g.version = r.version))
    SELECT d.name, d.version, v.ordinal, d.relation, d.requirement FROM (
      SELECT name, version, relation, NULL AS requirement FROM graph
      UNION ALL SELECT name, version, NULL, requirement FROM declared) d
    JOIN insights.versions v ON v.system = $1 AND v.name = d.name AND v.version = d.version
    ORDER BY d.name COLLATE "C", v.ordinal`,
    [system, name, version],
  );
  const out: Dependent[] = [];
  const seen = new Set<string>();
  for (const r of rows) {
    const key = `${r.name}\u0000${r.version}`;
    if (seen.has(key)) continue; // two declarations of the same dependency (npm dependencies + peerDependencies)
    if (r.relation === null && !declares(system, version, r.requirement ?? '')) continue;
    seen.add(key);
    out.push({ system, name: r.name, version: r.version, relation: r.relation ?? 'DIRECT' });
  }
  return out;
}

/** Whether a declared requirement takes the version: an empty one takes any, except Maven's (managed). */
function declares(system: System, version: string, requirement: string): boolean {
  if (requirement.trim() === '') return system !== 'MAVEN';
  return satisfies(system, version, requirement);
}

/** deps.dev's counts: distinct dependent packages (a package with a direct and an indirect version is in both). */
export function dependentCounts(list: Dependent[]) {
  const all = new Set(list.map((d) => d.name));
  const direct = new Set(list.filter((d) => d.relation === 'DIRECT').map((d) => d.name));
  const indirect = new Set(list.filter((d) => d.relation === 'INDIRECT').map((d) => d.name));
  return { dependentCount: all.size, directDependentCount: direct.size, indirectDependentCount: indirect.size };
}
