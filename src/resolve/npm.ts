/**
 * npm resolver: builds the node_modules tree npm 7+ would install (npm-tree.ts, arborist's
 * placement), then turns it into a deps.dev graph: one node per installed copy (nested duplicates
 * stay distinct, as in deps.dev's npm graphs), edges from each copy along its dependencies to the
 * copy node's module resolution reaches, requirement = the declared range. Optional dependencies
 * whose os/cpu/engines do not fit the emulated platform (linux, x64, node `nodeVersion`) are pruned
 * afterwards together with whatever only they needed, as `npm install` does after building the
 * ideal tree (the lockfile keeps them; the installed tree does not).
 */
import { addEdge, addError, addNode, newGraph } from './graph.ts';
import { DEFAULT_NPM_ENV, engineOk, pickVersion, platformOk, specSatisfied, type NpmEnv } from './npm-pick.ts';
import { TreeBuilder, cmpVersion, deepestNestingTarget, depth, inBundle, isPeerEdge, localeCompare, nodePath, resolveName, satisfiesEdge, type TreeEdge, type TreeNode } from './npm-tree.ts';
import type { Client, Graph } from './types.ts';

/** A tree npm itself would not settle on (npm reports ERESOLVE); becomes the graph's error. */
export class NpmTreeError extends Error {}

const MAX_PLACEMENTS_PER_PATH = 25;

export interface NpmOptions extends Partial<NpmEnv> {
  maxNodes?: number;
}

