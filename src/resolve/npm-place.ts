/**
 * Placing one dependency (with its peer set) in the npm tree: arborist's PlaceDep, over the
 * CanPlaceDep answers of npm-tree.ts. The steps, in order:
 *  1. find the spot: a bundled folder that does not satisfy its own package's edge is replaced where
 *     it is; otherwise walk up from `start` and keep the shallowest target before the first
 *     CONFLICT; when the set fits nowhere, the dependency alone goes where it last fitted (not for
 *     the root's own edges: npm fails there, the copy goes where the walk started);
 *  2. KEEP leaves the existing copy; REPLACE retires the old copy (it hands over its children, and
 *     what only it needed is pruned, PlaceDep.replaceOldDep / pruneForReplacement);
 *  3. a package that a folder at or above the target already holds as this very version is linked to
 *     that folder instead (a nesting loop); otherwise, after the placement, deeper duplicates the new
 *     copy can serve are pruned (pruneDedupable);
 *  4. then each peer of the set that the new copy's peer edges still need is placed the same way.
 */
import {
  cmpVersion,
  deepestNestingTarget,
  depth,
  inBundle,
  isPeerEdge,
  nodePath,
  resolveName,
  satisfiesEdge,
  type TreeBuilder,
  type TreeEdge,
  type TreeNode,
} from './npm-tree.ts';
import { peerEntrySets } from './npm-peer-entry-sets.ts';

/** A tree npm itself would not settle on (npm reports ERESOLVE); becomes the graph's error. */
export class NpmTreeError extends Error {}

const MAX_PLACEMENTS_PER_PATH = 25;
/**
 * A copy nested this many folders deep means placement is nesting ever deeper instead of settling:
 * each further level costs more than the last, so without this bound such a request spins until the
 * node limit. npm's own loops end in a link (linkToAncestor; differential seed 30163 nested without end
 * before that rule); this bound is the guard for any loop that rule does not catch. npm's trees nest a
 * handful of levels (the deepest in the recorded corpus of 37 real roots is far below it).
 */
const MAX_NESTING_DEPTH = 40;

interface Spot {
  target: TreeNode;
  decision: string;
}

function prune(n: TreeNode): void {
  n.removed = true;
  n.parent?.children.delete(n.name);
}

function dropSubtree(n: TreeNode): void {
  prune(n);
  const walk = (x: TreeNode) => {
    for (const c of x.children.values()) {
      c.removed = true;
      walk(c);
    }
  };
  walk(n);
}

/** Copies named like `dep` below `target`, other than `dep` itself. */
function duplicatesBelow(target: TreeNode, dep: TreeNode): TreeNode[] {
  const dupes: TreeNode[] = [];
  const walk = (x: TreeNode) => {
    for (const c of x.children.values()) {
      if (c.removed) continue;
      if (c.name === dep.name && c !== dep) dupes.push(c);
      walk(c);
    }
  };
  walk(target);
  return dupes;
}

export class Placer {
  /** what the current task placed (the dependency, then its peers), for the re-evaluation after it */
  readonly placedNow: { dep: TreeNode; edge: TreeEdge }[] = [];
  /** dependents of pruned peer sets, to evaluate again (seen or not: PlaceDep.needEvaluation) */
  readonly needEvaluation: TreeNode[] = [];
  placed = 0;
  private readonly b: TreeBuilder;
  private readonly root: TreeNode;
  private readonly enqueue: (n: TreeNode) => void;
  private readonly placements = new Map<string, number>();

  constructor(b: TreeBuilder, root: TreeNode, enqueue: (n: TreeNode) => void) {
    this.b = b;
    this.root = root;
    this.enqueue = enqueue;
  }

