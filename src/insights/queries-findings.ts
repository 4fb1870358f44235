/** What the findings are computed from: one statement for the packages of a page (findings.ts). */
import type { Queryable } from '../platform/db.ts';
import type { Usage } from './queries-usage.ts';

export interface FindingVersion {
  version: string;
  publishedAt: string | null;
  isDefault: boolean;
  deprecated: boolean;
  reason: string;
  /** Cargo/PyPI yanked, NuGet unlisted. */
  yanked: boolean;
  advisories: { id: string; cvss3: number }[];
}

export interface FindingPackage {
  system: string;
  name: string;
  /** False when the package is not stored (or stored for resolution only). */
  known: boolean;
  /** In version order. */
  versions: FindingVersion[];
  /** Read only when LOW_USAGE is on (routes-findings.ts). */
  usage?: Usage & { threshold: number };
}

export async function findingPackages(
  db: Queryable,
  keys: { system: string; name: string }[],
): Promise<FindingPackage[]> {
  const rows = await db.query<{ system: string; name: string; known: boolean; versions: FindingVersion[] | null }>(
    `SELECT k.system, k.name, p.fetched_at IS NOT NULL AS known, (SELECT json_agg(json_build_object(
        'version', v.version, 'publishedAt', v.published_at, 'isDefault', v.is_default, 'deprecated', v.is_deprecated,
        'reason', v.deprecated_reason,
        'yanked', COALESCE(v.meta->>'yanked', 'false') = 'true' OR COALESCE(v.meta->>'listed', 'true') = 'false',
        'advisories', COALESCE((SELECT json_agg(json_build_object('id', a.id, 'cvss3', a.cvss3_score)
            ORDER BY a.id COLLATE "C")
          FROM insights.advisory_versions av JOIN insights.advisories a ON a.id = av.advisory_id
          WHERE av.system = v.system AND av.name = v.name AND av.version = v.version), '[]'::json))
        ORDER BY v.ordinal) FROM insights.versions v WHERE p.fetched_at IS NOT NULL
          AND v.system = p.system AND v.name = p.name) AS versions
    FROM json_to_recordset($1::json) AS k(system text, name text)
    LEFT JOIN insights.packages p ON p.system = k.system AND p.name = k.name`,
    [JSON.stringify(keys)],
  );
  return rows.map((r) => ({ system: r.system, name: r.name, known: r.known, versions: r.versions ?? [] }));
}
