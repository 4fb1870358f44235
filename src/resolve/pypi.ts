/**
 * PyPI resolver: pip's resolver (resolvelib as vendored by pip; the round/backtrack structure and
 * preference of pip 21.1.3 / resolvelib 0.7, the version deps.dev's util/resolve/pypi ports, with
 * pip's identifiers and candidate rules as current pips have them, checked against real pip in
 * test/unit/resolve/pip-compare.test.ts). Backtracking over "criteria" (requirements per
 * identifier + candidates):
 *  - identifiers: `name`, and `name[e1,e2]` for a requirement asking extras, pinned on its own; a
 *    pin of `name[e]` at v requires `name` at exactly v ("explicit") and v's dependencies with
 *    those extras;
 *  - each round picks the unsatisfied criterion with the smallest preference key (setuptools last,
 *    then explicit < `==` < other specifiers < bare, then direct-dependency order, then
 *    identifier), tries its candidates from the highest version down and pins the first whose
 *    dependencies merge without conflict; when none does, it backtracks (pops pins, marks them
 *    incompatible); `resolvelib: '1.0'` merges every requirement of a candidate on one identifier,
 *    the default '0.7' keeps the last (see PypiOptions);
 *  - candidates (findMatches): packaging's SpecifierSet.filter over the intersection of the
 *    requirements: prereleases only when a clause names one or all requirements are bare and no
 *    final exists; yanked (`blocked`) versions only when all matches are yanked and a clause pins
 *    (PEP 592); versions whose `requirespython` attr (Requires-Python) excludes the environment's
 *    python_full_version never (pip's finder drops them; a root version so excluded is a graph
 *    error);
 *  - dependencies are filtered by PEP 508 markers (pypi-markers.ts) with the identifier's extras,
 *    in `env` (default PYTHON_ENV); the root's dependency order is pip's "user requested" order;
 *  - the graph keeps pinned projects with a route to the root (pip's _build_result), edges from the
 *    criteria's (requirement, parent) pairs (a `name[e]` parent is the node `name`); failures give a
 *    graph-level error.
 */
import { compare, isPrerelease, parseRequirement } from '../versions/index.ts';
import { parseSpecifierSet } from '../versions/pypi.ts';
import { evaluateMarker, PYTHON_ENV, type PythonEnv } from './pypi-markers.ts';
import { addEdge, addNode, newGraph } from './graph.ts';
import type { Client, Dependency, Graph } from './types.ts';
import { has } from './types.ts';

// Identifiers are pip's: `name` for the project, `name[e1,e2]` (extras sorted) for a requirement
// asking extras, pinned separately; a pin of `name[e]` at v requires the project itself at exactly
// v (an "explicit" requirement, attr EXPLICIT) plus v's dependencies under those extras.
interface Criterion {
  project: string;
  reqs: Dependency[];
  parents: string[]; // "identifier\0version" of the parent pin
  extras: Set<string>;
  incompat: Set<string>;
  candidates: string[]; // ascending
}

interface State { mapping: Map<string, string>; criteria: Map<string, Criterion> }