  /** Places `dep` for `edge` of `from`, walking up from `start`; `mine` is decided once per set. */
  place(dep: TreeNode, edge: TreeEdge, from: TreeNode, start: TreeNode, peers: TreeNode[], mine?: boolean): void {
    mine ??= this.isMine(from, edge);
    const spot = this.findSpot(dep, edge, from, start, peers, mine);
    if (!spot) return;
    const { target, decision } = spot;
    if (isPeerEdge(edge) && !satisfiesEdge(dep, edge)) edge.conflicted = true;
    if (decision === 'KEEP') {
      const kept = target.children.get(dep.name) ?? target; // the root keeps its own folder (npm-tree.ts)
      if (isPeerEdge(edge) && !satisfiesEdge(kept, edge)) edge.conflicted = true;
      return;
    }
    if (this.linkToAncestor(dep, target)) return;
    let oldDeps: TreeNode[] = [];
    let peerSets: TreeNode[] = [];
    if (decision === 'REPLACE') {
      const old = target.children.get(dep.name)!;
      peerSets = this.unmetPeerSets(old, dep, target);
      const retired = this.retire(old, dep);
      if (!retired) return;
      oldDeps = retired;
    }
    target.children.set(dep.name, dep);
    dep.parent = target;
    if (decision === 'REPLACE') {
      this.pruneForReplacement(dep, oldDeps);
      this.prunePeerSets(peerSets);
    }
    this.count(dep, edge);
    this.pruneDedupable(dep, target);
    this.placePeers(dep, start, peers, mine);
  }

  /**
   * PlaceDep's nesting loop (a1 -> b1 -> a2 -> b2 -> a1 ...): when the target or a folder above it
   * holds this very package (same folder name and version, not the project), a symbolic link to that
   * folder is placed instead of a copy, so the loop ends; the link has no dependencies of its own,
   * its peers are not placed and nothing is pruned for it (npm locks it as `link: true`).
   */
  private linkToAncestor(dep: TreeNode, target: TreeNode): boolean {
    let to: TreeNode | null = target;
    while (to?.parent && !(to.name === dep.name && to.pkg === dep.pkg && to.version === dep.version)) to = to.parent;
    if (!to?.parent) return false;
    const old = target.children.get(dep.name);
    if (old) prune(old);
    const link: TreeNode = { ...dep, parent: target, children: new Map(), edges: new Map(), errors: [], link: to };
    target.children.set(dep.name, link);
    this.placed++;
    return true;
  }

  /**
   * PlaceDep.isMine: the placement is on behalf of the root (its own edge, or a peer edge of a
   * package the root depends on directly or through its peer set).
   */
  private isMine(from: TreeNode, edge: TreeEdge): boolean {
    if (from === this.root) return true;
    if (!isPeerEdge(edge)) return false;
    const set = new Set([from]);
    for (const n of set) {
      for (const d of this.b.dependents(n)) {
        if (!isPeerEdge(d.edge)) {
          if (d.from === this.root) return true;
        } else set.add(d.from);
      }
    }
    return false;
  }

  /** Where `dep` goes and how, or null when it is not placed at all (step 1 of the header). */
  private findSpot(dep: TreeNode, edge: TreeEdge, from: TreeNode, start: TreeNode, peers: TreeNode[], mine: boolean) {
    const inPlace = this.replaceMismatchedBundle(dep, edge, from, start);
    if (inPlace) return inPlace;
    const { all, self } = this.walkUp(dep, edge, from, start, peers);
    if (all) return all;
    if (!mine) {
      // the set fits nowhere: the dependency alone goes where it fits and the conflicting peers
      // are left as they are ("overriding peer dependency"); if it fits nowhere, nothing is placed
      if (!self && isPeerEdge(edge)) edge.conflicted = true;
      return self;
    }
    // npm fails with ERESOLVE for the root's own conflicts; the copy goes where the walk started
    return { target: start, decision: start.children.has(dep.name) ? 'REPLACE' : 'OK' };
  }