export async function buildNpmTree(client: Client, name: string, version: string, env: NpmEnv, maxNodes = 20_000): Promise<TreeNode | null> {
  const all = await client.versions(name);
  const info = all.find((v) => v.version === version);
  if (!info) return null;
  const b0 = new TreeBuilder(client, env, null as unknown as TreeNode);
  // the root's own tarball brings its bundle too (deps.dev's derivedFromBasicAtRoot)
  const root = await b0.makeNode(name, info);
  const b = new TreeBuilder(client, env, root);
  const queue: TreeNode[] = [root];
  const seen = new Set<TreeNode>();
  let placed = 0;
  const placements = new Map<string, number>();

  const pick = async (e: TreeEdge, spec = e.spec) => pickVersion(await b.versions(e.pkg), spec, env);

  const loadPeers = async (dep: TreeNode, from: TreeNode, acc: TreeNode[]) => {
    for (const pe of [...dep.edges.values()].filter(isPeerEdge).sort((x, y) => localeCompare(x.name, y.name))) {
      if (acc.some((p) => p.name === pe.name)) continue;
      // the dependent's own edge on that name picks the version; the peer's range only when the
      // dependent's edge accepts that pick too (#nodeFromEdge with a second edge); else the
      // dependent's pick joins the set as a conflicted member (npm warns "overriding peer
      // dependency"), except for the root's own edges (npm fails there; the peer's pick is taken)
      const parentEdge = from.edges.get(pe.name);
      let info = parentEdge && parentEdge.pkg === pe.pkg ? await pick(parentEdge) : null;
      if (parentEdge && info && !specSatisfied(pe.spec, info.version)) {
        const second = await pick(pe);
        if (second && (specSatisfied(parentEdge.spec, second.version) || from === root)) info = second;
      }
      if (!info) info = await pick(pe);
      if (!info) continue;
      const p = await b.makeNode(pe.name, info);
      acc.push(p);
      await loadPeers(p, from, acc);
    }
  };

  const prune = (n: TreeNode) => {
    n.removed = true;
    n.parent?.children.delete(n.name);
  };

  const canDedupe = (n: TreeNode): boolean => {
    if (!n.parent || !n.parent.parent || inBundle(n)) return false;
    const other = resolveName(n.parent.parent, n.name);
    if (!other) return false;
    if (other.pkg === n.pkg && other.version === n.version) return true;
    const deps = b.dependents(n);
    if (deps.length === 0) return true;
    return deps.every((d) => satisfiesEdge(other, d.edge)) && cmpVersion(other.version, n.version) >= 0;
  };

  const dropSubtree = (n: TreeNode) => {
    prune(n);
    const walk = (x: TreeNode) => { for (const c of x.children.values()) { c.removed = true; walk(c); } };
    walk(n);
  };

  // a duplicate goes with what only it needed (PlaceDep.pruneDedupable)
  const dedupe = (n: TreeNode) => {
    for (const x of b.depSet([n], (_f, e, t) => t !== n && satisfiesEdge(t, e))) if (!x.removed && !inBundle(x)) dropSubtree(x);
  };

  /** what the current task placed (the dependency, then its peers), for the re-evaluation after it */
  const placedNow: { dep: TreeNode; edge: TreeEdge }[] = [];
  /** per dependent, the last dependency fetched for it with its peer set (its virtual root) */
  const lastSet = new Map<TreeNode, TreeNode[]>();

  // PlaceDep.isMine: the placement is on behalf of the root (its own edge, or a peer edge of a
  // package the root depends on directly or through its peer set)
  const isMine = (from: TreeNode, edge: TreeEdge): boolean => {
    if (from === root) return true;
    if (!isPeerEdge(edge)) return false;
    const set = new Set([from]);
    for (const n of set) {
      for (const d of b.dependents(n)) {
        if (!isPeerEdge(d.edge)) { if (d.from === root) return true; } else set.add(d.from);
      }
    }
    return false;
  };

  const place = (dep: TreeNode, edge: TreeEdge, from: TreeNode, start: TreeNode, peers: TreeNode[], mine = isMine(from, edge)) => {
    let target: TreeNode | null = null;
    let decision = 'OK';
    let self: { target: TreeNode; decision: string } | null = null;
    const here = start.children.get(dep.name);
    if (here && !here.removed && here.bundle !== null && start === from && !satisfiesEdge(here, edge)) {
      // a bundled folder that does not satisfy its own package's edge is replaced where it is,
      // not from above (deps.dev's derivedFromMismatchVersion; npm 6 behaviour)
      dropSubtree(here);
      target = start;
      dep.pinned = true;
    }
    for (let t: TreeNode | null = target ? null : start; t; t = t.parent) {
      const te = t.edges.get(dep.name);
      if (t.parent && t !== start && isPeerEdge(te)) continue;
      const d = b.canPlace(dep, edge, from, t, start, peers);
      if (d.self !== 'CONFLICT') self = { target: t, decision: d.self };
      if (d.all === 'CONFLICT') break;
      target = t;
      decision = d.all;
    }
    if (!target && !mine) {
      // the set fits nowhere: the dependency alone goes where it fits and the conflicting peers
      // are left as they are ("overriding peer dependency"); if it fits nowhere, nothing is placed
      if (!self) {
        if (isPeerEdge(edge)) edge.conflicted = true;
        return;
      }
      ({ target, decision } = self);
    }
    if (!target) {
      // npm fails with ERESOLVE for the root's own conflicts; the copy goes where the walk started
      target = start;
      decision = target.children.has(dep.name) ? 'REPLACE' : 'OK';
    }
    if (isPeerEdge(edge) && !satisfiesEdge(dep, edge)) edge.conflicted = true;
    if (decision === 'KEEP') {
      if (isPeerEdge(edge) && !satisfiesEdge(target.children.get(dep.name)!, edge)) edge.conflicted = true;
      return;
    }
    let oldDeps: TreeNode[] = [];
    if (decision === 'REPLACE') {
      const old = target.children.get(dep.name)!;
      if (old.bundle !== null) return;
      // what the replaced copy depended on under names the new one does not use (PlaceDep.replaceOldDep)
      for (const e of old.edges.values()) {
        const to = dep.edges.has(e.name) ? null : resolveName(old, e.name);
        if (to && to !== old) oldDeps.push(...b.depSet([to], (_f, _e, t) => t !== to));
      }
      for (const c of old.children.values()) {
        if (c.bundle !== null || dep.children.has(c.name)) continue;
        c.parent = dep;
        dep.children.set(c.name, c);
      }
      old.removed = true;
      for (const c of [...dep.children.values()]) if (c.bundle === null && !dep.edges.has(c.name) && b.dependents(c).length === 0) prune(c);
    }
    target.children.set(dep.name, dep);
    dep.parent = target;
    if (decision === 'REPLACE') {
      // copies only the replaced one needed, and those the new one's invalid edges reach that nothing
      // else needs, are removed (PlaceDep.pruneForReplacement)
      const junk = new Set<TreeNode>();
      for (const e of dep.edges.values()) {
        const t = resolveName(dep, e.name);
        if (t && t !== dep && !satisfiesEdge(t, e)) junk.add(t);
      }
      for (const d of oldDeps) if (!d.removed) for (const x of b.depSet([d], (_f, e, t) => t !== d && satisfiesEdge(t, e))) junk.add(x);
      oldDeps = [];
      const valid = (f: TreeNode, e: TreeEdge, t: TreeNode) => f !== dep && t !== dep && satisfiesEdge(t, e);
      for (const x of b.depSet([...junk].filter((x) => !x.removed), valid)) {
        if (x !== dep && !x.removed && !inBundle(x) && !b.isDescendantOf(dep, x)) dropSubtree(x);
      }
    }
    placed++;
    const at = nodePath(dep);
    const times = (placements.get(at) ?? 0) + 1;
    placements.set(at, times);
    if (times > MAX_PLACEMENTS_PER_PATH) throw new NpmTreeError(`placement of ${at} does not converge`);
    queue.push(dep);
    placedNow.push({ dep, edge });
    // deeper copies the new one can serve are removed (PlaceDep.pruneDedupable)
    const dupes: TreeNode[] = [];
    const walk = (x: TreeNode) => {
      for (const c of x.children.values()) {
        if (c.removed) continue;
        if (c.name === dep.name && c !== dep) dupes.push(c);
        walk(c);
      }
    };
    walk(target);
    for (const n of dupes) if (!n.removed && canDedupe(n)) dedupe(n);
    // then its peers from the set, each where its own walk up from `start` ends (a member that a
    // regular dependency of the same name meets is not a peer of this copy)
    for (const p of peers) {
      const pe = dep.edges.get(p.name);
      if (!isPeerEdge(pe) || !satisfiesEdge(p, pe)) continue; // a conflicted member is not placed for it
      const cur = resolveName(dep, p.name);
      if (cur ? satisfiesEdge(cur, pe) : pe.type === 'peerOptional') continue;
      const others = peers.filter((x) => x !== p);
      place(p, pe, dep, deepestNestingTarget(start, p.name), others, mine);
    }
  };

  while (queue.length > 0) {
    queue.sort((x, y) => depth(x) - depth(y) || localeCompare(nodePath(x), nodePath(y)));
    const node = queue.shift()!;
    if (node.removed || seen.has(node)) continue;
    seen.add(node);
    if (placed > maxNodes) throw new NpmTreeError(`npm tree for ${name}@${version} exceeds ${maxNodes} nodes`);
    const tasks: { edge: TreeEdge; dep: TreeNode; peers: TreeNode[] }[] = [];
    // dependencies are fetched in the order the edges are declared, each with its peer set in a
    // fresh virtual root; a package the last set of this node already holds is taken from it when
    // it satisfies the edge (#buildDepStep's vrDep), so a version a peer range narrowed is reused
    const problems = new Set(b.problemEdges(node));
    let vr = lastSet.get(node);
    for (const edge of [...node.edges.values()].filter((e) => problems.has(e))) {
      const held = vr?.find((m) => m.name === edge.name && satisfiesEdge(m, edge));
      if (held) {
        const dep = await b.makeNode(held.name, held.info);
        const peers = await Promise.all(vr!.filter((m) => m !== held).map((m) => b.makeNode(m.name, m.info)));
        tasks.push({ edge, dep, peers });
        continue;
      }
      const info = await pick(edge);
      if (!info) {
        if (edge.type !== 'optional' && edge.type !== 'peerOptional') {
          node.errors.push({ edge, message: `could not find a version that satisfies requirement ${edge.spec} for package ${edge.pkg}` });
        }
        continue;
      }
      const dep = await b.makeNode(edge.name, info);
      const peers: TreeNode[] = [];
      await loadPeers(dep, node, peers);
      tasks.push({ edge, dep, peers });
      vr = [dep, ...peers];
      lastSet.set(node, vr);
    }
    tasks.sort((x, y) => localeCompare(x.edge.name, y.edge.name));
    for (const t of tasks) {
      if (node.removed) break;
      const cur = resolveName(node, t.edge.name);
      if (cur && satisfiesEdge(cur, t.edge)) continue;
      place(t.dep, t.edge, node, deepestNestingTarget(node, t.edge.name), t.peers);
      // once the dependency and its peers are in, whatever now resolves to a placed copy that does
      // not satisfy it is evaluated (again) (buildIdealTree re-queues those dependents, seen or not,
      // as `npm install` saves; an optional peer met by a copy it does not accept included)
      for (const { dep, edge } of placedNow.splice(0)) {
        if (dep.removed) continue;
        for (const d of b.dependents(dep)) {
          if (d.edge === edge || d.edge.conflicted || satisfiesEdge(dep, d.edge)) continue;
          seen.delete(d.from);
          queue.push(d.from);
        }
      }
    }
    // bundled copies this node uses are processed from now on (their own unmet dependencies)
    if (!node.removed) {
      for (const e of node.edges.values()) {
        const t = resolveName(node, e.name);
        if (t && t.bundle !== null && !seen.has(t)) queue.push(t);
      }
    }
  }
  return root;
}

