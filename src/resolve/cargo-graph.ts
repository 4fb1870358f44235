/**
 * The graph cargo builds from a resolution for one platform (resolver 2): from the root with
 * default features, only declarations whose target filter matches the platform (cargo-cfg.ts) and
 * whose optional dependency the features reaching the package through such declarations enable
 * (features of other platforms do not unify; `dep?/feat` does not enable `dep`); each edge goes to
 * the version the resolution chose for that declaration, and a package is walked again when the
 * features requested of it grow. `platform: null` keeps every target (the graph then equals
 * Cargo.lock). A cycle of normal/build edges is the error cargo's check_cycles reports.
 */
import type { CargoPlatform } from './cargo-cfg.ts';
import { targetMatches } from './cargo-cfg.ts';
import { declKey, type State } from './cargo-activate.ts';
import { activeDecls, featureClosure, type CargoDecl } from './cargo-features.ts';
import { slotOf, type CargoRegistry, type Pkg } from './cargo-registry.ts';
import { addEdge, addError, addNode, newGraph } from './graph.ts';
import type { Attrs, Graph } from './types.ts';

function edgeAttrs(decl: CargoDecl): Attrs {
  const attrs: Attrs = {};
  if (decl.kind === 'build') attrs.scope = 'build';
  if (decl.optional) attrs.opt = '';
  if (decl.local !== decl.name) attrs.knownas = decl.local;
  return attrs;
}

export async function buildCargoGraph(
  s: State,
  root: Pkg,
  platform: CargoPlatform | null,
  registry: CargoRegistry,
): Promise<Graph> {
  const g = newGraph(root.name, root.version);
  const ok = (t: string) => platform === null || targetMatches(t, platform);
  const rootSlot = slotOf(root);
  const index = new Map<string, number>([[rootSlot, 0]]);
  const requested = new Map<string, Set<string>>([[rootSlot, new Set(['default'])]]);
  const edges = new Map<string, { from: number; to: number; requirement: string; attrs: Attrs }>();
  const errors = new Set<string>();
  const work = [rootSlot];
  /** The node of a chosen slot, added on first sight (fresh = true). */
  const nodeOf = (child: string): [number, boolean] => {
    const known = index.get(child);
    if (known !== undefined) return [known, false];
    const c = s.acts.get(child)!.pkg;
    const id = addNode(g, c.name, c.version);
    index.set(child, id);
    requested.set(child, new Set());
    return [id, true];
  };
  while (work.length) {
    const slot = work.shift()!;
    const pkg = s.acts.get(slot)!.pkg;
    const from = index.get(slot)!;
    const decls = await registry.declsOf(pkg);
    const fc = featureClosure(pkg.features, decls, requested.get(slot)!, platform === null);
    for (const { decl, features } of activeDecls(decls, fc, ok)) {
      const key = declKey(slot, decl);
      const miss = s.missing.get(key);
      if (miss !== undefined) {
        if (!errors.has(key)) addError(g, from, decl.name, decl.requirement, miss);
        errors.add(key);
        continue;
      }
      const child = s.decisions.get(key);
      if (child === undefined) continue; // not reachable: every active declaration was decided
      const [to, fresh] = nodeOf(child);
      const attrs = edgeAttrs(decl);
      const ek = `${from} ${to} ${decl.requirement} ${JSON.stringify(attrs)}`;
      if (!edges.has(ek)) edges.set(ek, { from, to, requirement: decl.requirement, attrs });
      const r = requested.get(child)!;
      const before = r.size;
      for (const f of features) r.add(f);
      if ((fresh || r.size !== before) && !work.includes(child)) work.push(child);
    }
  }
  for (const e of edges.values()) addEdge(g, e.from, e.to, e.requirement, e.attrs);
  await reportUnbuilt(g, s, index, errors, registry);
  const cyclic = firstOnCycle(g);
  if (cyclic !== null) {
    const n = g.nodes[cyclic]!;
    g.error = `cyclic package dependency: package \`${n.name} v${n.version}\` depends on itself`;
  }
  return g;
}

/**
 * A requirement no version matches fails cargo's resolution (and Cargo.lock) even where the platform
 * graph does not build it (another target's dependency, or an optional one named only weakly,
 * `dep?/feat`, which the dependency resolver still resolves): it stays a node error of its dependent,
 * or the graph's error when the dependent is not in this graph.
 */
async function reportUnbuilt(
  g: Graph,
  s: State,
  index: ReadonlyMap<string, number>,
  reported: ReadonlySet<string>,
  registry: CargoRegistry,
): Promise<void> {
  const unplaced: string[] = [];
  for (const [slot, act] of s.acts) {
    for (const decl of await registry.declsOf(act.pkg)) {
      const key = declKey(slot, decl);
      const miss = s.missing.get(key);
      if (miss === undefined || reported.has(key)) continue;
      const from = index.get(slot);
      if (from !== undefined) addError(g, from, decl.name, decl.requirement, miss);
      else unplaced.push(`${act.pkg.name} ${act.pkg.version}: ${miss}`);
    }
  }
  if (unplaced.length) g.error = unplaced.sort().join(',');
}

/** Cargo's check_cycles: normal and build edges may not form a cycle; the least (name, version) node on one. */
function firstOnCycle(g: Graph): number | null {
  const out = g.nodes.map(() => [] as number[]);
  for (const e of g.edges) out[e.from]!.push(e.to);
  const order = g.nodes
    .map((_, i) => i)
    .sort((a, b) => {
      const x = g.nodes[a]!,
        y = g.nodes[b]!;
      return x.name < y.name ? -1 : x.name > y.name ? 1 : x.version < y.version ? -1 : x.version > y.version ? 1 : 0;
    });
  for (const start of order) {
    const seen = new Set<number>();
    const stack = [...out[start]!];
    while (stack.length) {
      const n = stack.pop()!;
      if (n === start) return start;
      if (seen.has(n)) continue;
      seen.add(n);
      stack.push(...out[n]!);
    }
  }
  return null;
}
