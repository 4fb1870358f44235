/**
 * Version semantics for seven package ecosystems behind one interface (pure; runs in Workers).
 *
 * Each system lives in its own module and follows that ecosystem's own tool for validity,
 * ordering and requirement matching; the canonical spelling (`canon`) follows deps.dev, because it
 * is what the API returns in `versionKey.version`:
 *   NPM      node-semver 7 (strict mode)                       npm.ts
 *   CARGO    Rust `semver` crate 1.x (Cargo)                   cargo.ts
 *   MAVEN    maven-artifact 3.8.7 ComparableVersion, VersionRange  maven.ts
 *   PYPI     PEP 440 as implemented by pypa/packaging 26       pypi.ts
 *   NUGET    NuGet.Versioning                                  nuget.ts
 *   RUBYGEMS Gem::Version / Gem::Requirement                   rubygems.ts
 *   GO       golang.org/x/mod/semver + go.mod semantics        go.ts
 *
 * Validity of versions and of requirements, ordering and matching are the native tool's, measured
 * by `npm run conformance:native` (tools/conformance-native.ts: node-semver, packaging,
 * maven-artifact, the semver crate and RubyGems asked about generated cases) and pinned by
 * test/unit/versions/native-vectors.test.ts. Where the public conformance vectors
 * (../shared/conformance/, deps.dev's) want another answer, the tool wins: the conformance test
 * (test/unit/versions/conformance.test.ts) lists every such vector with its reason; each module's
 * header names what deps.dev does differently and the one difference kept (Cargo build metadata).
 * Numbers are exact at any size a tool allows (bigint past 2^53), never compared as floats.
 *
 * API contract: predicates never throw; invalid versions sort before valid ones (ties among
 * invalid versions are broken by plain string order so `compare` stays a total order); `sort` is
 * ascending and stable; parsed requirements are cached (bounded Map) so repeated `satisfies` calls
 * with the same requirement text do not re-parse.
 */
import type { ParseResult, Requirement, Scheme, System } from './types.ts';
import { sign } from './types.ts';
import { NPM } from './npm.ts';
import { CARGO } from './cargo.ts';
import { MAVEN } from './maven.ts';
import { PYPI } from './pypi.ts';
import { NUGET } from './nuget.ts';
import { RUBYGEMS } from './rubygems.ts';
import { GO } from './go.ts';

export type { ParseResult, Requirement, RequirementOptions, System } from './types.ts';

export const SYSTEMS: readonly System[] = Object.freeze(['GO', 'RUBYGEMS', 'NPM', 'CARGO', 'MAVEN', 'PYPI', 'NUGET']);

const SCHEMES: Record<System, Scheme<unknown>> = {
  NPM: NPM as Scheme<unknown>,
  CARGO: CARGO as Scheme<unknown>,
  MAVEN: MAVEN as Scheme<unknown>,
  PYPI: PYPI as Scheme<unknown>,
  NUGET: NUGET as Scheme<unknown>,
  RUBYGEMS: RUBYGEMS as Scheme<unknown>,
  GO: GO as Scheme<unknown>,
};

function scheme(system: System): Scheme<unknown> | undefined {
  return SCHEMES[system];
}

function safeParse(s: Scheme<unknown>, version: string): unknown {
  if (typeof version !== 'string') return null;
  try {
    return s.parse(version);
  } catch {
    return null;
  }
}

export function isValid(system: System, version: string): boolean {
  const s = scheme(system);
  return s !== undefined && safeParse(s, version) !== null;
}

export function compare(system: System, a: string, b: string): -1 | 0 | 1 {
  const s = scheme(system);
  const pa = s ? safeParse(s, a) : null;
  const pb = s ? safeParse(s, b) : null;
  return compareParsed(s, pa, pb, a, b);
}

function compareParsed(s: Scheme<unknown> | undefined, pa: unknown, pb: unknown, a: string, b: string): -1 | 0 | 1 {
  if (pa === null || pb === null || s === undefined) {
    if (pa !== null && s) return 1;
    if (pb !== null && s) return -1;
    const x = String(a);
    const y = String(b);
    return x === y ? 0 : x < y ? -1 : 1;
  }
  return sign(s.compare(pa, pb));
}

export function canon(system: System, version: string): string | null {
  const s = scheme(system);
  if (!s) return null;
  const v = safeParse(s, version);
  return v === null ? null : s.canon(v);
}

export function isPrerelease(system: System, version: string): boolean {
  const s = scheme(system);
  if (!s) return false;
  const v = safeParse(s, version);
  return v !== null && s.isPrerelease(v);
}

const CACHE_MAX = 2000;
const cache = new Map<string, ParseResult>();

export function parseRequirement(system: System, text: string, opts?: { includePrerelease?: boolean }): ParseResult {
  const s = scheme(system);
  if (!s) return { ok: false, error: `unknown system ${String(system)}` };
  if (typeof text !== 'string') return { ok: false, error: 'requirement must be a string' };
  const inc = opts?.includePrerelease === true;
  const key = `${(inc ? '1' : '0') + system}\u0000${text}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  let r: ParseResult;
  try {
    r = s.parseRequirement(text, { includePrerelease: inc });
  } catch (e) {
    r = { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
  if (r.ok) {
    const inner = r.requirement;
    const requirement: Requirement = {
      text,
      matches(version: string): boolean {
        if (typeof version !== 'string') return false;
        try {
          return inner.matches(version);
        } catch {
          return false;
        }
      },
    };
    r = { ok: true, requirement };
  }
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(key, r);
  return r;
}

export function satisfies(
  system: System,
  version: string,
  requirement: string,
  opts?: { includePrerelease?: boolean },
): boolean {
  const r = parseRequirement(system, requirement, opts);
  return r.ok && r.requirement.matches(version);
}

/**
 * Greatest version meeting the requirement, or null. PyPI follows pip's candidate filtering: when
 * prereleases are not requested and no final release matches, prereleases are considered
 * (PEP 440 "accept pre-releases if they are the only ones that match").
 */
export function maxSatisfying(
  system: System,
  versions: readonly string[],
  requirement: string,
  opts?: { includePrerelease?: boolean },
): string | null {
  const best = pickMax(system, versions, requirement, opts);
  if (best !== null || system !== 'PYPI' || opts?.includePrerelease) return best;
  return pickMax(system, versions, requirement, { includePrerelease: true });
}

function pickMax(
  system: System,
  versions: readonly string[],
  requirement: string,
  opts?: { includePrerelease?: boolean },
): string | null {
  const r = parseRequirement(system, requirement, opts);
  const s = scheme(system);
  if (!r.ok || !s) return null;
  let best: string | null = null;
  let bestParsed: unknown = null;
  for (const v of versions) {
    if (!r.requirement.matches(v)) continue;
    const p = safeParse(s, v);
    if (p === null) continue;
    if (bestParsed === null || s.compare(p, bestParsed) > 0) {
      best = v;
      bestParsed = p;
    }
  }
  return best;
}

export function sort(system: System, versions: readonly string[]): string[] {
  const s = scheme(system);
  const items = versions.map((v, i) => ({ v, p: s ? safeParse(s, v) : null, i }));
  items.sort((x, y) => compareParsed(s, x.p, y.p, x.v, y.v) || x.i - y.i);
  return items.map((x) => x.v);
}
