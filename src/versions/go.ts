/**
 * Go module versions, following golang.org/x/mod/semver and the go command's module rules.
 *
 * Versions: `vMAJOR[.MINOR[.PATCH[-PRE][+BUILD]]]` (shorthands `v1`, `v1.2` mean `v1.0.0`,
 * `v1.2.0`; a prerelease or build needs all three numbers), no leading zeros in numbers or in
 * numeric prerelease identifiers (x/mod/semver rejects `v1.0.0-alpha.006`). `+incompatible` is
 * build metadata and so ignored by ordering (v2.0.0+incompatible == v2.0.0). Pseudo-versions
 * (`v0.0.0-20191109021931-daa7c04131f5`, `vX.Y.(Z+1)-0.yyyymmddhhmmss-abcdef`) are ordinary
 * prereleases and sort by their timestamp, as the go command relies on.
 * Canonical spelling (deps.dev): `vM.m.p[-pre][+build]` (build kept, unlike semver.Canonical).
 *
 * Requirements: a single version as written in go.mod, read as a minimum within its major
 * version's module path: `v1.2.3` matches [v1.2.3, v2.0.0); `v0.x` and `v1.x` share the path, so
 * `v0.2.3` matches [v0.2.3, v2.0.0); `vN.x` (N >= 2) matches [vN.x, vN+1.0.0). Prereleases above
 * the minimum match (minimal version selection has no prerelease exclusion).
 */
import { compiled, fail, type ParseResult, type Scheme } from './types.ts';
import { comparePre, isAllDigits, splitIdents } from './semver-ids.ts';

export interface GoVersion {
  readonly major: string;
  readonly minor: string;
  readonly patch: string;
  readonly pre: readonly string[];
  readonly build: readonly string[];
}

function num(s: string | undefined): boolean {
  return s !== undefined && isAllDigits(s) && (s.length === 1 || s[0] !== '0');
}

export function parseGoVersion(text: string): GoVersion | null {
  if (typeof text !== 'string' || text.length < 2 || text[0] !== 'v') return null;
  let s = text.slice(1);
  let build: string[] = [];
  let pre: string[] = [];
  const plus = s.indexOf('+');
  if (plus >= 0) {
    const b = splitIdents(s.slice(plus + 1));
    if (!b) return null;
    build = b;
    s = s.slice(0, plus);
  }
  const dash = s.indexOf('-');
  if (dash >= 0) {
    const p = splitIdents(s.slice(dash + 1));
    if (!p) return null;
    for (const id of p) if (isAllDigits(id) && id.length > 1 && id[0] === '0') return null;
    pre = p;
    s = s.slice(0, dash);
  }
  const parts = s.split('.');
  if (parts.length > 3 || !parts.every(num)) return null;
  if (parts.length < 3 && (pre.length || build.length)) return null;
  return { major: parts[0]!, minor: parts[1] ?? '0', patch: parts[2] ?? '0', pre, build };
}

function cmpNum(a: string, b: string): number {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a === b ? 0 : a < b ? -1 : 1;
}

export function compareGo(a: GoVersion, b: GoVersion): number {
  return cmpNum(a.major, b.major) || cmpNum(a.minor, b.minor) || cmpNum(a.patch, b.patch) || comparePre(a.pre, b.pre);
}

function canonGo(v: GoVersion): string {
  let s = `v${v.major}.${v.minor}.${v.patch}`;
  if (v.pre.length) s += `-${v.pre.join('.')}`;
  if (v.build.length) s += `+${v.build.join('.')}`;
  return s;
}

/** Upper bound (exclusive) of the module path a version belongs to. */
export function goMajorCeiling(v: GoVersion): GoVersion {
  const m = Number(v.major);
  const next = m < 2 ? '2' : String(m + 1);
  return { major: next, minor: '0', patch: '0', pre: [], build: [] };
}

function parseRequirement(text: string): ParseResult {
  const min = parseGoVersion(text);
  if (!min) return fail(`invalid version \`${text}\``);
  const ceiling = goMajorCeiling(min);
  return compiled(text, min, parseGoVersion, (lo, v) => compareGo(v, lo) >= 0 && compareGo(v, ceiling) < 0);
}

export const GO: Scheme<GoVersion> = {
  parse: parseGoVersion,
  compare: compareGo,
  canon: canonGo,
  isPrerelease: (v) => v.pre.length > 0,
  parseRequirement,
};