/** Every installed copy, by lockfile path (`node_modules/a/node_modules/b`). */
export function treeInventory(root: TreeNode): TreeNode[] {
  const out: TreeNode[] = [];
  const walk = (n: TreeNode) => {
    for (const c of [...n.children.values()].sort((a, b) => localeCompare(a.name, b.name))) {
      if (c.removed) continue;
      out.push(c);
      walk(c);
    }
  };
  walk(root);
  return out;
}

/** Optional copies that do not fit the platform, and everything only they bring in. */
export function optionalFailures(root: TreeNode, env: NpmEnv): Set<TreeNode> {
  const nodes = treeInventory(root);
  const required = new Set<TreeNode>([root]);
  const reach = (skip: Set<TreeNode>, viaOptional: boolean) => {
    const seen = new Set<TreeNode>([root]);
    const q = [root];
    while (q.length) {
      const n = q.shift()!;
      for (const e of n.edges.values()) {
        if (!viaOptional && (e.type === 'optional' || e.type === 'peerOptional')) continue;
        const t = resolveName(n, e.name);
        if (t && !seen.has(t) && !skip.has(t)) { seen.add(t); q.push(t); }
      }
    }
    return seen;
  };
  for (const n of reach(new Set(), false)) required.add(n);
  const failing = new Set(nodes.filter((n) => !required.has(n) && !(platformOk(n.info, env) && engineOk(n.info, env))));
  if (failing.size === 0) return failing;
  const alive = reach(failing, true);
  return new Set(nodes.filter((n) => !alive.has(n)));
}

