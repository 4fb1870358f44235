/**
 * The node_modules tree npm 7+ builds (arborist's buildIdealTree + PlaceDep/CanPlaceDep), for a
 * fresh install with nothing present:
 *  - breadth-first queue ordered by (depth, path) with `localeCompare('en')`; for each node, its
 *    problem edges (missing or invalid; missing optional peers are not problems) sorted by name;
 *  - version choice by npm-pick-manifest (npm-pick.ts); peers of a chosen version are chosen with it
 *    (the dependent's own edge on the peer name, when there is one, picks the version; the peer's
 *    range only when the dependent's range accepts that pick too, else the peer is left unmet),
 *    optional peers too (arborist's #loadPeerSet loads every missing peer edge into the virtual
 *    root): the whole set must fit where the dependency is placed, but an optional peer is then
 *    placed only when the dependency's edge to it would otherwise resolve to a copy that does not
 *    satisfy it; a dependency the last peer set of the same dependent holds is reused (npm-ideal-tree.ts);
 *  - placement walks up from the dependent and keeps the shallowest location before the first
 *    conflict (maximal hoisting): KEEP when an existing copy there satisfies, REPLACE when the new
 *    version is >= and satisfies every dependent of the existing one (or when the dependent itself
 *    is the target; for a peer also when it is older, preferDedupe), OK when the name is free there
 *    and no dependent below would be shadowed wrongly; every peer edge inside the set is checked at
 *    that level (or above the dependents peering on that name); when the set fits nowhere the
 *    dependency alone goes where it fits (npm-place.ts);
 *  - after a placement, deeper duplicates that the new copy can serve are pruned (canDedupe), and
 *    a replaced or pruned copy takes with it what only it needed (gatherDepSet);
 *  - an edge is satisfied by the copy in its folder on the version alone, whatever package the
 *    folder holds (arborist's Edge.satisfiedBy -> depValid compares the folder name and the
 *    spec's range, `npm:x@r` by `r`; checked with npm 11's arborist), so an alias folder serves a
 *    plain edge of that name and a real package serves an alias edge;
 *  - edge types: prod, optional (wins over prod), peer, peerOptional (peerDependenciesMeta);
 *    dev dependencies only for the root and excluded here; a `bundleDependencies` name that is
 *    not also a dependency is a prod edge on its declared range (deps.dev's reading);
 *  - bundled dependencies (npm-bundle.ts): a node is created with its tarball's node_modules
 *    folders as children (nested folders too), before it is placed, so they travel with it. Such
 *    a copy (`bundle` = its mangled name) is never replaced, hoisted or deduplicated: outside
 *    placements see it as KEEP when it satisfies and CONFLICT otherwise, and nothing at or below
 *    a bundled copy is pruned (Node.canDedupe: "not allowed to mess with shrinkwraps or
 *    bundles"). A bundled folder that does not satisfy its own package's edge is replaced in
 *    place by a registry copy (npm-place.ts; deps.dev's vectors). A bundled copy enters the queue when
 *    an edge first resolves to it, so its own unmet dependencies are resolved and placed like any
 *    other (npm 6 / deps.dev; npm 7+ leaves them missing); an unused one is reported by npm.ts.
 */
import { bundleFolder, bundledVersionOf, isMangled } from './npm-bundle.ts';
import { gatherDepSet } from './npm-dep-set.ts';
import { specSatisfied, type NpmEnv } from './npm-pick.ts';
import type { Client, Dependency, VersionInfo } from './types.ts';
import { has } from './types.ts';

export type EdgeType = 'prod' | 'optional' | 'peer' | 'peerOptional';

export interface TreeEdge {
  name: string; // install name (alias)
  pkg: string; // real package name
  spec: string; // range on the real package
  type: EdgeType;
  dep: Dependency;
  /** a peer edge npm gave up on ("overriding peer dependency"): no longer a problem to fix */
  conflicted?: boolean;
}

