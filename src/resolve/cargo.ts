/**
 * Cargo resolver: the root crate resolved as a dependency (`root = "=version"`, default features),
 * following cargo's core/resolver (activate_deps_loop) and then the graph cargo builds for
 * x86_64-unknown-linux-gnu.
 *
 * Resolution (what Cargo.lock records; all targets, as the lockfile is platform independent):
 *  - an activation is a (crate, version) with the union of features requested of it; at most one
 *    version per crate and semver-compatibility slot (`1.x.y`, `0.3.y`, `0.0.3`), so several majors
 *    coexist; at most one package per `links` value;
 *  - work is a set of frames (an activation's dependencies, sorted by candidate count); the next
 *    dependency is the first one of the frame whose first dependency has the fewest candidates,
 *    oldest frame on ties (cargo's RemainingDeps::pop_most_constrained);
 *  - candidates: versions matching the requirement (matchesCargo: prereleases only when a
 *    comparator names one), yanked (`blocked`) and `deleted` versions skipped, highest first; a
 *    candidate is skipped when its slot holds another version, its `links` is taken, or it lacks a
 *    requested feature; the first that fits is activated (re-activating an activated version only
 *    adds features, and if they grow its dependencies are queued again); `dep?/feat` enables `dep`
 *    here, as in cargo's dependency resolver (Cargo.lock lists such dependencies);
 *  - a dependency without a usable candidate backtracks chronologically to the latest decision with
 *    candidates left (cargo backjumps over decisions that cannot matter, which finds the same first
 *    solution). If no assignment exists the resolution is redone treating requirements that match
 *    no version at all as node errors (deps.dev's convention); if that still fails, the graph has
 *    a graph-level error.
 * Graph: from the root with default features, only declarations whose target filter matches the
 * platform (cargo-cfg.ts) and whose optional dependency is enabled by the features that reach the
 * package through such declarations (resolver 2: features of other platforms do not unify, and
 * `dep?/feat` does not enable `dep`); each
 * edge goes to the version the resolution chose for that declaration. `platform: null` keeps every
 * target: the graph then equals Cargo.lock. A cycle of normal/build edges is the graph error Cargo's
 * check_cycles reports (the graph is kept).
 *
 * Client vocabulary: version attrs `blocked` (yanked), `deleted`, `features` (JSON
 * `{"feat": ["value", ...]}`, the index's features+features2), `links`; dependency attrs `scope`
 * (`build` | `dev`; `dev` flag also accepted), `opt`, `knownas` (the local name when `package =`
 * renames; the dependency name is the real crate), `features` (comma list), `nodefault`
 * (default-features = false), `environment` (target filter, e.g. `cfg(unix)`).
 */
import { compareCargo, matchesCargo, parseCargoReq, parseCargoVersion, type CargoVersion } from '../versions/cargo.ts';
import { LINUX_X86_64, targetMatches, type CargoPlatform } from './cargo-cfg.ts';
import { activeDecls, featureClosure, type CargoDecl } from './cargo-features.ts';
import { addEdge, addError, addNode, newGraph } from './graph.ts';
import type { Attrs, Client, Dependency, Graph } from './types.ts';
import { has } from './types.ts';

export interface CargoOptions {
  /** Platform whose target-specific dependencies apply; null keeps all targets (Cargo.lock view). */
  platform?: CargoPlatform | null;
  /** Activation budget before the resolution is abandoned with a graph error. */
  maxSteps?: number;
}

interface Pkg {
  name: string;
  version: string;
  v: CargoVersion;
  links: string;
  features: Record<string, string[]>;
  decls: CargoDecl[] | null; // loaded lazily
}

interface Pending { parent: string; decl: CargoDecl; features: string[]; cands: Pkg[] }
interface Frame { readonly deps: readonly Pending[]; readonly pos: number; readonly time: number }
interface Act { readonly pkg: Pkg; readonly requested: ReadonlySet<string> }

interface State {
  acts: Map<string, Act>; // slot -> activation
  links: Map<string, string>; // links value -> package id
  frames: Frame[];
  time: number;
  decisions: Map<string, string>; // parentSlot \0 decl index -> child slot
  missing: Map<string, string>; // parentSlot \0 decl index -> message (lenient mode)
}

const pkgId = (p: Pkg) => `${p.name}\u0000${p.version}`;

function slotOf(p: Pkg): string {
  const v = p.v;
  const compat = v.major !== 0 ? `${v.major}` : v.minor !== 0 ? `0.${v.minor}` : `0.0.${v.patch}`;
  return `${p.name}\u0000${compat}`;
}

export function cargoDecl(d: Dependency, index: number): CargoDecl {
  const a = d.attrs;
  const kind = a.scope === 'build' ? 'build' : a.scope === 'dev' || has(a, 'dev') ? 'dev' : 'normal';
  return {
    index,
    name: d.name,
    local: a.knownas || d.name,
    requirement: d.requirement,
    kind,
    optional: has(a, 'opt'),
    features: a.features ? a.features.split(',').map((x) => x.trim()).filter(Boolean) : [],
    defaultFeatures: !has(a, 'nodefault'),
    target: a.environment ?? '',
  };
}

