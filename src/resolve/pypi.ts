/**
 * PyPI resolver: pip's resolver (resolvelib 0.7 as vendored by pip 21.1.3, the version deps.dev's
 * util/resolve/pypi ports). Backtracking over "criteria" (requirements per project + candidates):
 *  - each round picks the unsatisfied criterion with the smallest preference key
 *    (setuptools last, then `==` < other specifiers < bare, then direct-dependency order, then name),
 *    tries its candidates from the highest version down and pins the first whose dependencies merge
 *    without conflict; when none does, it backtracks (pops pins, marks them incompatible);
 *  - candidates: versions meeting every requirement; prereleases only when a requirement names one
 *    (then, with several requirements, all match prereleases) or, for a single requirement, when no
 *    final release meets it (PEP 440); yanked (`blocked`) versions only for `==` pins;
 *  - dependencies are filtered by PEP 508 markers (pypi-markers.ts) with the union of extras asked of
 *    the project; the root's dependency order is pip's "user requested" order;
 *  - the graph keeps pinned versions with a route to the root (pip's _build_result), edges from the
 *    criteria's (requirement, parent) pairs; failures give a graph-level error.
 */
import { compare, parseRequirement } from '../versions/index.ts';
import { parseSpecifierSet } from '../versions/pypi.ts';
import { evaluateMarker } from './pypi-markers.ts';
import { addEdge, addNode, newGraph } from './graph.ts';
import type { Client, Dependency, Graph } from './types.ts';
import { has } from './types.ts';

interface Criterion {
  reqs: Dependency[];
  parents: string[]; // "name\0version" of the parent pin
  extras: Set<string>;
  incompat: Set<string>;
  candidates: string[]; // ascending
}

interface State { mapping: Map<string, string>; criteria: Map<string, Criterion> }

class Conflict extends Error {
  constructor(name: string, reqs: Dependency[], none: boolean) {
    const list = reqs.map((r) => r.requirement).join(',');
    super(none ? `no candidates at all for: ${name} ${JSON.stringify(list)}` : `requirements conflict: ${name}: ${JSON.stringify(list)}`);
  }
}

export interface PypiOptions { maxRounds?: number }

const key = (n: string, v: string) => `${n}\u0000${v}`;