export interface TreeNode {
  name: string; // install name (folder)
  pkg: string; // real package name (`derivedfrom` of a bundled copy)
  version: string;
  info: VersionInfo;
  parent: TreeNode | null;
  children: Map<string, TreeNode>;
  edges: Map<string, TreeEdge>;
  /** mangled name when this copy comes from a tarball's node_modules (npm-bundle.ts), else null */
  bundle: string | null;
  errors: { edge: TreeEdge; message: string }[];
  removed?: boolean;
  /** registry copy put in place of a bundled folder that did not fit: part of the bundle from then on */
  pinned?: boolean;
  /** the root: installed as `npm install root@version` installs it, in the top folder of its own name */
  top?: boolean;
  /**
   * a symbolic link to this ancestor folder, placed instead of a copy that would nest a package
   * inside itself without end (PlaceDep's nesting-loop rule, npm-place.ts): no edges, no children
   */
  link?: TreeNode;
}

const collator = new Intl.Collator('en');
export const localeCompare = (a: string, b: string) => collator.compare(a, b);

export function depth(n: TreeNode): number {
  let d = 0;
  for (let p = n.parent; p; p = p.parent) d++;
  return d;
}

export function nodePath(n: TreeNode): string {
  const parts: string[] = [];
  for (let p: TreeNode | null = n; p?.parent; p = p.parent) parts.unshift(`node_modules/${p.name}`);
  return parts.join('/');
}

/**
 * The copy node's module lookup reaches from `from`. The root is installed the way a user gets it
 * (`npm install root@version` in an empty project): its folder is the top `node_modules/<root>`,
 * so a lookup of the root's own name that finds no nearer copy reaches the root itself (a package
 * that peer-depends on the root is met by it; arborist's Node.resolve walks up to that folder).
 */
export function resolveName(from: TreeNode, name: string): TreeNode | null {
  for (let p: TreeNode | null = from; p; p = p.parent) {
    const c = p.children.get(name);
    if (c && !c.removed) return c.link ?? c;
    if (p.top && p.name === name) return p;
  }
  return null;
}

/** Whether `n`, found in the edge's folder, serves edge `e` (version alone, see the header). */
export function satisfiesEdge(n: TreeNode, e: TreeEdge): boolean {
  return specSatisfied(e.spec, n.version);
}

/** The copy itself or one of its ancestors comes from a bundle (arborist's inDepBundle). */
export function inBundle(n: TreeNode): boolean {
  for (let p: TreeNode | null = n; p; p = p.parent) if (p.bundle !== null || p.pinned) return true;
  return false;
}

export const isPeerEdge = (e: TreeEdge | undefined): e is TreeEdge => e?.type === 'peer' || e?.type === 'peerOptional';

export function buildEdges(deps: readonly Dependency[]): Map<string, TreeEdge> {
  const edges = new Map<string, TreeEdge>();
  const add = (d: Dependency, type: EdgeType) => {
    const name = d.attrs.knownas ?? d.name;
    edges.set(name, { name, pkg: d.name, spec: d.requirement, type, dep: d });
  };
  const regular = (d: Dependency) => !has(d.attrs, 'dev') && d.attrs.scope !== 'peer' && d.attrs.scope !== 'bundle';
  for (const d of deps) if (d.attrs.scope === 'peer') add(d, has(d.attrs, 'opt') ? 'peerOptional' : 'peer');
  const declared = new Set(deps.filter(regular).map((d) => d.attrs.knownas ?? d.name));
  for (const d of deps) if (d.attrs.scope === 'bundle' && !declared.has(d.attrs.knownas ?? d.name)) add(d, 'prod');
  for (const d of deps) if (regular(d) && !has(d.attrs, 'opt')) add(d, 'prod');
  for (const d of deps) if (regular(d) && has(d.attrs, 'opt')) add(d, 'optional');
  return edges;
}

type Decision = 'KEEP' | 'REPLACE' | 'OK' | 'CONFLICT';

export class TreeBuilder {
  readonly client: Client;
  readonly env: NpmEnv;
  readonly root: TreeNode;
  private readonly manifests = new Map<string, Promise<readonly VersionInfo[]>>();
  private readonly depsCache = new Map<string, Promise<readonly Dependency[] | null>>();

  constructor(client: Client, env: NpmEnv, root: TreeNode) {
    this.client = client;
    this.env = env;
    this.root = root;
  }

