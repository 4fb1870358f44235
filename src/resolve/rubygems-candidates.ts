/**
 * What Bundler 2.3 asks of the gem index (Bundler::Index#search_by_dependency, Resolver#search_for),
 * over a Client, for Ruby on x86_64-linux:
 *  - the usable specs of a gem: yanked (`blocked`) and `deleted` versions skipped; a version counts
 *    when it has a `ruby` or an `x86_64-linux` gem (other platforms are ignored) and its required
 *    Ruby admits the target Ruby; the `x86_64-linux` gem (select_best_platform_match: its own
 *    dependencies) comes before the `ruby` gem of the same version (Bundler 2.3's ruby spec group);
 *    highest version first;
 *  - candidatesFor: the specs whose spelling meets a requirement, releases before prereleases
 *    (GemVersionPromoter#sort_dep_specs with nothing locked);
 *  - possibilitySets: Molinillo's group_possibilities, consecutive candidates with equal
 *    dependencies (and required Ruby) as one set;
 *  - depsOf: a spec's runtime dependencies, loaded once per (gem, version, platform).
 */
import {
  compareGem,
  gemConstraintMatches,
  parseGemRequirement,
  parseGemVersion,
  type GemConstraint,
  type GemVersion,
} from '../versions/rubygems.ts';
import type { Client, Dependency, VersionInfo } from './types.ts';
import { has } from './types.ts';

export const RUBY_PLATFORM = 'x86_64-linux';

export interface Candidate {
  name: string;
  version: string; // as the client knows it
  v: GemVersion;
  platform: string; // chosen gem: 'x86_64-linux' or 'ruby'
  linuxDeps: Dependency[] | null;
  requiredRuby: string;
}

/** A gem requirement as it was written (`cons` null when it does not parse). */
export interface Req {
  parent: string; // the requiring spec's id, '' for the Gemfile
  name: string;
  requirement: string;
  cons: GemConstraint[] | null;
}

export const meets = (cons: readonly GemConstraint[], v: GemVersion) => cons.every((c) => gemConstraintMatches(c, v));

export const gemId = (c: Candidate): string => `${c.name}\u0000${c.version}`;

/**
 * Bundler's spec groups of these candidates: two per usable version (Bundler 2.3's search_for), the ruby
 * group and the platform group; an x86_64-linux gem alone makes both, as it matches `ruby` too
 * (MatchPlatform: GemHelpers.generic maps linux platforms to ruby).
 */
