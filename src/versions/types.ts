/**
 * Shared types for the version-semantics library (src/versions/).
 *
 * Every ecosystem module implements `Scheme<V>`: a parser from text to its own parsed form `V`
 * (null when invalid, never a throw), a total order over parsed forms, deps.dev's canonical
 * spelling, a prerelease predicate and a requirement parser. `index.ts` dispatches on `System`
 * and adds caching; nothing here does I/O or depends on Node APIs.
 */

export type System = 'GO' | 'RUBYGEMS' | 'NPM' | 'CARGO' | 'MAVEN' | 'PYPI' | 'NUGET';

export interface Requirement {
  readonly text: string;
  matches(version: string): boolean;
}

export type ParseResult = { ok: true; requirement: Requirement } | { ok: false; error: string };

export interface RequirementOptions {
  /** Treat prerelease candidates like releases (npm `includePrerelease`, Cargo/PyPI "pre allowed"). */
  readonly includePrerelease?: boolean;
}

export interface Scheme<V> {
  parse(text: string): V | null;
  compare(a: V, b: V): number;
  canon(v: V): string;
  isPrerelease(v: V): boolean;
  parseRequirement(text: string, opts: RequirementOptions): ParseResult;
}

export function ok(text: string, matches: (version: string) => boolean): ParseResult {
  return { ok: true, requirement: { text, matches } };
}

/**
 * The requirement of a parsed form: `parsed` is the error text when the requirement did not parse;
 * `matches` parses each candidate version and asks `contains` (false for an invalid version).
 */
export function compiled<R, V>(
  text: string,
  parsed: R | string,
  parseVersion: (s: string) => V | null,
  contains: (req: R, v: V, raw: string) => boolean,
): ParseResult {
  if (typeof parsed === 'string') return fail(parsed);
  return ok(text, (version) => {
    const v = parseVersion(version);
    return v !== null && contains(parsed, v, version);
  });
}

export function fail(error: string): ParseResult {
  return { ok: false, error };
}

export function sign(n: number): -1 | 0 | 1 {
  return n < 0 ? -1 : n > 0 ? 1 : 0;
}