  versions(pkg: string): Promise<readonly VersionInfo[]> {
    const cached = this.manifests.get(pkg);
    if (cached) return cached;
    const p = this.client.versions(pkg);
    this.manifests.set(pkg, p);
    return p;
  }

  /**
   * A fresh copy of `info` (a registry version, or a mangled bundled one: then `name` is its
   * folder), with its bundle content as children, recursively.
   */
  async makeNode(name: string, info: VersionInfo, within: ReadonlySet<string> = new Set()): Promise<TreeNode> {
    const k = `${info.name}\u0000${info.version}`;
    const p = this.depsCache.get(k) ?? this.client.requirements(info.name, info.version);
    this.depsCache.set(k, p);
    const deps = (await p) ?? [];
    const bundle = isMangled(info.name) && info.attrs.derivedfrom !== undefined ? info.name : null;
    const content: { dep: Dependency; info: VersionInfo }[] = [];
    for (const d of deps) {
      if (!isMangled(d.name)) continue;
      const bv = bundledVersionOf(d, await this.versions(d.name));
      if (bv && !within.has(bv.name)) content.push({ dep: d, info: bv });
    }
    const regular = content.length === 0 ? deps : deps.filter((d) => !content.some((c) => c.dep === d));
    const node: TreeNode = {
      name,
      pkg: bundle ? info.attrs.derivedfrom! : info.name,
      version: info.version,
      info,
      parent: null,
      children: new Map(),
      edges: buildEdges(regular),
      bundle,
      errors: [],
    };
    for (const c of content) {
      const child = await this.makeNode(bundleFolder(c.info.name), c.info, new Set([...within, c.info.name]));
      child.parent = node;
      node.children.set(child.name, child);
    }
    return node;
  }

  problemEdges(n: TreeNode): TreeEdge[] {
    const out: TreeEdge[] = [];
    for (const e of n.edges.values()) {
      if (e.conflicted) continue;
      const to = resolveName(n, e.name);
      if (!to) {
        if (e.type !== 'peerOptional') out.push(e);
      } else if (!satisfiesEdge(to, e)) out.push(e);
    }
    return out.sort((a, b) => localeCompare(a.name, b.name));
  }

  /** Nodes whose edge `name` resolves to `node`. */
  dependents(node: TreeNode): { from: TreeNode; edge: TreeEdge }[] {
    const out: { from: TreeNode; edge: TreeEdge }[] = [];
    const dir = node.parent ?? node;
    const visit = (x: TreeNode) => {
      if (x !== dir && x !== node && x.children.has(node.name) && !x.children.get(node.name)!.removed) return;
      const e = x.edges.get(node.name);
      if (e) out.push({ from: x, edge: e });
      for (const c of x.children.values()) if (!c.removed && c !== node) visit(c);
    };
    visit(dir);
    if (dir === node) return out; // the root: its folder's lookups were all visited
    for (const c of node.children.values()) if (!c.removed) visit(c);
    const own = node.edges.get(node.name);
    if (own && !node.children.has(node.name)) out.push({ from: node, edge: own });
    return out;
  }

  /**
   * Node.canReplaceWith: `dep` can take `current`'s place when it satisfies every edge into `current`,
   * except the edges from what only `current` brings in (its own dependency set, which goes with it:
   * a peer of `current` that depends back on it does not hold it in place) and, for a peer-set
   * replacement, the peer edges of the set members beside it (`ignorePeers`, by name).
   */
  canReplace(current: TreeNode, dep: TreeNode, ignorePeers: ReadonlySet<string> = new Set()): boolean {
    if (current.pkg !== dep.pkg) return false;
    const held = this.dependents(current).filter(
      (d) =>
        !(current.parent && d.from.parent === current.parent && isPeerEdge(d.edge) && ignorePeers.has(d.from.name)) &&
        !satisfiesEdge(dep, d.edge),
    );
    if (held.length === 0) return true;
    const own = this.depSet([current], (_f, e, t) => t !== current && satisfiesEdge(t, e));
    return held.every((d) => own.has(d.from));
  }

  isDescendantOf(n: TreeNode, anc: TreeNode): boolean {
    for (let p: TreeNode | null = n; p; p = p.parent) if (p === anc) return true;
    return false;
  }

