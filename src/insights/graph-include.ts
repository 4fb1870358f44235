/**
 * GetDependencies beyond deps.dev (its #16, #134, #277: the advisories and licences of a whole graph
 * in one call): `?include=advisories,licenses` (either or both, comma-separated, schemas.ts) adds to each
 * node, after `errors`, its Version's `licenses` and/or `advisoryKeys` (deps.dev's Version fields and
 * order), and with `advisories` a top-level `advisories` list after `error`: each advisory of the graph
 * once, as GetAdvisory answers it (by id). Read in one statement from the stored versions and
 * `advisory_versions`, as they stand: a node whose version is not stored (a bundled copy of an unknown
 * version) answers `[]`. The graph itself (cached) is unchanged; without `include` the answer is
 * deps.dev's byte for byte.
 */
import type { Queryable } from '../platform/db.ts';

export type Include = 'advisories' | 'licenses';

interface GraphBody {
  nodes: { versionKey: { system: string; name: string; version: string }; [k: string]: unknown }[];
  edges: unknown[];
  error?: string;
}

interface Extra {
  nodes: { licenses: unknown[]; advisoryKeys: { id: string }[] }[];
  advisories: unknown[];
}

async function extrasOf(db: Queryable, nodes: GraphBody['nodes']): Promise<Extra> {
  const rows = await db.query<{ body: Extra }>(
    `WITH k AS (
      SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS k(system, name, version, i)
    ), n AS (
      SELECT k.i, COALESCE(v.licenses, '[]'::json) AS licenses,
        COALESCE((SELECT json_agg(json_build_object('id', a.advisory_id) ORDER BY a.advisory_id COLLATE "C")
          FROM insights.advisory_versions a
          WHERE a.system = k.system AND a.name = k.name AND a.version = k.version), '[]'::json) AS advisory_keys
      FROM k LEFT JOIN insights.versions v ON v.system = k.system AND v.name = k.name AND v.version = k.version
    )
    SELECT json_build_object(
      'nodes', COALESCE((SELECT json_agg(json_build_object('licenses', n.licenses, 'advisoryKeys', n.advisory_keys)
        ORDER BY n.i) FROM n), '[]'::json),
      'advisories', COALESCE((SELECT json_agg(json_build_object('advisoryKey', json_build_object('id', a.id),
          'url', a.url, 'title', a.title, 'aliases', a.aliases, 'cvss3Score', a.cvss3_score,
          'cvss3Vector', a.cvss3_vector) ORDER BY a.id COLLATE "C")
        FROM insights.advisories a WHERE a.id IN (
          SELECT av.advisory_id FROM insights.advisory_versions av JOIN k
            ON av.system = k.system AND av.name = k.name AND av.version = k.version)), '[]'::json)
    ) AS body`,
    [
      nodes.map((n) => n.versionKey.system),
      nodes.map((n) => n.versionKey.name),
      nodes.map((n) => n.versionKey.version),
    ],
  );
  return rows[0]!.body;
}

/** The graph answer `body` with what `include` asks for (`body` as is when it asks for nothing). */
export async function withIncluded(db: Queryable, body: string, include: readonly Include[]): Promise<string> {
  if (include.length === 0) return body;
  const graph = JSON.parse(body) as GraphBody;
  const extra = await extrasOf(db, graph.nodes);
  const advisories = include.includes('advisories');
  const licenses = include.includes('licenses');
  const nodes = graph.nodes.map((node, i) => ({
    ...node,
    ...(licenses ? { licenses: extra.nodes[i]!.licenses } : {}),
    ...(advisories ? { advisoryKeys: extra.nodes[i]!.advisoryKeys } : {}),
  }));
  return JSON.stringify({ ...graph, nodes, ...(advisories ? { advisories: extra.advisories } : {}) });
}
