/**
 * arborist's buildIdealTree for a fresh install (the rules are in npm-tree.ts's header): a queue of
 * nodes ordered by (depth, path); for each node, one "dep step":
 *  1. fetch: each problem edge, in declared order, gets a dependency with its peer set (loadPeers),
 *     or the copy the node's last peer set already holds when that satisfies the edge (vrDep);
 *     an edge no version satisfies is a node error (optional ones are skipped);
 *  2. place: tasks by name, each through PlaceDep (npm-place.ts) unless the edge is met by now;
 *     after each, dependents a placed copy no longer satisfies are queued again;
 *  3. bundled copies the node now uses join the queue (their own unmet dependencies).
 */
import { pickVersion, specSatisfied, type NpmEnv } from './npm-pick.ts';
import { NpmTreeError, Placer } from './npm-place.ts';
import { peerCanReplace } from './npm-virtual-root.ts';
import {
  deepestNestingTarget,
  depth,
  isPeerEdge,
  localeCompare,
  nodePath,
  resolveName,
  satisfiesEdge,
  TreeBuilder,
  type TreeEdge,
  type TreeNode,
} from './npm-tree.ts';
import type { Client, Dependency, VersionInfo } from './types.ts';

interface Task {
  edge: TreeEdge;
  dep: TreeNode;
  peers: TreeNode[];
}

class IdealTree {
  private readonly b: TreeBuilder;
  private readonly root: TreeNode;
  private readonly env: NpmEnv;
  private readonly queue: TreeNode[];
  private readonly seen = new Set<TreeNode>();
  private readonly placer: Placer;
  /** per dependent, the last dependency fetched for it with its peer set (its virtual root) */
  private readonly lastSet = new Map<TreeNode, TreeNode[]>();
  /** the version the project's one edge installs, when the root is installed as a dependency */
  private readonly installed: VersionInfo | null;

  constructor(b: TreeBuilder, env: NpmEnv, installed: VersionInfo | null = null) {
    this.b = b;
    this.root = b.root;
    this.env = env;
    this.installed = installed;
    this.queue = [b.root];
    this.placer = new Placer(b, b.root, (n) => this.queue.push(n));
  }

  async build(maxNodes: number, label: string): Promise<TreeNode> {
    for (let node = this.next(); node; node = this.next()) {
      if (this.placer.placed > maxNodes) throw new NpmTreeError(`npm tree for ${label} exceeds ${maxNodes} nodes`);
      const tasks = await this.fetchDependencies(node);
      this.placeAll(node, tasks);
      this.queueUsedBundles(node);
    }
    return this.root;
  }

  /** The next node by (depth, path) that is still in the tree and not yet processed. */
  private next(): TreeNode | undefined {
    while (this.queue.length > 0) {
      this.queue.sort((x, y) => depth(x) - depth(y) || localeCompare(nodePath(x), nodePath(y)));
      const node = this.queue.shift()!;
      if (node.removed || this.seen.has(node)) continue;
      this.seen.add(node);
      return node;
    }
    return undefined;
  }

  private pick(e: TreeEdge, spec = e.spec) {
    return this.b.versions(e.pkg).then((vs) => pickVersion(vs, spec, this.env));
  }

  /**
   * Step 1: dependencies are fetched in the order the edges are declared, each with its peer set in
   * a fresh virtual root; a package the last set of this node already holds is taken from it when
   * it satisfies the edge (#buildDepStep's vrDep), so a version a peer range narrowed is reused.
   */
  private async fetchDependencies(node: TreeNode): Promise<Task[]> {
    const tasks: Task[] = [];
    const problems = new Set(this.b.problemEdges(node));
    for (const edge of [...node.edges.values()].filter((e) => problems.has(e))) {
      const vr = this.lastSet.get(node);
      const held = vr?.find((m) => m.name === edge.name && satisfiesEdge(m, edge));
      if (held) {
        tasks.push(await this.fromVirtualRoot(edge, held, vr!));
        continue;
      }
      const info = node === this.root && this.installed ? this.installed : await this.pick(edge);
      if (!info) {
        this.reportUnsatisfiable(node, edge);
        continue;
      }
      const dep = await this.b.makeNode(edge.name, info);
      const peers: TreeNode[] = [];
      await this.loadPeers(dep, node, peers);
      tasks.push({ edge, dep, peers });
      this.lastSet.set(node, [dep, ...peers]);
    }
    return tasks.sort((x, y) => localeCompare(x.edge.name, y.edge.name));
  }

  /** Fresh copies of a held member and the rest of its set. */
  private async fromVirtualRoot(edge: TreeEdge, held: TreeNode, vr: TreeNode[]): Promise<Task> {
    const dep = await this.b.makeNode(held.name, held.info);
    const peers = await Promise.all(vr.filter((m) => m !== held).map((m) => this.b.makeNode(m.name, m.info)));
    return { edge, dep, peers };
  }

  private reportUnsatisfiable(node: TreeNode, edge: TreeEdge): void {
    if (edge.type === 'optional' || edge.type === 'peerOptional') return;
    const message = `could not find a version that satisfies requirement ${edge.spec} for package ${edge.pkg}`;
    node.errors.push({ edge, message });
  }