  /** What only `set` needs in the tree, through edges `follow` accepts (npm-dep-set.ts). */
  depSet(set: Iterable<TreeNode>, follow: (from: TreeNode, e: TreeEdge, to: TreeNode) => boolean): Set<TreeNode> {
    const model = {
      resolve: (n: TreeNode, e: TreeEdge) => resolveName(n, e.name),
      into: (n: TreeNode) => this.dependents(n),
    };
    return gatherDepSet(set, model, (f, e, t) => f !== null && follow(f, e, t));
  }

  /**
   * CanPlaceDep for `dep` (with its peer set `peers`) at `target`: `all` is the answer for the whole
   * set, `self` the one for `dep` alone (what the last peer check was asked for, as canPlaceSelf),
   * used when the set fits nowhere.
   */
  canPlace(
    dep: TreeNode,
    edge: TreeEdge,
    from: TreeNode,
    target: TreeNode,
    start: TreeNode,
    peers: TreeNode[],
  ): { all: Decision; self: Decision } {
    let self: Decision | null = null;
    const set = [dep, ...peers];
    const withPeers = (state: Decision): Decision => {
      self = state;
      return this.peersFit(dep, target, start, set, []) ? state : 'CONFLICT';
    };
    const all = this.check(dep, edge, from, target, start, peers, withPeers);
    return { all, self: self ?? all };
  }

  /**
   * The peers of `dep` in its set fit at `target` (or above it, past dependents peering on them),
   * each checked for every peer edge on it and then its own peers (CanPlaceDep.canPlacePeers).
   */
  peersFit(dep: TreeNode, target: TreeNode, start: TreeNode, set: TreeNode[], path: TreeNode[]): boolean {
    for (const e of dep.edges.values()) {
      if (!isPeerEdge(e)) continue;
      const p = set.find((m) => m.name === e.name);
      if (!p || p === dep || path.includes(p)) continue;
      const t = deepestNestingTarget(target, p.name);
      const deepest = deepestNestingTarget(start, p.name);
      const r = this.check(p, e, dep, t, deepest, set, (s) =>
        this.peersFit(p, t, deepest, set, [...path, dep]) ? s : 'CONFLICT',
      );
      if (r === 'CONFLICT') return false;
    }
    return true;
  }

  private check(
    dep: TreeNode,
    edge: TreeEdge,
    from: TreeNode,
    target: TreeNode,
    start: TreeNode,
    peers: TreeNode[],
    withPeers: (state: Decision) => Decision,
  ): Decision {
    const targetEdge = target.edges.get(dep.name);
    const found = target.children.get(dep.name);
    const current = found && !found.removed ? found : undefined;
    // the root's own folder at the top (resolveName): it stays whatever is placed
    if (!current && target.top && target.name === dep.name) return satisfiesEdge(target, edge) ? 'KEEP' : 'CONFLICT';
    // CanPlaceDep.checkCanPlace: the target's own edge only conflicts when nothing is there yet
    // (an existing copy may still be kept for this edge)
    if (!current && targetEdge && targetEdge !== edge && !satisfiesEdge(dep, targetEdge)) return 'CONFLICT';
    if (current) {
      if (current.bundle !== null) return satisfiesEdge(current, edge) ? 'KEEP' : 'CONFLICT';
      // the same version is kept whether or not it meets the edge: a set member that does not meet
      // it was already overridden while the set was loaded (CanPlaceDep's edgeOverride)
      if (current.pkg === dep.pkg && current.version === dep.version) return 'KEEP';
      const tryReplace = current.pkg === dep.pkg && cmpVersion(dep.version, current.version) >= 0;
      const canReplace = () => this.canReplace(current, dep);
      if (tryReplace && canReplace()) {
        const r = withPeers('REPLACE');
        if (r !== 'CONFLICT') return r;
      }
      if (satisfiesEdge(current, edge)) return 'KEEP';
      // a peer is placed preferring deduplication (CanPlaceDep's preferDedupe): an older version
      // replaces a newer copy that does not satisfy the peer edge when everything the copy serves
      // accepts the older one
      if (isPeerEdge(edge) && !tryReplace && canReplace()) {
        const r = withPeers('REPLACE');
        if (r !== 'CONFLICT') return r;
      }
      if (target !== start) return 'CONFLICT';
      if (!isPeerEdge(edge) && target === from) return withPeers('REPLACE');
      // a peer at the deepest place it can go replaces the copy there when every peer set that copy
      // belongs to can be replaced by this set or nested deeper
      return this.peerSetsYield(current, dep, edge, target, peers) ? withPeers('REPLACE') : 'CONFLICT';
    }
    if (target !== from && target.parent) {
      const cur = resolveName(target.parent, dep.name);
      if (cur) {
        for (const d of this.dependents(cur)) {
          if (this.isDescendantOf(d.from, target) && satisfiesEdge(cur, d.edge) && !satisfiesEdge(dep, d.edge))
            return 'CONFLICT';
        }
      }
    }
    return withPeers('OK');
  }

