/**
 * arborist's gatherDepSet over any way of resolving edges: `set` and everything it depends on through
 * edges `follow` accepts, less every node that such an edge from outside the set reaches (repeated
 * until nothing changes): what only `set` needs. The tree (npm-tree.ts) resolves by node_modules
 * lookup; the peer set being loaded (npm-virtual-root.ts) by name among its members, where an edge
 * of the dependent itself comes from outside every set (`from` null).
 */
import type { TreeEdge, TreeNode } from './npm-tree.ts';

export interface EdgeModel {
  /** where `n`'s edge `e` leads, or null */
  resolve(n: TreeNode, e: TreeEdge): TreeNode | null;
  /** the edges leading into `n` */
  into(n: TreeNode): Iterable<{ from: TreeNode | null; edge: TreeEdge }>;
}

export function gatherDepSet(
  set: Iterable<TreeNode>,
  model: EdgeModel,
  follow: (from: TreeNode | null, e: TreeEdge, to: TreeNode) => boolean,
): Set<TreeNode> {
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