  /**
   * arborist's #loadPeerSet: every peer of `dep` (by name), recursively. The dependent's own edge on
   * that name picks the version; the peer's range only when the dependent's edge accepts that pick
   * too (#nodeFromEdge with a second edge); else the dependent's pick joins the set as a conflicted
   * member (npm warns "overriding peer dependency"), except for the root's own edges (npm fails
   * there; the peer's pick is taken). A peer edge (optional ones too) that meets a member it is not
   * satisfied by replaces that member with its own pick when the pick can take its place in the set
   * (npm-virtual-root.ts), and the pick's peers are loaded; otherwise the member stays.
   */
  private async loadPeers(dep: TreeNode, from: TreeNode, acc: TreeNode[], top: TreeNode = dep): Promise<void> {
    const peerEdges = [...dep.edges.values()].filter(isPeerEdge).sort((x, y) => localeCompare(x.name, y.name));
    for (const pe of peerEdges) {
      const present = acc.find((p) => p.name === pe.name);
      if (present) {
        if (!satisfiesEdge(present, pe)) await this.replacePeer(present, pe, from, acc, top);
        continue;
      }
      const info = await this.pickPeer(pe, from);
      if (!info) continue;
      const p = await this.b.makeNode(pe.name, info);
      acc.push(p);
      await this.loadPeers(p, from, acc, top);
    }
  }

  /** #loadPeerSet's "something present already, and we're not happy about it" (seeds 70200, 70446). */
  private async replacePeer(present: TreeNode, pe: TreeEdge, from: TreeNode, acc: TreeNode[], top: TreeNode) {
    const info = await this.pick(pe);
    if (!info || !peerCanReplace(present, info.version, from, [top, ...acc])) return;
    const p = await this.b.makeNode(pe.name, info);
    acc[acc.indexOf(present)] = p;
    await this.loadPeers(p, from, acc, top);
  }

  private async pickPeer(pe: TreeEdge, from: TreeNode) {
    const parentEdge = from.edges.get(pe.name);
    let info = parentEdge && parentEdge.pkg === pe.pkg ? await this.pick(parentEdge) : null;
    if (parentEdge && info && !specSatisfied(pe.spec, info.version)) {
      const second = await this.pick(pe);
      if (second && (specSatisfied(parentEdge.spec, second.version) || from === this.root)) info = second;
    }
    return info ?? (await this.pick(pe));
  }

  /** Step 2: each task placed unless its edge is met by now, then what the placement broke is re-queued. */
  private placeAll(node: TreeNode, tasks: Task[]): void {
    for (const t of tasks) {
      if (node.removed) break;
      const cur = resolveName(node, t.edge.name);
      if (cur && satisfiesEdge(cur, t.edge)) continue;
      this.placer.place(t.dep, t.edge, node, deepestNestingTarget(node, t.edge.name), t.peers);
      this.requeueInvalidated();
    }
  }

  /**
   * Once the dependency and its peers are in, whatever now resolves to a placed copy that does not
   * satisfy it is evaluated (again) (buildIdealTree re-queues those dependents, seen or not, as
   * `npm install` saves; an optional peer met by a copy it does not accept included).
   */
  private requeueInvalidated(): void {
    for (const n of this.placer.needEvaluation.splice(0)) {
      if (n.removed) continue;
      this.seen.delete(n);
      this.queue.push(n);
    }
    for (const { dep, edge } of this.placer.placedNow.splice(0)) {
      if (dep.removed) continue;
      for (const d of this.b.dependents(dep)) {
        if (d.edge === edge || d.edge.conflicted || satisfiesEdge(dep, d.edge)) continue;
        this.seen.delete(d.from);
        this.queue.push(d.from);
      }
    }
  }

  /** Step 3: bundled copies this node uses are processed from now on (their own unmet dependencies). */
  private queueUsedBundles(node: TreeNode): void {
    if (node.removed) return;
    for (const e of node.edges.values()) {
      const t = resolveName(node, e.name);
      if (t && t.bundle !== null && !this.seen.has(t)) this.queue.push(t);
    }
  }
}

/**
 * The node_modules tree npm would install for `name@version`, or null when there is no such version.
 * By default the root is the project (its manifest is the project's package.json, as the corpus
 * lockfiles were made). `installed`: the root installed as `npm install name@version` installs it
 * in an empty project: the returned node is that project, with one edge on the root, whose folder
 * is `node_modules/<name>`; the root's own dependencies can then be nested in its folder when
 * another version holds the top (arborist places them like any dependency's, and the root's
 * conflicts are not the project's: npm overrides them instead of failing).
 */
export async function buildNpmTree(
  client: Client,
  name: string,
  version: string,
  env: NpmEnv,
  maxNodes = 20_000,
  installed = false,
): Promise<TreeNode | null> {
  const info = (await client.versions(name)).find((v) => v.version === version);
  if (!info) return null;
  if (installed) {
    const project = installingProject(name, version);
    return new IdealTree(new TreeBuilder(client, env, project), env, info).build(maxNodes, `${name}@${version}`);
  }
  // the root's own tarball brings its bundle too (deps.dev's derivedFromBasicAtRoot)
  const root = await new TreeBuilder(client, env, null as unknown as TreeNode).makeNode(name, info);
  root.top = true;
  return new IdealTree(new TreeBuilder(client, env, root), env).build(maxNodes, `${name}@${version}`);
}

/** An empty project whose package.json depends on `name` at exactly `version`. */
function installingProject(name: string, version: string): TreeNode {
  const dep: Dependency = { name, requirement: version, attrs: {} };
  return {
    name: '',
    pkg: '',
    version: '',
    info: { name: '', version: '', attrs: {} },
    parent: null,
    children: new Map(),
    edges: new Map([[name, { name, pkg: name, spec: version, type: 'prod', dep }]]),
    bundle: null,
    errors: [],
  };
}