function parseFeatures(json: string | undefined): Record<string, string[]> {
  if (!json) return {};
  try {
    const o = JSON.parse(json);
    return o && typeof o === 'object' && !Array.isArray(o) ? o : {};
  } catch {
    return {};
  }
}

class Fail extends Error {}

export async function resolveCargo(client: Client, rootName: string, rootVersion: string, opts: CargoOptions = {}): Promise<Graph> {
  const platform = opts.platform === undefined ? LINUX_X86_64 : opts.platform;
  const maxSteps = opts.maxSteps ?? 50_000;
  const pkgs = new Map<string, Promise<Pkg[]>>(); // all usable versions, highest first
  const rootVersions = await client.versions(rootName);
  const rootInfo = rootVersions.find((x) => x.version === rootVersion);
  const rootV = parseCargoVersion(rootVersion);
  if (!rootInfo || !rootV) {
    const g = newGraph(rootName, rootVersion);
    g.error = `${rootName}@${rootVersion} not found`;
    return g;
  }
  const toPkg = (name: string, version: string, v: CargoVersion, attrs: Attrs): Pkg =>
    ({ name, version, v, links: attrs.links ?? '', features: parseFeatures(attrs.features), decls: null });
  const root = toPkg(rootName, rootVersion, rootV, rootInfo.attrs);
  const versionsOf = (name: string): Promise<Pkg[]> => {
    let p = pkgs.get(name);
    if (!p) {
      p = client.versions(name).then((vs) => {
        const out: Pkg[] = [];
        for (const x of vs) {
          const v = parseCargoVersion(x.version);
          if (v && !has(x.attrs, 'blocked') && !has(x.attrs, 'deleted')) out.push(x.name === rootName && x.version === rootVersion ? root : toPkg(name, x.version, v, x.attrs));
        }
        return out.sort((a, b) => compareCargo(b.v, a.v));
      });
      pkgs.set(name, p);
    }
    return p;
  };
  pkgs.set(rootName, versionsOf(rootName));
  const declsOf = async (p: Pkg): Promise<CargoDecl[]> => {
    if (!p.decls) p.decls = ((await client.requirements(p.name, p.version)) ?? []).map(cargoDecl);
    return p.decls;
  };
  const candidatesOf = async (d: CargoDecl): Promise<Pkg[]> => {
    const req = parseCargoReq(d.requirement);
    if (typeof req === 'string') return [];
    return (await versionsOf(d.name)).filter((p) => matchesCargo(req, p.v));
  };

  /** Activates pkg in a copy of s (or returns null on conflict); queues its dependencies when features grew. */
  const activate = async (s: State, pkg: Pkg, requested: readonly string[], parentKey: string | null): Promise<State | null> => {
    const slot = slotOf(pkg);
    const prev = s.acts.get(slot);
    if (prev && prev.pkg !== pkg) return null;
    if (pkg.links && (s.links.get(pkg.links) ?? pkgId(pkg)) !== pkgId(pkg)) return null;
    const req = new Set(prev?.requested ?? []);
    for (const f of requested) req.add(f);
    const n: State = { ...s, decisions: new Map(s.decisions) };
    if (parentKey) n.decisions.set(parentKey, slot);
    if (prev && req.size === prev.requested.size) return n;
    const decls = await declsOf(pkg);
    const fc = featureClosure(pkg.features, decls, req, true);
    if (fc.missing.length) return null;
    n.acts = new Map(s.acts).set(slot, { pkg, requested: req });
    if (pkg.links) n.links = new Map(s.links).set(pkg.links, pkgId(pkg));
    const deps: Pending[] = [];
    const active = activeDecls(decls, fc, () => true);
    await client.prefetch?.(active.map((a) => a.decl.name));
    for (const a of active) deps.push({ parent: slot, decl: a.decl, features: a.features, cands: await candidatesOf(a.decl) });
    deps.sort((x, y) => x.cands.length - y.cands.length);
    if (deps.length) {
      n.frames = [...s.frames, { deps, pos: 0, time: s.time }];
      n.time = s.time + 1;
    }
    return n;
  };

  const popMostConstrained = (s: State): [State, Pending] | null => {
    let best = -1;
    for (let i = 0; i < s.frames.length; i++) {
      const f = s.frames[i]!;
      const b = s.frames[best];
      if (!b || f.deps[f.pos]!.cands.length < b.deps[b.pos]!.cands.length ||
        (f.deps[f.pos]!.cands.length === b.deps[b.pos]!.cands.length && f.time < b.time)) best = i;
    }
    if (best < 0) return null;
    const f = s.frames[best]!;
    const frames = [...s.frames];
    if (f.pos + 1 < f.deps.length) frames[best] = { ...f, pos: f.pos + 1 };
    else frames.splice(best, 1);
    return [{ ...s, frames }, f.deps[f.pos]!];
  };

  const solve = async (lenient: boolean): Promise<State> => {
    const start = await activate({ acts: new Map(), links: new Map(), frames: [], time: 0, decisions: new Map(), missing: new Map() }, root, ['default'], null);
    if (!start) throw new Fail(`${rootName}@${rootVersion} cannot be activated (a requested feature is missing)`);
    const choices: { s: State; dep: Pending; i: number }[] = [];
    let s: State | null = start;
    let steps = 0;
    let lastFailure = '';
    for (;;) {
      if (s) {
        const next = popMostConstrained(s);
        if (!next) return s;
        const [rest, dep] = next;
        if (dep.cands.length === 0 && lenient) {
          const missing = new Map(rest.missing).set(`${dep.parent}\u0000${dep.decl.index}`, `no version of ${dep.decl.name} matches ${JSON.stringify(dep.decl.requirement)}`);
          s = { ...rest, missing };
          continue;
        }
        choices.push({ s: rest, dep, i: 0 });
        s = null;
      }
      const c = choices[choices.length - 1];
      if (!c) throw new Fail(lastFailure);
      if (c.i >= c.dep.cands.length) {
        choices.pop();
        lastFailure ||= `failed to select a version for the requirement \`${c.dep.decl.name} = "${c.dep.decl.requirement}"\``;
        continue;
      }
      if (++steps > maxSteps) throw new Fail(`resolution did not finish within ${maxSteps} steps`);
      const cand = c.dep.cands[c.i++]!;
      s = await activate(c.s, cand, c.dep.features, `${c.dep.parent}\u0000${c.dep.decl.index}`);
    }
  };

  let state: State;
  try {
    state = await solve(false);
  } catch (e) {
    if (!(e instanceof Fail)) throw e;
    try {
      state = await solve(true);
    } catch (e2) {
      if (!(e2 instanceof Fail)) throw e2;
      const g = newGraph(rootName, rootVersion);
      g.error = e2.message || e.message;
      return g;
    }
  }
  return buildGraph(state, root, platform, declsOf);
}