export async function resolveNpm(client: Client, name: string, version: string, opts: NpmOptions = {}): Promise<Graph> {
  const env: NpmEnv = { ...DEFAULT_NPM_ENV, ...opts };
  const g = newGraph(name, version);
  let root: TreeNode | null;
  try {
    root = await buildNpmTree(client, name, version, env, opts.maxNodes);
  } catch (e) {
    if (!(e instanceof NpmTreeError)) throw e;
    g.error = e.message;
    return g;
  }
  if (!root) {
    g.error = `version ${version} of ${name} not found`;
    return g;
  }
  const dropped = optionalFailures(root, env);
  // bundled copies no edge reaches (extraneous folders of a tarball) are left out of the graph and
  // reported as its error, as deps.dev does ("unused bundled version <name> <version>")
  const reached = new Set<TreeNode>([root]);
  for (const q = [root]; q.length > 0;) {
    const n = q.shift()!;
    for (const e of n.edges.values()) {
      const t = resolveName(n, e.name);
      if (t && !dropped.has(t) && !reached.has(t)) { reached.add(t); q.push(t); }
    }
  }
  const unused: string[] = [];
  const ids = new Map<TreeNode, number>([[root, 0]]);
  const add = (n: TreeNode) => {
    for (const c of [...n.children.values()].sort((x, y) => localeCompare(x.name, y.name))) {
      if (c.removed || dropped.has(c)) continue;
      if (c.bundle !== null && !reached.has(c)) {
        unused.push(`unused bundled version ${c.pkg} ${c.version}`);
        continue;
      }
      ids.set(c, addNode(g, c.bundle ?? c.pkg, c.version, c.bundle !== null));
      add(c);
    }
  };
  add(root);
  g.error = unused.sort().join(',');
  for (const [n, id] of ids) {
    for (const err of n.errors) addError(g, id, err.edge.pkg, err.edge.spec, err.message);
    for (const e of n.edges.values()) {
      const t = resolveName(n, e.name);
      const to = t ? ids.get(t) : undefined;
      if (to === undefined) continue;
      const attrs: Record<string, string> = {};
      if (e.name !== e.pkg) attrs.knownas = e.name;
      if (e.type === 'optional') attrs.opt = '';
      if (e.type === 'peer' || e.type === 'peerOptional') attrs.scope = 'peer';
      addEdge(g, id, to, e.spec, attrs);
    }
  }
  return g;
}