  /** CanPlaceDep's check of the peer sets `current` is part of, for a peer set replacing it at its deepest place. */
  private peerSetsYield(
    current: TreeNode,
    dep: TreeNode,
    edge: TreeEdge,
    target: TreeNode,
    peers: TreeNode[],
  ): boolean {
    const members = new Map<string, TreeNode>([...peers.map((p) => [p.name, p] as const), [dep.name, dep]]);
    for (const [entry, currentPeers] of this.peerEntrySets(current)) {
      if (entry.edge === edge) continue;
      const entryNode = entry.to;
      const rep = members.get(entryNode.name);
      if (rep) {
        // the set's own copy can take the entry node's place (peers within the set aside)
        if (this.canReplace(entryNode, rep, new Set(members.keys()))) continue;
      } else {
        let clobber = true;
        const walk = new Set([entryNode]);
        for (const n of walk) {
          for (const e of n.edges.values()) {
            const to = resolveName(n, e.name);
            if (!isPeerEdge(e) || !to || !satisfiesEdge(to, e)) continue;
            const r = members.get(e.name);
            if (!r) walk.add(to);
            else if (!satisfiesEdge(r, e)) {
              clobber = false;
              break;
            }
          }
          if (!clobber) break;
        }
        if (clobber) continue;
      }
      for (const cp of currentPeers) {
        const deepest = deepestNestingTarget(entry.from, cp.name);
        if (deepest === target || this.isDescendantOf(target, deepest)) return false;
      }
    }
    return true;
  }

  /**
   * The peer sets `node` belongs to, by the edge entering each (a regular edge, or one from the
   * root) with the members that edge brings in (arborist's peer-entry-sets).
   */
  peerEntrySets(node: TreeNode): Map<{ from: TreeNode; edge: TreeEdge; to: TreeNode }, Set<TreeNode>> {
    const valid = (n: TreeNode) => this.dependents(n).filter((d) => satisfiesEdge(n, d.edge));
    const peerOut = (n: TreeNode) =>
      [...n.edges.values()].flatMap((e) => {
        const to = isPeerEdge(e) ? resolveName(n, e.name) : null;
        return to && satisfiesEdge(to, e) ? [to] : [];
      });
    const union = new Set([node]);
    for (const n of union) {
      for (const to of peerOut(n)) union.add(to);
      for (const d of valid(n)) if (isPeerEdge(d.edge)) union.add(d.from);
    }
    const out = new Map<{ from: TreeNode; edge: TreeEdge; to: TreeNode }, Set<TreeNode>>();
    for (const p of union) {
      for (const d of valid(p)) {
        if (isPeerEdge(d.edge) && d.from.parent) continue;
        const sub = new Set([p]);
        for (const n of sub) for (const to of peerOut(n)) sub.add(to);
        if (sub.has(node)) out.set({ from: d.from, edge: d.edge, to: p }, sub);
      }
    }
    return out;
  }
}

/** Where a dependency of `start` named `name` can go deepest: above the dependents that peer on it. */
export function deepestNestingTarget(start: TreeNode, name: string): TreeNode {
  let t = start;
  while (t.parent && isPeerEdge(t.edges.get(name))) t = t.parent;
  return t;
}

import { compare } from '../versions/index.ts';
export const cmpVersion = (a: string, b: string) => compare('NPM', a, b);
