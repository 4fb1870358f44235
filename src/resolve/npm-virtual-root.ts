/**
 * The peer set being loaded for one dependency (arborist's virtual root: the dependent's own edges,
 * with the dependency and its peers as children, each edge of a member resolving to the member of
 * that name). When a peer edge meets a member it is not satisfied by, #loadPeerSet replaces that
 * member with the edge's own pick if the pick can take its place there (Node.canReplaceWith inside
 * the set): every edge into the member must accept the pick, except the edges from what only the
 * member brings in.
 */
import { satisfiesEdge, type TreeEdge, type TreeNode } from './npm-tree.ts';

/** The edges into `node` inside the set: the dependent's own and each other member's (any type). */
function edgesInto(node: TreeNode, from: TreeNode, members: readonly TreeNode[]) {
  const out: { from: TreeNode | null; edge: TreeEdge }[] = [];
  const own = from.edges.get(node.name);
  if (own) out.push({ from: null, edge: own });
  for (const m of members) {
    const e = m !== node ? m.edges.get(node.name) : undefined;
    if (e) out.push({ from: m, edge: e });
  }
  return out;
}

/** What only `node` brings into the set (arborist's gatherDepSet over valid edges not back into it). */
function ownSet(node: TreeNode, from: TreeNode, members: readonly TreeNode[]): Set<TreeNode> {
  const byName = new Map(members.map((m) => [m.name, m] as const));
  const set = new Set([node]);
  for (const n of set) {
    for (const e of n.edges.values()) {
      const t = byName.get(e.name);
      if (t && t !== node && satisfiesEdge(t, e)) set.add(t);
    }
  }
  for (let changed = true; changed; ) {
    changed = false;
    for (const d of set) {
      if (d === node) continue;
      const held = edgesInto(d, from, members).some(
        (x) => (x.from === null || !set.has(x.from)) && satisfiesEdge(d, x.edge),
      );
      if (held) {
        set.delete(d);
        changed = true;
      }
    }
  }
  return set;
}

/** Whether `version` can take the place of `current` in the set `members` loaded for `from`. */
export function peerCanReplace(
  current: TreeNode,
  version: string,
  from: TreeNode,
  members: readonly TreeNode[],
): boolean {
  const pick = { version } as TreeNode;
  const into = edgesInto(current, from, members).filter((x) => !satisfiesEdge(pick, x.edge));
  if (into.length === 0) return true;
  const own = ownSet(current, from, members);
  return into.every((x) => x.from !== null && own.has(x.from));
}
