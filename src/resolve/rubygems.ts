/**
 * RubyGems resolver: the root gem as a Gemfile dependency (`gem "root", "= version"`) locked by Bundler
 * 2.3 (Molinillo) on Ruby for x86_64-linux, the lockfile's only platform; runtime dependencies only.
 *
 * Candidates (Bundler::Index#search_by_dependency and Resolver#search_for): versions of the gem whose
 * spelling meets the requirement, releases highest first and then prereleases highest first
 * (GemVersionPromoter#sort_dep_specs with nothing locked: a prerelease is chosen only when no release
 * fits; Bundler 2.4+ drops prereleases the requirement does not name); a version is usable when it has a `ruby` or an `x86_64-linux` gem (other platforms
 * are ignored); the `x86_64-linux` gem (select_best_platform_match: its own dependencies) is tried before
 * the `ruby` gem of the same version, which is the next possibility (Bundler 2.3's ruby spec group); versions whose required Ruby excludes the target Ruby are
 * skipped (Bundler resolves the `Ruby\0` metadata dependency against the running Ruby). Highest first.
 *
 * Order (Molinillo + Bundler#sort_dependencies): the open requirements are re-sorted whenever an
 * activation adds requirements, by (gem already activated first, root gem first, amount constrained
 * (memoised per gem on first use: candidates minus all specs, or all - 1e6 when the gem has at most one
 * spec; prereleases not counted), candidate count), and the first one is taken. Candidates are tried in
 * possibility sets (Molinillo's group_possibilities: consecutive candidates with equal dependencies); the
 * activated set is the versions of the gem still possible, a later requirement narrows it (an edge) or,
 * when none is left, is a conflict; the graph shows the most preferred version left. Conflicts backtrack chronologically to the latest decision with candidates
 * left (Molinillo unwinds to the decision that caused the conflict, which finds the same first solution
 * on the universes tested; docs/resolve.md). A requirement no version meets is a conflict like any
 * other; when no solution exists the resolution is redone with such requirements as node errors
 * (deps.dev's convention), and if that fails too the graph has a graph error.
 *
 * Client vocabulary: version attrs `spelling` (the version as published: the resolver compares it, the
 * stored form may be canonical), `platforms` (comma list of the gem's platforms for that version, default
 * `ruby`), `requiredruby` (required_ruby_version), `blocked` (yanked), `linuxdependencies` (JSON
 * `[{name, requirement}]`: the runtime dependencies of the `x86_64-linux` gem when it has one; `requirements`
 * answers the `ruby` gem's, or the only gem's); dependencies with `scope: dev` are skipped.
 */
import {
  compareGem,
  gemConstraintMatches,
  parseGemRequirement,
  parseGemVersion,
  type GemConstraint,
  type GemVersion,
} from '../versions/rubygems.ts';
import { addEdge, addError, addNode, newGraph } from './graph.ts';
import type { Client, Dependency, Graph } from './types.ts';
import { has } from './types.ts';

export const RUBY_PLATFORM = 'x86_64-linux';
export const DEFAULT_RUBY_VERSION = '3.1.2';

export interface RubygemsOptions {
  /** The Ruby the lock is made on (required_ruby_version); default Debian bookworm's 3.1.2. */
  rubyVersion?: string;
  maxSteps?: number;
}

interface Cand {
  name: string;
  version: string; // as the client knows it
  v: GemVersion;
  platform: string; // chosen gem: 'x86_64-linux' or 'ruby'
  groups: number; // Bundler spec groups for this version (ruby group + platform group)
  linuxDeps: Dependency[] | null;
  requiredRuby: string;
}

interface Req {
  parent: string;
  name: string;
  requirement: string;
  cons: GemConstraint[] | null;
}

interface State {
  acts: Map<string, Cand[]>; // the activated possibility set (candidates with equal dependencies), most preferred first
  open: Req[];
  edges: { parent: string; req: Req }[];
  missing: { parent: string; req: Req; message: string }[];
}

class Fail extends Error {}

/** Bundler's spec groups of these candidates (two per version with a ruby gem: the ruby group and the platform group). */
function groupCount(cands: readonly Cand[]): number {
  const seen = new Map<string, number>();
  for (const c of cands) seen.set(c.version, c.groups);
  return [...seen.values()].reduce((a, b) => a + b, 0);
}

function linuxDeps(json: string): Dependency[] {
  try {
    const list = JSON.parse(json);
    return Array.isArray(list)
      ? list.map((x) => ({ name: String(x?.name ?? ''), requirement: String(x?.requirement ?? ''), attrs: {} }))
      : [];
  } catch {
    return [];
  }
}

const meets = (cons: readonly GemConstraint[], v: GemVersion) => cons.every((c) => gemConstraintMatches(c, v));

