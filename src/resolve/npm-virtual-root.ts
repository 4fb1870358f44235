/**
 * The peer set being loaded for one dependency (arborist's virtual root: the dependent's own edges,
 * with the dependency and its peers as children, each edge of a member resolving to the member of
 * that name). When a peer edge meets a member it is not satisfied by, #loadPeerSet replaces that
 * member with the edge's own pick if the pick can take its place there (Node.canReplaceWith inside
 * the set): every edge into the member must accept the pick, except the edges from what only the
 * member brings in.
 */
import { gatherDepSet } from './npm-dep-set.ts';
import { specSatisfied } from './npm-pick.ts';
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

/** Whether `version` can take the place of `current` in the set `members` loaded for `from`. */
export function peerCanReplace(
  current: TreeNode,
  version: string,
  from: TreeNode,
  members: readonly TreeNode[],
): boolean {
  const held = edgesInto(current, from, members).filter((x) => !specSatisfied(x.edge.spec, version));
  if (held.length === 0) return true;
  const byName = new Map(members.map((m) => [m.name, m] as const));
  const model = {
    resolve: (_n: TreeNode, e: TreeEdge) => byName.get(e.name) ?? null,
    into: (n: TreeNode) => edgesInto(n, from, members),
  };
  const own = gatherDepSet([current], model, (_f, e, t) => t !== current && satisfiesEdge(t, e));
  return held.every((x) => x.from !== null && own.has(x.from));
}
