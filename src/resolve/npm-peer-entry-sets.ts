/**
 * The peer sets a node belongs to and the edges that bring each set in (arborist's peerEntrySets):
 * the union of everything joined to `node` by valid peer edges, either way; then, for every valid edge
 * into a member that is not a peer edge or comes from the top of the tree, the member and what it
 * reaches through valid peer edges is the set that edge brings in, kept when it holds `node`.
 * PlaceDep.replaceOldDep uses them to prune the peer sets a replacement leaves unmet.
 */
import { isPeerEdge, resolveName, satisfiesEdge, type TreeBuilder, type TreeEdge, type TreeNode } from './npm-tree.ts';

export interface PeerEntry {
  from: TreeNode;
  edge: TreeEdge;
  /** the member the entry edge reaches */
  to: TreeNode;
}

function peersOut(n: TreeNode): TreeNode[] {
  const out: TreeNode[] = [];
  for (const e of n.edges.values()) {
    if (!isPeerEdge(e)) continue;
    const to = resolveName(n, e.name);
    if (to && satisfiesEdge(to, e)) out.push(to);
  }
  return out;
}

export function peerEntrySets(b: TreeBuilder, node: TreeNode): PeerEntry[] {
  // each member's dependents (a walk of the tree) are read once, for the union and for its entries
  const dependents = new Map<TreeNode, ReturnType<TreeBuilder['dependents']>>();
  const into = (n: TreeNode) => dependents.get(n) ?? dependents.set(n, b.dependents(n)).get(n)!;
  const union = new Set([node]);
  for (const n of union) {
    for (const to of peersOut(n)) union.add(to);
    for (const d of into(n)) if (isPeerEdge(d.edge) && satisfiesEdge(n, d.edge)) union.add(d.from);
  }
  const entries: PeerEntry[] = [];
  for (const peer of union) {
    for (const d of into(peer)) {
      if (!satisfiesEdge(peer, d.edge)) continue; // previously conflicted, or the one being replaced
      if (isPeerEdge(d.edge) && d.from.parent !== null) continue;
      const sub = new Set([peer]);
      for (const m of sub) for (const to of peersOut(m)) sub.add(to);
      if (sub.has(node)) entries.push({ from: d.from, edge: d.edge, to: peer });
    }
  }
  return entries;
}