  /**
   * A bundled folder that does not satisfy its own package's edge is replaced where it is, not from
   * above (deps.dev's derivedFromMismatchVersion; npm 6 behaviour).
   */
  private replaceMismatchedBundle(dep: TreeNode, edge: TreeEdge, from: TreeNode, start: TreeNode): Spot | null {
    const here = start.children.get(dep.name);
    if (!here || here.removed || here.bundle === null || start !== from || satisfiesEdge(here, edge)) return null;
    dropSubtree(here);
    dep.pinned = true;
    return { target: start, decision: 'OK' };
  }

  /** The shallowest spot for the whole set before the first conflict, and the last where `dep` alone fits. */
  private walkUp(dep: TreeNode, edge: TreeEdge, from: TreeNode, start: TreeNode, peers: TreeNode[]) {
    let all: Spot | null = null;
    let self: Spot | null = null;
    for (let t: TreeNode | null = start; t; t = t.parent) {
      if (t.parent && t !== start && isPeerEdge(t.edges.get(dep.name))) continue;
      const d = this.b.canPlace(dep, edge, from, t, start, peers);
      if (d.self !== 'CONFLICT') self = { target: t, decision: d.self };
      if (d.all === 'CONFLICT') break;
      all = { target: t, decision: d.all };
    }
    return { all, self };
  }

  /**
   * Takes `old` out for `dep` (PlaceDep.replaceOldDep): `dep` adopts its children, and the copies it
   * depended on under names `dep` does not use are returned for pruning. Null when `old` is a
   * bundled copy (never replaced).
   */
  private retire(old: TreeNode, dep: TreeNode): TreeNode[] | null {
    if (old.bundle !== null) return null;
    const oldDeps: TreeNode[] = [];
    for (const e of old.edges.values()) {
      const to = dep.edges.has(e.name) ? null : resolveName(old, e.name);
      if (to && to !== old) oldDeps.push(...this.b.depSet([to], (_f, _e, t) => t !== to));
    }
    for (const c of old.children.values()) {
      if (c.bundle !== null || dep.children.has(c.name)) continue;
      c.parent = dep;
      dep.children.set(c.name, c);
    }
    old.removed = true;
    for (const c of [...dep.children.values()]) {
      if (c.bundle === null && !dep.edges.has(c.name) && this.b.dependents(c).length === 0) prune(c);
    }
    return oldDeps;
  }

  /**
   * The peer sets at `target` whose peer edge on `old` the replacement `dep` leaves unmet, each with
   * what only it needs (PlaceDep.replaceOldDep's prunePeerSets): they are removed and re-placed from
   * their dependents, unless the project itself brings the set in (npm then warns and keeps it).
   */
  private unmetPeerSets(old: TreeNode, dep: TreeNode, target: TreeNode): TreeNode[] {
    const out: TreeNode[] = [];
    for (const d of this.b.dependents(old)) {
      if (satisfiesEdge(dep, d.edge) || !isPeerEdge(d.edge) || d.from.parent !== target || d.edge.conflicted) continue;
      for (const entry of peerEntrySets(this.b, d.from)) {
        if (entry.from === this.root) continue;
        out.push(...this.b.depSet([entry.to], (_f, e, t) => t !== entry.to && !e.conflicted));
      }
    }
    return out;
  }

  /** Removes the peer sets `unmetPeerSets` found; whatever depended on them is evaluated again. */
  private prunePeerSets(sets: TreeNode[]): void {
    for (const x of sets) {
      if (x.removed) continue;
      for (const d of this.b.dependents(x)) this.needEvaluation.push(d.from);
      dropSubtree(x);
    }
  }