export function groupCount(cands: readonly Candidate[]): number {
  return 2 * new Set(cands.map((c) => c.version)).size;
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

/**
 * One version of gem `name`: null when it is not listed (yanked, deleted, unparseable spelling);
 * else its spec count on every platform and its usable candidates: none when it has neither a
 * `ruby` nor an `x86_64-linux` gem or its required Ruby excludes the target `ruby`; else the
 * `x86_64-linux` gem first, then the `ruby` gem of the same version (its own spec group).
 */
function versionSpecs(name: string, x: VersionInfo, ruby: GemVersion): { specs: number; cands: Candidate[] } | null {
  if (has(x.attrs, 'blocked') || has(x.attrs, 'deleted')) return null;
  const v = parseGemVersion(x.attrs.spelling || x.version);
  if (!v) return null;
  const platforms = (x.attrs.platforms || 'ruby').split(',');
  const specs = platforms.length;
  const linux = platforms.includes(RUBY_PLATFORM);
  const rubyGem = platforms.includes('ruby');
  if (!linux && !rubyGem) return { specs, cands: [] };
  if (x.attrs.requiredruby) {
    const rr = parseGemRequirement(x.attrs.requiredruby);
    if (typeof rr !== 'string' && !meets(rr, ruby)) return { specs, cands: [] };
  }
  const base = { name, version: x.version, v, requiredRuby: x.attrs.requiredruby ?? '' };
  const cands: Candidate[] = [];
  if (linux) {
    const own = x.attrs.linuxdependencies ? linuxDeps(x.attrs.linuxdependencies) : null;
    cands.push({ ...base, platform: RUBY_PLATFORM, linuxDeps: own });
  }
  if (rubyGem) cands.push({ ...base, platform: 'ruby', linuxDeps: null });
  return { specs, cands };
}

export class GemIndex {
  readonly client: Client;
  private readonly ruby: GemVersion;
  private readonly gems = new Map<string, Promise<{ cands: Candidate[]; specs: number }>>();
  private readonly deps = new Map<string, Promise<Dependency[]>>();

  constructor(client: Client, ruby: GemVersion) {
    this.client = client;
    this.ruby = ruby;
  }

  /** The usable candidates of a gem, highest first, and its spec count on every platform. */
  versionsOf(name: string): Promise<{ cands: Candidate[]; specs: number }> {
    let p = this.gems.get(name);
    if (!p) {
      p = this.client.versions(name).then((vs) => {
        const cands: Candidate[] = [];
        let specs = 0;
        for (const x of vs) {
          const version = versionSpecs(name, x, this.ruby);
          if (!version) continue;
          specs += version.specs;
          cands.push(...version.cands);
        }
        cands.sort((a, b) => compareGem(b.v, a.v)); // stable: linux before ruby within a version
        return { cands, specs };
      });
      this.gems.set(name, p);
    }
    return p;
  }

  /**
   * The root's candidates: asked for by the version the client knows (its spelling may differ);
   * null when the client has no such version at all.
   */
  async rootCandidates(name: string, version: string): Promise<Candidate[] | null> {
    const known = (await this.client.versions(name)).some((x) => x.version === version);
    if (!known) return null;
    return (await this.versionsOf(name)).cands.filter((c) => c.version === version);
  }

  /** GemVersionPromoter#sort_dep_specs (nothing locked): every prerelease is less preferred than any release. */
  async candidatesFor(r: Req): Promise<Candidate[]> {
    if (!r.cons) return [];
    const { cands } = await this.versionsOf(r.name);
    const hits = cands.filter((c) => meets(r.cons!, c.v));
    return [...hits.filter((c) => !c.v.prerelease), ...hits.filter((c) => c.v.prerelease)];
  }

  /** Runtime dependencies: the linux gem's own list, else the client's requirements without `dev` ones. */
  depsOf(c: Candidate): Promise<Dependency[]> {
    const k = `${c.name}\u0000${c.version}\u0000${c.platform}`;
    let p = this.deps.get(k);
    if (!p) {
      p = c.linuxDeps
        ? Promise.resolve(c.linuxDeps)
        : this.client
            .requirements(c.name, c.version)
            .then((ds) => (ds ?? []).filter((d) => d.attrs.scope !== 'dev' && !has(d.attrs, 'dev')));
      this.deps.set(k, p);
    }
    return p;
  }

  /**
   * Molinillo's group_possibilities: consecutive candidates whose dependencies (and required Ruby) are equal
   * form one possibility set; a later requirement narrows an activated set instead of conflicting.
   */
  async possibilitySets(cands: Candidate[]): Promise<Candidate[][]> {
    const out: { key: string; set: Candidate[] }[] = [];
    for (const c of cands) {
      const key = `${(await this.depsOf(c))
        .map((d) => `${d.name} ${d.requirement}`)
        .sort()
        .join('\n')}\n${c.requiredRuby}`;
      const last = out[out.length - 1];
      if (last && last.key === key) last.set.push(c);
      else out.push({ key, set: [c] });
    }
    return out.map((x) => x.set);
  }
}

/** A dependency of spec `parent` (or of the Gemfile, '') as a requirement. */
export function toReq(parent: string, d: Dependency): Req {
  const cons = parseGemRequirement(d.requirement);
  return { parent, name: d.name, requirement: d.requirement, cons: typeof cons === 'string' ? null : cons };
}
