/**
 * arborist's gatherDepSet over any way of resolving edges: `set` and everything it depends on through
 * edges `follow` accepts, less every node that such an edge from outside the set reaches (repeated
 * until nothing changes): what only `set` needs. The tree (npm-tree.ts) resolves by node_modules
 * lookup; the peer set being loaded (npm-virtual-root.ts) by name among its members, where an edge
 * of the dependent itself comes from outside every set (`from` null).
 */
// generic over the node and edge types, so that npm-tree.ts can use it without an import circle
export interface EdgeModel<N, E> {
  /** where `n`'s edge `e` leads, or null */
  resolve(n: N, e: E): N | null;
  /** the edges leading into `n` */
  into(n: N): Iterable<{ from: N | null; edge: E }>;
}

export function gatherDepSet<N extends { edges: ReadonlyMap<string, E> }, E>(
  set: Iterable<N>,
  model: EdgeModel<N, E>,
  follow: (from: N | null, e: E, to: N) => boolean,
): Set<N> {
  const deps = new Set(set);
  for (const n of deps) {
    for (const e of n.edges.values()) {
      const to = model.resolve(n, e);
      if (to && follow(n, e, to)) deps.add(to);
    }
  }
  for (let changed = true; changed && deps.size > 0; ) {
    changed = false;
    for (const d of deps) {
      for (const x of model.into(d)) {
        if ((x.from === null || !deps.has(x.from)) && follow(x.from, x.edge, d)) {
          deps.delete(d);
          changed = true;
          break;
        }
      }
    }
  }
  return deps;
}