  /**
   * Copies only the replaced one needed, and those the new one's invalid edges reach that nothing
   * else needs, are removed (PlaceDep.pruneForReplacement). Edges from or to the new copy do not hold
   * anything in place, so when the replaced copy's own set reaches the new one (the old copy peered on
   * the installed root, whose set is then the whole tree: differential seed 50178), the new copy goes
   * too, with what only it brought, as arborist removes it; its dependents meet the name again later.
   */
  private pruneForReplacement(dep: TreeNode, oldDeps: TreeNode[]): void {
    const junk = new Set<TreeNode>();
    for (const e of dep.edges.values()) {
      const t = resolveName(dep, e.name);
      if (t && t !== dep && !satisfiesEdge(t, e)) junk.add(t);
    }
    for (const d of oldDeps) {
      if (d.removed) continue;
      for (const x of this.b.depSet([d], (_f, e, t) => t !== d && satisfiesEdge(t, e))) junk.add(x);
    }
    const valid = (f: TreeNode, e: TreeEdge, t: TreeNode) => f !== dep && t !== dep && satisfiesEdge(t, e);
    for (const x of this.b.depSet(
      [...junk].filter((x) => !x.removed),
      valid,
    )) {
      if (!x.removed && !inBundle(x)) dropSubtree(x);
    }
  }

  /** Counts the placement (a path placed too often does not converge), queues the copy and notes it. */
  private count(dep: TreeNode, edge: TreeEdge): void {
    this.placed++;
    const at = nodePath(dep);
    const times = (this.placements.get(at) ?? 0) + 1;
    this.placements.set(at, times);
    if (times > MAX_PLACEMENTS_PER_PATH) throw new NpmTreeError(`placement of ${at} does not converge`);
    if (depth(dep) > MAX_NESTING_DEPTH)
      throw new NpmTreeError(`placement nests deeper than ${MAX_NESTING_DEPTH} folders and does not converge`);
    this.enqueue(dep);
    this.placedNow.push({ dep, edge });
  }

  /**
   * Copies of the name at or below the target that the one above them can serve are removed with what
   * only they needed, and so are the direct children of each copy that stays (PlaceDep.pruneDedupable
   * over the inventory's copies of the name, then over the kept ones' children: a copy the new one
   * adopted from the version it replaced goes when a newer one above serves its dependents).
   */
  private pruneDedupable(dep: TreeNode, target: TreeNode): void {
    for (const n of [dep, ...duplicatesBelow(target, dep)]) {
      if (n.removed) continue;
      if (this.dedupe(n)) continue;
      for (const kid of [...n.children.values()]) if (!kid.removed) this.dedupe(kid);
    }
  }

  /** Removes `n` and what only it needed when the copy above can stand in for it. */
  private dedupe(n: TreeNode): boolean {
    if (!this.canDedupe(n)) return false;
    for (const x of this.b.depSet([n], (_f, e, t) => t !== n && satisfiesEdge(t, e))) {
      if (!x.removed && !inBundle(x)) dropSubtree(x);
    }
    return true;
  }

  /** Node.canDedupe: a copy the one above it can stand in for (never inside a bundle). */
  private canDedupe(n: TreeNode): boolean {
    if (!n.parent?.parent || inBundle(n)) return false;
    const other = resolveName(n.parent.parent, n.name);
    if (!other) return false;
    if (other.pkg === n.pkg && other.version === n.version) return true;
    if (this.b.dependents(n).length === 0) return true;
    return this.b.canReplace(n, other) && cmpVersion(other.version, n.version) >= 0;
  }

  /**
   * The peers of the set, each where its own walk up from `start` ends; a member that a regular
   * dependency of the same name meets is not a peer of this copy, and a conflicted one is not placed.
   */
  private placePeers(dep: TreeNode, start: TreeNode, peers: TreeNode[], mine: boolean): void {
    for (const p of peers) {
      if (dep.removed) return; // pruned by a placement of its own set: arborist places the rest out of the tree
      const pe = dep.edges.get(p.name);
      if (!isPeerEdge(pe) || !satisfiesEdge(p, pe)) continue;
      const cur = resolveName(dep, p.name);
      if (cur ? satisfiesEdge(cur, pe) : pe.type === 'peerOptional') continue;
      const others = peers.filter((x) => x !== p);
      this.place(p, pe, dep, deepestNestingTarget(start, p.name), others, mine);
    }
  }
}