export async function resolveRubygems(
  client: Client,
  rootName: string,
  rootVersion: string,
  opts: RubygemsOptions = {},
): Promise<Graph> {
  const ruby = parseGemVersion(opts.rubyVersion ?? DEFAULT_RUBY_VERSION)!;
  const maxSteps = opts.maxSteps ?? 20_000;
  const all = new Map<string, Promise<{ cands: Cand[]; specs: number }>>();
  const versionsOf = (name: string) => {
    let p = all.get(name);
    if (!p) {
      p = client.versions(name).then((vs) => {
        const cands: Cand[] = [];
        let specs = 0;
        for (const x of vs) {
          if (has(x.attrs, 'blocked') || has(x.attrs, 'deleted')) continue;
          const v = parseGemVersion(x.attrs.spelling || x.version);
          if (!v) continue;
          const platforms = (x.attrs.platforms || 'ruby').split(',');
          specs += platforms.length;
          const linux = platforms.includes(RUBY_PLATFORM);
          if (!linux && !platforms.includes('ruby')) continue;
          if (x.attrs.requiredruby) {
            const rr = parseGemRequirement(x.attrs.requiredruby);
            if (typeof rr !== 'string' && !meets(rr, ruby)) continue;
          }
          const groups = platforms.includes('ruby') ? 2 : 1;
          // the x86_64-linux gem first; the ruby gem of the same version is the next possibility (its own spec group)
          if (linux)
            cands.push({
              name,
              version: x.version,
              v,
              platform: RUBY_PLATFORM,
              groups,
              linuxDeps: x.attrs.linuxdependencies ? linuxDeps(x.attrs.linuxdependencies) : null,
              requiredRuby: x.attrs.requiredruby ?? '',
            });
          if (platforms.includes('ruby'))
            cands.push({
              name,
              version: x.version,
              v,
              platform: 'ruby',
              groups,
              linuxDeps: null,
              requiredRuby: x.attrs.requiredruby ?? '',
            });
        }
        cands.sort((a, b) => compareGem(b.v, a.v)); // stable: linux before ruby within a version
        return { cands, specs };
      });
      all.set(name, p);
    }
    return p;
  };
  const depsCache = new Map<string, Promise<Dependency[]>>();
  const depsOf = (c: Cand): Promise<Dependency[]> => {
    const k = `${c.name}\u0000${c.version}\u0000${c.platform}`;
    let p = depsCache.get(k);
    if (!p) {
      p = c.linuxDeps
        ? Promise.resolve(c.linuxDeps)
        : client
            .requirements(c.name, c.version)
            .then((ds) => (ds ?? []).filter((d) => d.attrs.scope !== 'dev' && !has(d.attrs, 'dev')));
      depsCache.set(k, p);
    }
    return p;
  };
  const candidatesFor = async (r: Req): Promise<Cand[]> => {
    if (!r.cons) return [];
    const { cands } = await versionsOf(r.name);
    const hits = cands.filter((c) => meets(r.cons!, c.v));
    // GemVersionPromoter#sort_dep_specs (nothing locked): every prerelease is less preferred than any release
    return [...hits.filter((c) => !c.v.prerelease), ...hits.filter((c) => c.v.prerelease)];
  };
  /**
   * Molinillo's group_possibilities: consecutive candidates whose dependencies (and required Ruby) are equal
   * form one possibility set; a later requirement narrows an activated set instead of conflicting.
   */
  const possibilitySets = async (cands: Cand[]): Promise<Cand[][]> => {
    const out: { key: string; set: Cand[] }[] = [];
    for (const c of cands) {
      const key = `${(await depsOf(c))
        .map((d) => `${d.name} ${d.requirement}`)
        .sort()
        .join('\n')}\n${c.requiredRuby}`;
      const last = out[out.length - 1];
      if (last && last.key === key) last.set.push(c);
      else out.push({ key, set: [c] });
    }
    return out.map((x) => x.set);
  };
  const rootPre = parseGemVersion(rootVersion)?.prerelease ?? false;
  const constrained = new Map<string, number>();
  const amountConstrained = async (r: Req): Promise<number> => {
    let n = constrained.get(r.name);
    if (n === undefined) {
      const { specs } = await versionsOf(r.name);
      const preSpecified = r.name === rootName && rootPre;
      n =
        specs <= 1
          ? specs - 1_000_000
          : groupCount((await candidatesFor(r)).filter((c) => preSpecified || !c.v.prerelease)) - specs;
      constrained.set(r.name, n);
    }
    return n;
  };
  const sortOpen = async (s: State, open: Req[]): Promise<Req[]> => {
    const keyed = await Promise.all(
      open.map(async (r, i) => {
        const act = s.acts.has(r.name);
        const count = act ? 0 : groupCount(await candidatesFor(r));
        return { r, i, k: [act ? 0 : 1, r.name === rootName ? 0 : 1, await amountConstrained(r), count] };
      }),
    );
    keyed.sort((a, b) => {
      for (let j = 0; j < a.k.length; j++) if (a.k[j] !== b.k[j]) return a.k[j]! - b.k[j]!;
      return a.i - b.i;
    });
    return keyed.map((x) => x.r);
  };
  const toReq = (parent: string, d: Dependency): Req => {
    const cons = parseGemRequirement(d.requirement);
    return { parent, name: d.name, requirement: d.requirement, cons: typeof cons === 'string' ? null : cons };
  };

  const rootReq = toReq('', { name: rootName, requirement: `= ${rootVersion}`, attrs: {} });
  const rootKnown = (await client.versions(rootName)).some((x) => x.version === rootVersion);
  if (!rootKnown) {
    const g = newGraph(rootName, rootVersion);
    g.error = `${rootName}@${rootVersion} not found`;
    return g;
  }
  // the root is asked for by the version the client knows (its spelling may differ)
  const rootCands = (await versionsOf(rootName)).cands.filter((c) => c.version === rootVersion);

  const solve = async (lenient: boolean): Promise<State> => {
    const choices: { s: State; req: Req; cands: Cand[][]; i: number }[] = [];
    let s: State | null = { acts: new Map(), open: [rootReq], edges: [], missing: [] };
    let steps = 0;
    let lastFailure = '';
    for (;;) {
      if (s) {
        const cur: State = s;
        const req: Req | undefined = cur.open[0];
        if (!req) return cur;
        const rest = cur.open.slice(1);
        const act = cur.acts.get(req.name);
        if (act) {
          const narrowed = req.cons ? act.filter((x) => meets(req.cons!, x.v)) : [];
          if (narrowed.length) {
            s = {
              ...cur,
              acts: new Map(cur.acts).set(req.name, narrowed),
              open: rest,
              edges: [...cur.edges, { parent: req.parent, req }],
            };
            continue;
          }
          lastFailure ||= `could not find compatible versions for gem "${req.name}": ${req.parent || 'Gemfile'} requires ${req.requirement}`;
          s = null;
        } else {
          const cands = req === rootReq ? rootCands : await candidatesFor(req);
          if (cands.length === 0 && !lenient) {
            lastFailure ||= `could not find gem '${req.name} (${req.requirement})', which is required by ${req.parent.replace('\u0000', ' ') || 'the Gemfile'}`;
            s = null;
          } else if (cands.length === 0) {
            const message: string = req.cons
              ? `no version of ${req.name} matches ${JSON.stringify(req.requirement)}`
              : `invalid requirement ${JSON.stringify(req.requirement)}`;
            s = { ...cur, open: rest, missing: [...cur.missing, { parent: req.parent, req, message }] };
            continue;
          }
          choices.push({ s: { ...cur, open: rest }, req, cands: await possibilitySets(cands), i: 0 });
          s = null;
        }
      }
      const c = choices[choices.length - 1];
      if (!c) throw new Fail(lastFailure || 'no solution');
      if (c.i >= c.cands.length) {
        choices.pop();
        continue;
      }
      if (++steps > maxSteps) throw new Fail(`resolution did not finish within ${maxSteps} steps`);
      const set = c.cands[c.i++]!;
      const cand = set[0]!;
      const acts = new Map(c.s.acts).set(cand.name, set);
      const id = `${cand.name}\u0000${cand.version}`;
      const deps = (await depsOf(cand)).map((d) => toReq(id, d));
      await client.prefetch?.(deps.map((d) => d.name));
      const next: State = { ...c.s, acts, edges: [...c.s.edges, { parent: c.req.parent, req: c.req }] };
      next.open = deps.length ? await sortOpen(next, [...c.s.open, ...deps]) : c.s.open;
      s = next;
    }
  };

  let state: State;
  try {
    state = await solve(false);
  } catch (e) {
    if (!(e instanceof Fail)) throw e;
    try {
      state = await solve(true); // Bundler fails; deps.dev's convention: a requirement nothing meets is a node error
    } catch (e2) {
      if (!(e2 instanceof Fail)) throw e2;
      const g = newGraph(rootName, rootVersion);
      g.error = e.message;
      return g;
    }
  }
  const g = newGraph(rootName, rootVersion);
  const index = new Map<string, number>();
  for (const [name, [c]] of state.acts as Map<string, [Cand]>)
    index.set(
      `${name}\u0000${c.version}`,
      name === rootName && c.version === rootVersion ? 0 : addNode(g, name, c.version),
    );
  for (const e of state.edges) {
    if (!e.parent) continue;
    const to = state.acts.get(e.req.name)![0]!;
    addEdge(g, index.get(e.parent)!, index.get(`${to.name}\u0000${to.version}`)!, e.req.requirement);
  }
  for (const m of state.missing) addError(g, index.get(m.parent) ?? 0, m.req.name, m.req.requirement, m.message);
  return g;
}