export async function resolvePypi(client: Client, rootName: string, rootVersion: string, opts: PypiOptions = {}): Promise<Graph> {
  const maxRounds = opts.maxRounds ?? 200_000;
  const sorted = new Map<string, string[]>();
  const blocked = new Map<string, Set<string>>();
  const versionsOf = async (name: string) => {
    let s = sorted.get(name);
    if (!s) {
      const vs = await client.versions(name);
      blocked.set(name, new Set(vs.filter((v) => has(v.attrs, 'blocked') || has(v.attrs, 'deleted')).map((v) => v.version)));
      s = vs.map((v) => v.version).sort((a, b) => compare('PYPI', a, b));
      sorted.set(name, s);
    }
    return s;
  };
  const requiresPre = (req: string) => {
    const set = parseSpecifierSet(req);
    return typeof set !== 'string' && set.prereleases;
  };
  const matchCache = new Map<string, string[]>();
  const matching = async (d: Dependency, withPre: boolean): Promise<string[]> => {
    const ck = `${d.name}\u0000${d.requirement}\u0000${withPre}`;
    const hit = matchCache.get(ck);
    if (hit) return hit;
    const all = await versionsOf(d.name);
    const bad = blocked.get(d.name)!;
    const exactPin = /^\s*===?/.test(d.requirement) && !d.requirement.includes(',');
    const filter = (inc: boolean) => {
      const p = parseRequirement('PYPI', d.requirement, { includePrerelease: inc });
      if (!p.ok) return [];
      return all.filter((v) => p.requirement.matches(v) && (!bad.has(v) || exactPin));
    };
    let out = filter(withPre);
    if (!withPre && out.length === 0) out = filter(true);
    if (d.name === rootName) out = out.includes(rootVersion) ? [rootVersion] : [];
    matchCache.set(ck, out);
    return out;
  };
  const findMatches = async (name: string, reqs: Dependency[], incompat: Set<string>): Promise<string[]> => {
    const anyPre = reqs.length > 1 && reqs.some((r) => requiresPre(r.requirement));
    let matches = (await matching(reqs[0]!, anyPre)).filter((v) => !incompat.has(v));
    if (matches.length === 0) throw new Conflict(name, [reqs[0]!], true);
    for (const r of reqs.slice(1)) {
      const other = new Set(await matching(r, anyPre));
      matches = matches.filter((v) => other.has(v));
    }
    return matches;
  };
  const getDependencies = async (name: string, version: string, extras: Set<string>): Promise<Dependency[]> => {
    const deps = (await client.requirements(name, version)) ?? [];
    return deps.filter((d) => d.attrs.environment === undefined || evaluateMarker(d.attrs.environment, extras));
  };

  const rootKey = key(rootName, rootVersion);
  const rootDeps = await getDependencies(rootName, rootVersion, new Set());
  const userRequested = new Map<string, number>();
  rootDeps.forEach((d, i) => userRequested.set(d.name, i));

  const states: State[] = [{ mapping: new Map(), criteria: new Map() }];
  const state = () => states[states.length - 1]!;
  const pushNewState = () => {
    const s = state();
    states.push({ mapping: new Map(s.mapping), criteria: new Map(s.criteria) });
  };
  const merge = async (d: Dependency, parent: string): Promise<Criterion> => {
    const crit = state().criteria.get(d.name);
    if (crit) {
      for (let i = 0; i < crit.reqs.length; i++) {
        const o = crit.reqs[i]!;
        if (o.requirement === d.requirement && JSON.stringify(o.attrs) === JSON.stringify(d.attrs) && crit.parents[i] === parent) return crit;
      }
    }
    const reqs = [...(crit?.reqs ?? []), d];
    const incompat = crit?.incompat ?? new Set<string>();
    const matches = await findMatches(d.name, reqs, incompat);
    if (matches.length === 0) throw new Conflict(d.name, reqs, false);
    const extras = new Set(crit?.extras ?? []);
    if (d.attrs.enableddependencies !== undefined) for (const e of d.attrs.enableddependencies.split(',')) extras.add(e);
    return { reqs, parents: [...(crit?.parents ?? []), parent], extras, incompat: new Set(incompat), candidates: matches };
  };
  const preference = (name: string): [number, number, number, string] => {
    const crit = state().criteria.get(name)!;
    let rating = 3;
    for (const r of crit.reqs) {
      if (r.requirement.includes('==')) { rating = 1; break; }
      if (r.requirement !== '') { rating = 2; break; }
    }
    return [name.toLowerCase() === 'setuptools' ? 1 : 0, rating, userRequested.get(name) ?? 2 ** 31 - 1, name];
  };
  const less = (a: [number, number, number, string], b: [number, number, number, string]) =>
    a[0] !== b[0] ? a[0] < b[0] : a[1] !== b[1] ? a[1] < b[1] : a[2] !== b[2] ? a[2] < b[2] : a[3] < b[3];

  const failure = (msg: string): Graph => {
    const g = newGraph(rootName, rootVersion);
    g.error = msg;
    return g;
  };

  try {
    for (const d of rootDeps) state().criteria.set(d.name, await merge(d, rootKey));
  } catch (e) {
    if (e instanceof Conflict) return failure(`resolution impossible:\n${e.message}\n`);
    throw e;
  }
  pushNewState();

  const attemptToPin = async (name: string): Promise<Conflict[]> => {
    const crit = state().criteria.get(name)!;
    const causes: Conflict[] = [];
    for (let i = crit.candidates.length - 1; i >= 0; i--) {
      const cand = crit.candidates[i]!;
      const updates = new Map<string, Criterion>();
      try {
        for (const d of await getDependencies(name, cand, crit.extras)) updates.set(d.name, await merge(d, key(name, cand)));
      } catch (e) {
        if (e instanceof Conflict) { causes.push(e); continue; }
        throw e;
      }
      const s = state();
      s.mapping.delete(name);
      s.mapping.set(name, cand);
      for (const [n, c] of updates) s.criteria.set(n, c);
      return [];
    }
    return causes;
  };
  const backtrack = (): boolean => {
    while (states.length >= 3) {
      states.pop();
      const broken = states.pop()!;
      const entries = [...broken.mapping.entries()];
      const [name, cand] = entries[entries.length - 1]!;
      const incs: [string, Set<string>][] = [...broken.criteria.entries()].map(([n, c]) => [n, c.incompat]);
      incs.push([name, new Set([cand])]);
      pushNewState();
      let ok = true;
      for (const [n, inc] of incs) {
        if (inc.size === 0) continue;
        const crit = state().criteria.get(n);
        if (!crit) continue;
        const all = new Set([...inc, ...crit.incompat]);
        const matches = crit.candidates.filter((c) => !all.has(c));
        if (matches.length === 0) { ok = false; break; }
        state().criteria.set(n, { ...crit, incompat: all, candidates: matches });
      }
      if (ok) return true;
    }
    return false;
  };

  let done: State | null = null;
  for (let round = 0; round < maxRounds; round++) {
    const s = state();
    let best: string | null = null;
    let bestKey: [number, number, number, string] | null = null;
    for (const [n, c] of s.criteria) {
      const pin = s.mapping.get(n);
      if (pin !== undefined && c.candidates.includes(pin)) continue;
      const k = preference(n);
      if (!bestKey || less(k, bestKey)) { best = n; bestKey = k; }
    }
    if (best === null) { done = s; break; }
    const causes = await attemptToPin(best);
    if (causes.length > 0) {
      if (!backtrack()) return failure(`resolution impossible:\n${causes.map((c) => c.message + '\n').join('')}`);
    } else pushNewState();
  }
  if (!done) return failure('resolution aborted after too many iterations');
  return buildGraph(rootName, rootVersion, done);
}

function buildGraph(rootName: string, rootVersion: string, s: State): Graph {
  const rootKey = key(rootName, rootVersion);
  const connected = new Map<string, boolean>([[rootKey, true]]);
  const routes = (vk: string): boolean => {
    const c = connected.get(vk);
    if (c !== undefined) return c;
    connected.set(vk, false);
    const crit = s.criteria.get(vk.split('\u0000')[0]!);
    if (!crit) return false;
    for (const parent of crit.parents) {
      if (connected.get(parent)) { connected.set(vk, true); return true; }
      const [pn, pv] = parent.split('\u0000') as [string, string];
      if (s.mapping.get(pn) !== pv) continue;
      if (routes(parent)) { connected.set(vk, true); return true; }
    }
    return false;
  };
  const g = newGraph(rootName, rootVersion);
  const ids = new Map<string, number>([[rootName, 0]]);
  for (const [n, v] of s.mapping) {
    if (!routes(key(n, v))) continue;
    if (!ids.has(n)) ids.set(n, addNode(g, n, v));
  }
  for (const [n, to] of ids) {
    const crit = s.criteria.get(n);
    if (!crit) continue;
    crit.reqs.forEach((r, i) => {
      const from = ids.get(crit.parents[i]!.split('\u0000')[0]!);
      if (from !== undefined) addEdge(g, from, to, r.requirement, { ...r.attrs });
    });
  }
  return g;
}