const EXPLICIT = '\u0000explicit';
const isExplicit = (d: Dependency) => d.attrs[EXPLICIT] !== undefined;
const extrasOf = (d: Dependency) => [...new Set((d.attrs.enableddependencies ?? '').split(',').map((e) => e.trim().toLowerCase()).filter(Boolean))].sort();
const identify = (d: Dependency) => {
  const e = isExplicit(d) ? [] : extrasOf(d);
  return e.length ? `${d.name}[${e.join(',')}]` : d.name;
};
const projectOf = (id: string) => id.replace(/\[.*$/, '');

class Conflict extends Error {
  constructor(name: string, reqs: Dependency[], none: boolean) {
    const list = reqs.map((r) => r.requirement).join(',');
    super(none ? `no candidates at all for: ${name} ${JSON.stringify(list)}` : `requirements conflict: ${name}: ${JSON.stringify(list)}`);
  }
}

export interface PypiOptions {
  maxRounds?: number;
  /** Marker environment; python_full_version also decides `requirespython`. Default PYTHON_ENV. */
  env?: PythonEnv;
  /**
   * How a candidate's requirements on one identifier combine. '0.7' (default; resolvelib 0.7 in
   * pip 21.1.3, which deps.dev's vectors record): each replaces the previous one, the last counts.
   * '1.0' (resolvelib 1.0.1, pip 23.2 and 24.2): all count.
   */
  resolvelib?: '0.7' | '1.0';
}

const key = (n: string, v: string) => `${n}\u0000${v}`;

export async function resolvePypi(client: Client, rootName: string, rootVersion: string, opts: PypiOptions = {}): Promise<Graph> {
  const maxRounds = opts.maxRounds ?? 200_000;
  const env = opts.env ?? PYTHON_ENV;
  const python = env.python_full_version ?? '';
  const pythonFits = (spec: string | undefined) => {
    if (spec === undefined || spec.trim() === '') return true;
    const p = parseRequirement('PYPI', spec, { includePrerelease: true });
    return !p.ok || p.requirement.matches(python); // pip ignores an unreadable Requires-Python
  };
  const sorted = new Map<string, string[]>();
  const blocked = new Map<string, Set<string>>();
  const versionsOf = async (name: string) => {
    let s = sorted.get(name);
    if (!s) {
      const vs = (await client.versions(name)).filter((v) => name === rootName || pythonFits(v.attrs.requirespython));
      blocked.set(name, new Set(vs.filter((v) => has(v.attrs, 'blocked') || has(v.attrs, 'deleted')).map((v) => v.version)));
      s = vs.map((v) => v.version).sort((a, b) => compare('PYPI', a, b));
      sorted.set(name, s);
    }
    return s;
  };
  // packaging's Specifier.prereleases: a clause names a prerelease with ==, >=, <=, ~= or ===
  // (`<`, `>`, `!=` never admit prereleases).
  const namesPre = (req: string) => {
    const set = parseSpecifierSet(req);
    return typeof set !== 'string' && set.specs.some((c) => ['==', '>=', '<=', '~=', '==='].includes(c.op) && isPrerelease('PYPI', c.text.replace(/\.\*$/, '')));
  };
  const isPin = (req: string) => {
    const set = parseSpecifierSet(req);
    return typeof set !== 'string' && set.specs.some((c) => c.op === '===' || (c.op === '==' && !c.wildcard));
  };
  const matchCache = new Map<string, Set<string>>();
  const matchingAny = async (d: Dependency): Promise<Set<string>> => {
    const ck = `${d.name}\u0000${d.requirement}`;
    let hit = matchCache.get(ck);
    if (!hit) {
      const p = parseRequirement('PYPI', d.requirement, { includePrerelease: true });
      hit = new Set(p.ok ? (await versionsOf(d.name)).filter((v) => p.requirement.matches(v)) : []);
      matchCache.set(ck, hit);
    }
    return hit;
  };
  // pip's candidates for an identifier. With explicit requirements (on the project: from pins of
  // its extras identifiers; on `name[e]`: those of the project) only those versions, when every
  // requirement of the identifier contains them (prereleases and yanked allowed). Otherwise the
  // versions pip's finder lists that meet every specifier (for `name[e]` the project's own
  // requirements too, as pip >= 23.3 looks them up): prereleases only when a clause names one, or
  // when the set is empty (all requirements bare) and the project has no final release at all
  // (packaging's SpecifierSet.filter in pip 23.2 and 24.2); yanked ones only when all are yanked and a
  // clause pins (pip's factory, PEP 592); then resolvelib drops the known incompatibilities.
  const findMatches = async (id: string, criteria: Map<string, Criterion>, reqs: Dependency[], incompat: Set<string>): Promise<string[]> => {
    const name = projectOf(id);
    const base = id === name ? undefined : criteria.get(name);
    const explicit = [...reqs, ...(base?.reqs ?? [])].filter(isExplicit).map((r) => r.attrs[EXPLICIT]!);
    if (explicit.length > 0) {
      const out: string[] = [];
      for (const v of new Set(explicit)) {
        if (incompat.has(v)) continue;
        let ok = true;
        for (const r of reqs) ok &&= isExplicit(r) ? r.attrs[EXPLICIT] === v : (await matchingAny(r)).has(v);
        if (ok) out.push(v);
      }
      if (out.length === 0) throw new Conflict(id, reqs, false);
      return out;
    }
    const lookup = [...reqs, ...(base?.reqs ?? [])];
    const all = await versionsOf(name);
    const sets = await Promise.all(lookup.map(matchingAny));
    let matches = all.filter((v) => sets.every((s) => s.has(v)));
    if (!lookup.some((r) => namesPre(r.requirement))) {
      const finals = matches.filter((v) => !isPrerelease('PYPI', v));
      if (finals.length > 0 || !lookup.every((r) => r.requirement.trim() === '')) matches = finals;
    }
    const bad = blocked.get(name)!;
    if (!(matches.every((v) => bad.has(v)) && lookup.some((r) => isPin(r.requirement)))) matches = matches.filter((v) => !bad.has(v));
    if (name === rootName) matches = matches.includes(rootVersion) ? [rootVersion] : [];
    matches = matches.filter((v) => !incompat.has(v));
    if (matches.length === 0) throw new Conflict(id, reqs, reqs.length === 1);
    return matches;
  };
  const getDependencies = async (name: string, version: string, extras: Set<string>): Promise<Dependency[]> => {
    const deps = (await client.requirements(name, version)) ?? [];
    const own = deps.filter((d) => d.attrs.environment === undefined || evaluateMarker(d.attrs.environment, extras, env));
    return extras.size === 0 ? own : [{ name, requirement: `==${version}`, attrs: { [EXPLICIT]: version } }, ...own];
  };

  const rootKey = key(rootName, rootVersion);
  const rootInfo = (await client.versions(rootName)).find((v) => v.version === rootVersion);
  if (rootInfo && !pythonFits(rootInfo.attrs.requirespython)) {
    const g = newGraph(rootName, rootVersion);
    g.error = `${rootName} ${rootVersion} requires Python ${rootInfo.attrs.requirespython}, not ${python}`;
    return g;
  }
  const rootDeps = await getDependencies(rootName, rootVersion, new Set());
  const userRequested = new Map<string, number>();
  rootDeps.forEach((d, i) => { if (!userRequested.has(d.name)) userRequested.set(d.name, i); });

  const states: State[] = [{ mapping: new Map(), criteria: new Map() }];
  const state = () => states[states.length - 1]!;
  const pushNewState = () => {
    const s = state();
    states.push({ mapping: new Map(s.mapping), criteria: new Map(s.criteria) });
  };
  // Adds d to a working copy of the criteria (resolvelib 1.x merges a candidate's dependencies
  // one after another, so two requirements on one identifier from one parent both count).
  const cumulative = opts.resolvelib === '1.0';
  const merge = async (criteria: Map<string, Criterion>, d: Dependency, parent: string): Promise<void> => {
    const id = identify(d);
    const seen = cumulative ? criteria : state().criteria;
    const crit = seen.get(id);
    if (crit) {
      for (let i = 0; i < crit.reqs.length; i++) {
        const o = crit.reqs[i]!;
        if (o.requirement === d.requirement && JSON.stringify(o.attrs) === JSON.stringify(d.attrs) && crit.parents[i] === parent) return;
      }
    }
    const reqs = [...(crit?.reqs ?? []), d];
    const incompat = crit?.incompat ?? new Set<string>();
    const matches = await findMatches(id, seen, reqs, incompat);
    const extras = new Set(isExplicit(d) ? [] : extrasOf(d));
    criteria.set(id, { project: d.name, reqs, parents: [...(crit?.parents ?? []), parent], extras, incompat: new Set(incompat), candidates: matches });
  };
  const preference = (name: string): [number, number, number, string] => {
    const crit = state().criteria.get(name)!;
    let rating = crit.reqs.some(isExplicit) ? 0 : 3;
    if (rating === 3) for (const r of crit.reqs) {
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
    for (const d of rootDeps) await merge(state().criteria, d, rootKey);
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
      const work = new Map(state().criteria);
      try {
        for (const d of await getDependencies(crit.project, cand, crit.extras)) await merge(work, d, key(name, cand));
      } catch (e) {
        if (e instanceof Conflict) { causes.push(e); continue; }
        throw e;
      }
      const s = state();
      s.mapping.delete(name);
      s.mapping.set(name, cand);
      s.criteria = work;
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

  const satisfied = (s: State, n: string) => {
    const pin = s.mapping.get(n);
    return pin !== undefined && s.criteria.get(n)!.candidates.includes(pin);
  };
  let done: State | null = null;
  for (let round = 0; round < maxRounds; round++) {
    const s = state();
    let best: string | null = null;
    let bestKey: [number, number, number, string] | null = null;
    for (const n of s.criteria.keys()) {
      if (satisfied(s, n)) continue;
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
    if (projectOf(n) !== n || !routes(key(n, v))) continue;
    if (!ids.has(n)) ids.set(n, addNode(g, n, v));
  }
  const seen = new Set<string>();
  for (const crit of s.criteria.values()) {
    const to = ids.get(crit.project);
    if (to === undefined) continue;
    crit.reqs.forEach((r, i) => {
      const from = ids.get(projectOf(crit.parents[i]!.split('\u0000')[0]!));
      const k = JSON.stringify([from, to, r.requirement, r.attrs]);
      if (from === undefined || isExplicit(r) || seen.has(k)) return;
      seen.add(k);
      addEdge(g, from, to, r.requirement, { ...r.attrs });
    });
  }
  return g;
}