async function buildGraph(s: State, root: Pkg, platform: CargoPlatform | null, declsOf: (p: Pkg) => Promise<CargoDecl[]>): Promise<Graph> {
  const g = newGraph(root.name, root.version);
  const ok = (t: string) => platform === null || targetMatches(t, platform);
  const rootSlot = slotOf(root);
  const index = new Map<string, number>([[rootSlot, 0]]);
  const requested = new Map<string, Set<string>>([[rootSlot, new Set(['default'])]]);
  const edges = new Map<string, { from: number; to: number; requirement: string; attrs: Attrs }>();
  const errors = new Set<string>();
  const work = [rootSlot];
  while (work.length) {
    const slot = work.shift()!;
    const pkg = s.acts.get(slot)!.pkg;
    const decls = await declsOf(pkg);
    for (const { decl, features } of activeDecls(decls, featureClosure(pkg.features, decls, requested.get(slot)!, platform === null), ok)) {
      const key = `${slot}\u0000${decl.index}`;
      const miss = s.missing.get(key);
      if (miss !== undefined) {
        if (!errors.has(key)) addError(g, index.get(slot)!, decl.name, decl.requirement, miss);
        errors.add(key);
        continue;
      }
      const child = s.decisions.get(key);
      if (child === undefined) continue; // not reachable: every active declaration was decided
      let to = index.get(child);
      const fresh = to === undefined;
      if (to === undefined) {
        const c = s.acts.get(child)!.pkg;
        index.set(child, (to = addNode(g, c.name, c.version)));
        requested.set(child, new Set());
      }
      const attrs: Attrs = {};
      if (decl.kind === 'build') attrs.scope = 'build';
      if (decl.optional) attrs.opt = '';
      if (decl.local !== decl.name) attrs.knownas = decl.local;
      const ek = `${index.get(slot)} ${to} ${decl.requirement} ${JSON.stringify(attrs)}`;
      if (!edges.has(ek)) edges.set(ek, { from: index.get(slot)!, to, requirement: decl.requirement, attrs });
      const r = requested.get(child)!;
      const before = r.size;
      for (const f of features) r.add(f);
      if ((fresh || r.size !== before) && !work.includes(child)) work.push(child);
    }
  }
  for (const e of edges.values()) addEdge(g, e.from, e.to, e.requirement, e.attrs);
  const cyclic = firstOnCycle(g);
  if (cyclic !== null) g.error = `cyclic package dependency: package \`${g.nodes[cyclic]!.name} v${g.nodes[cyclic]!.version}\` depends on itself`;
  return g;
}

/** Cargo's check_cycles: normal and build edges may not form a cycle; the least (name, version) node on one, or null. */
function firstOnCycle(g: Graph): number | null {
  const out = g.nodes.map(() => [] as number[]);
  for (const e of g.edges) out[e.from]!.push(e.to);
  const order = g.nodes.map((_, i) => i).sort((a, b) => {
    const x = g.nodes[a]!, y = g.nodes[b]!;
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
