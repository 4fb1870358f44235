/**
 * npm resolver: builds the node_modules tree npm 7+ would install (npm-tree.ts, arborist's
 * placement), then turns it into a deps.dev graph: one node per installed copy (nested duplicates
 * stay distinct, as in deps.dev's npm graphs), edges from each copy along its dependencies to the
 * copy node's module resolution reaches, requirement = the declared range. Optional dependencies
 * whose os/cpu/engines do not fit the emulated platform (linux, x64, node `nodeVersion`) are pruned
 * afterwards together with whatever only they needed, as `npm install` does after building the
 * ideal tree (the lockfile keeps them; the installed tree does not).
 *
 * Parts: npm-ideal-tree.ts (buildIdealTree's queue and dep steps), npm-place.ts (PlaceDep),
 * npm-tree.ts (tree model and CanPlaceDep), npm-pick.ts (npm-pick-manifest), npm-bundle.ts.
 */
import { addEdge, addError, addNode, newGraph } from './graph.ts';
import { buildNpmTree } from './npm-ideal-tree.ts';
import { DEFAULT_NPM_ENV, engineOk, platformOk, type NpmEnv } from './npm-pick.ts';
import { NpmTreeError } from './npm-place.ts';
import { localeCompare, resolveName, type TreeNode } from './npm-tree.ts';
import type { Client, Graph } from './types.ts';

export { buildNpmTree } from './npm-ideal-tree.ts';
export { NpmTreeError } from './npm-place.ts';

export interface NpmOptions extends Partial<NpmEnv> {
  maxNodes?: number;
}

/** Every installed copy, by lockfile path (`node_modules/a/node_modules/b`); links are not copies. */
export function treeInventory(root: TreeNode): TreeNode[] {
  const out: TreeNode[] = [];
  const walk = (n: TreeNode) => {
    for (const c of [...n.children.values()].sort((a, b) => localeCompare(a.name, b.name))) {
      if (c.removed || c.link) continue;
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
        if (t && !seen.has(t) && !skip.has(t)) {
          seen.add(t);
          q.push(t);
        }
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
  let project: TreeNode | null;
  try {
    project = await buildNpmTree(client, name, version, env, opts.maxNodes, true);
  } catch (e) {
    if (!(e instanceof NpmTreeError)) throw e;
    g.error = e.message;
    return g;
  }
  const root = project?.children.get(name);
  if (!project || !root) {
    g.error = `version ${version} of ${name} not found`;
    return g;
  }
  const dropped = optionalFailures(project, env);
  // bundled copies no edge reaches (extraneous folders of a tarball) are left out of the graph and
  // reported as its error, as deps.dev does ("unused bundled version <name> <version>")
  const reached = new Set<TreeNode>([root]);
  for (const q = [root]; q.length > 0; ) {
    const n = q.shift()!;
    for (const e of n.edges.values()) {
      const t = resolveName(n, e.name);
      if (t && !dropped.has(t) && !reached.has(t)) {
        reached.add(t);
        q.push(t);
      }
    }
  }
  const unused: string[] = [];
  const ids = new Map<TreeNode, number>([[root, 0]]);
  const add = (n: TreeNode) => {
    for (const c of [...n.children.values()].sort((x, y) => localeCompare(x.name, y.name))) {
      if (c.removed || c.link || dropped.has(c)) continue;
      if (c.bundle !== null && !reached.has(c)) {
        unused.push(`unused bundled version ${c.pkg} ${c.version}`);
        continue;
      }
      if (c !== root) ids.set(c, addNode(g, c.bundle ?? c.pkg, c.version, c.bundle !== null));
      add(c);
    }
  };
  add(project);
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
