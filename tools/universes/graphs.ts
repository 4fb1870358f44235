/** Helpers of the end-to-end graph tests: an emptied insights schema and a graph answer as comparable sets. */
import type { Queryable } from '../../src/platform/db.ts';

/** Empties every insights table, so the worker starts as on a fresh database (test files run one at a time). */
export async function emptyInsights(db: Queryable): Promise<void> {
  const tables = await db.query<{ t: string }>(
    `SELECT format('%I.%I', schemaname, tablename) AS t FROM pg_tables WHERE schemaname = 'insights'`,
  );
  if (tables.length) await db.query(`TRUNCATE ${tables.map((r) => r.t).join(', ')} CASCADE`);
}

interface DependenciesBody {
  nodes: { versionKey: { name: string; version: string }; bundled: boolean; errors: string[] }[];
  edges: { fromNode: number; toNode: number }[];
}

/** `name@version` of every node that is not a bundled copy, and `a@1 -> b@2` of every edge between them, sorted. */
export function graphSets(body: DependenciesBody): { nodes: string[]; edges: string[] } {
  const id = (i: number) => `${body.nodes[i]!.versionKey.name}@${body.nodes[i]!.versionKey.version}`;
  const kept = (i: number) => !body.nodes[i]!.bundled;
  const nodes = new Set(
    body.nodes
      .map((_, i) => i)
      .filter(kept)
      .map(id),
  );
  const edges = new Set(
    body.edges.filter((e) => kept(e.fromNode) && kept(e.toNode)).map((e) => `${id(e.fromNode)} -> ${id(e.toNode)}`),
  );
  return { nodes: [...nodes].sort(), edges: [...edges].sort() };
}
