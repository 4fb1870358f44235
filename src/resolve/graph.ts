/**
 * Graph building and canonical order. Canonical order follows deps.dev's util/resolve
 * Graph.Canon(): node 0 is the root, the other nodes sorted by (name, version) byte-wise, edges
 * sorted by (from, to, requirement); it is also the order the live `:dependencies` endpoint shows.
 */
import type { Attrs, Graph, GraphNode } from './types.ts';

export function newGraph(name: string, version: string): Graph {
  return { nodes: [{ name, version, bundled: false, errors: [] }], edges: [], error: '' };
}

export function addNode(g: Graph, name: string, version: string, bundled = false): number {
  g.nodes.push({ name, version, bundled, errors: [] });
  return g.nodes.length - 1;
}

export function addEdge(g: Graph, from: number, to: number, requirement: string, attrs: Attrs = {}): void {
  g.edges.push({ from, to, requirement, attrs });
}

export function addError(g: Graph, node: number, name: string, requirement: string, message: string): void {
  g.nodes[node]!.errors.push({ name, requirement, message });
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function attrKey(a: Attrs): string {
  return Object.keys(a)
    .sort()
    .map((k) => `${k}=${a[k]}`)
    .join(' ');
}

/** Returns a new graph in canonical order (ties between equal nodes keep their discovery order). */
export function canon(g: Graph): Graph {
  const order = g.nodes.map((n, i) => ({ n, i }));
  const root = order.shift()!;
  order.sort((x, y) => cmp(x.n.name, y.n.name) || cmp(x.n.version, y.n.version) || x.i - y.i);
  order.unshift(root);
  const remap = new Map<number, number>();
  for (const [j, x] of order.entries()) remap.set(x.i, j);
  const nodes: GraphNode[] = order.map((x) => ({
    ...x.n,
    errors: [...x.n.errors].sort((a, b) => cmp(a.name, b.name) || cmp(a.requirement, b.requirement)),
  }));
  const edges = g.edges.map((e) => ({ ...e, from: remap.get(e.from)!, to: remap.get(e.to)! }));
  edges.sort(
    (a, b) =>
      a.from - b.from || a.to - b.to || cmp(a.requirement, b.requirement) || cmp(attrKey(a.attrs), attrKey(b.attrs)),
  );
  return { nodes, edges, error: g.error };
}
