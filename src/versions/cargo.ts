/**
 * Cargo versions and requirements, following the Rust `semver` crate 1.x that Cargo uses.
 *
 * Versions: `MAJOR.MINOR.PATCH[-PRE][+BUILD]`, no `v` prefix, no leading zeros in the numbers.
 * Prerelease identifiers: digit-only identifiers compare by length then bytes (so `006` > `6` and
 * `011` > `12`, the crate's rule), digit-only < alphanumeric, a release sorts after its prereleases,
 * build metadata is ignored by ordering (`1.0.0+a` == `1.0.0+b`).
 * Deviation (deps.dev): short versions `1`, `1.2` are accepted as `1.0.0` / `1.2.0` for compare and
 * canon (the crate rejects them); they never appear in the index.
 *
 * Requirements (VersionReq): comma-separated comparators (comma = AND; a space-separated list is an
 * error); operators `=`, `>`, `>=`, `<`, `<=`, `~`, `^` and bare (= caret); partial versions
 * (`1`, `1.2`) and wildcards (`*`, `1.*`, `1.2.x`) with missing parts; a prerelease needs all three
 * numbers. Matching is the crate's `matches_req`: every comparator holds, and a prerelease candidate
 * also needs some comparator with the same MAJOR.MINOR.PATCH that carries a prerelease (per-
 * comparator opt-in). `includePrerelease` drops that last rule (deps.dev's MatchVersionPrerelease).
 * Empty/whitespace requirement = `*` (deps.dev; Cargo reads a missing version the same way).
 *
 * Exports beyond the Scheme: parseCargoVersion, parseCargoReq (list of comparators), matchesCargo.
 */
import { compiled, type ParseResult, type RequirementOptions, type Scheme } from './types.ts';
import { MAX_SAFE, comparePre, isDigitCode, splitIdents } from './semver-ids.ts';

export interface CargoVersion {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  readonly pre: readonly string[];
  readonly build: readonly string[];
}

export type CargoOp = '=' | '>' | '>=' | '<' | '<=' | '~' | '^' | '*';

export interface CargoComparator {
  readonly op: CargoOp;
  readonly major: number;
  readonly minor: number | null;
  readonly patch: number | null;
  readonly pre: readonly string[];
}

function parseNum(s: string, allowLeadingZero: boolean): number | null {
  if (s.length === 0) return null;
  for (let i = 0; i < s.length; i++) if (!isDigitCode(s.charCodeAt(i))) return null;
  if (!allowLeadingZero && s.length > 1 && s.charCodeAt(0) === 48) return null;
  const n = Number(s);
  return n <= MAX_SAFE ? n : null;
}

interface Split {
  core: string;
  pre: string[];
  build: string[];
}

function splitPreBuild(s: string): Split | null {
  let core = s;
  let build: string[] = [];
  const plus = s.indexOf('+');
  if (plus >= 0) {
    const b = splitIdents(s.slice(plus + 1));
    if (!b) return null;
    build = b;
    core = s.slice(0, plus);
  }
  let pre: string[] = [];
  const dash = core.indexOf('-');
  if (dash >= 0) {
    const p = splitIdents(core.slice(dash + 1));
    if (!p) return null;
    pre = p;
    core = core.slice(0, dash);
  }
  return { core, pre, build };
}

export function parseCargoVersion(text: string): CargoVersion | null {
  if (typeof text !== 'string') return null;
  const sp = splitPreBuild(text);
  if (!sp) return null;
  const parts = sp.core.split('.');
  if (parts.length > 3) return null;
  const nums: number[] = [];
  for (const p of parts) {
    const n = parseNum(p, false);
    if (n === null) return null;
    nums.push(n);
  }
  return { major: nums[0]!, minor: nums[1] ?? 0, patch: nums[2] ?? 0, pre: sp.pre, build: sp.build };
}

export function compareCargo(a: CargoVersion, b: CargoVersion): number {
  if (a.major !== b.major) return a.major < b.major ? -1 : 1;
  if (a.minor !== b.minor) return a.minor < b.minor ? -1 : 1;
  if (a.patch !== b.patch) return a.patch < b.patch ? -1 : 1;
  return comparePre(a.pre, b.pre);
}

function canonCargo(v: CargoVersion): string {
  let s = `${v.major}.${v.minor}.${v.patch}`;
  if (v.pre.length) s += '-' + v.pre.join('.');
  if (v.build.length) s += '+' + v.build.join('.');
  return s;
}

const OPS: readonly CargoOp[] = ['>=', '<=', '=', '>', '<', '~', '^'];

function isWildcard(s: string): boolean {
  return s === '*' || s === 'x' || s === 'X';
}

function parseComparator(raw: string): CargoComparator | string {
  let s = raw.trim();
  let op: CargoOp | null = null;
  for (const o of OPS) {
    if (s.startsWith(o)) {
      op = o;
      s = s.slice(o.length).trimStart();
      break;
    }
  }
  if (s.length === 0) return `missing version in \`${raw}\``;
  if (/\s/.test(s)) return `and list not supported in Cargo in \`${raw}\``;
  const sp = splitPreBuild(s);
  if (!sp) return `invalid text in \`${raw}\``;
  const parts = sp.core.split('.');
  if (parts.length > 3) return `more than 3 numbers present in \`${raw}\``;
  const nums: (number | null)[] = [];
  let sawWild = false;
  for (const p of parts) {
    if (isWildcard(p)) {
      sawWild = true;
      nums.push(null);
      continue;
    }
    if (sawWild) return `unexpected version after wildcard in \`${raw}\``;
    const n = parseNum(p, false);
    if (n === null) return `invalid version \`${p}\` in \`${raw}\``;
    nums.push(n);
  }
  if (sp.pre.length && (nums.length < 3 || sawWild)) return `prerelease requires 3 numbers: \`${raw}\``;
  if (nums[0] === null) {
    if (op !== null) return `wildcard with operator in \`${raw}\``;
    return { op: '*', major: -1, minor: null, patch: null, pre: [] };
  }
  return {
    op: op ?? (sawWild ? '*' : '^'),
    major: nums[0]!,
    minor: nums[1] ?? null,
    patch: nums[2] ?? null,
    pre: sp.pre,
  };
}

/** Parses a VersionReq into its comparators (empty list = any version). */
export function parseCargoReq(text: string): CargoComparator[] | string {
  if (typeof text !== 'string') return 'requirement must be a string';
  if (text.trim() === '') return [];
  const parts = text.split(',');
  const out: CargoComparator[] = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (p.trim() === '') return i === parts.length - 1 && i > 0 ? `missing item after comma in \`${text}\`` : `unexpected comma in \`${text}\``;
    const c = parseComparator(p);
    if (typeof c === 'string') return c;
    if (c.op !== '*' || c.major >= 0) out.push(c);
  }
  return out;
}

function exact(c: CargoComparator, v: CargoVersion): boolean {
  if (v.major !== c.major) return false;
  if (c.minor !== null && v.minor !== c.minor) return false;
  if (c.patch !== null && v.patch !== c.patch) return false;
  return comparePre(v.pre, c.pre) === 0;
}

function greater(c: CargoComparator, v: CargoVersion): boolean {
  if (v.major !== c.major) return v.major > c.major;
  if (c.minor === null) return false;
  if (v.minor !== c.minor) return v.minor > c.minor;
  if (c.patch === null) return false;
  if (v.patch !== c.patch) return v.patch > c.patch;
  return comparePre(v.pre, c.pre) > 0;
}

function less(c: CargoComparator, v: CargoVersion): boolean {
  if (v.major !== c.major) return v.major < c.major;
  if (c.minor === null) return false;
  if (v.minor !== c.minor) return v.minor < c.minor;
  if (c.patch === null) return false;
  if (v.patch !== c.patch) return v.patch < c.patch;
  return comparePre(v.pre, c.pre) < 0;
}

function tilde(c: CargoComparator, v: CargoVersion): boolean {
  if (v.major !== c.major) return false;
  if (c.minor !== null && v.minor !== c.minor) return false;
  if (c.patch !== null && v.patch !== c.patch) return v.patch > c.patch;
  return comparePre(v.pre, c.pre) >= 0;
}

function caret(c: CargoComparator, v: CargoVersion): boolean {
  if (v.major !== c.major) return false;
  const minor = c.minor;
  if (minor === null) return true;
  const patch = c.patch;
  if (patch === null) return c.major > 0 ? v.minor >= minor : v.minor === minor;
  if (c.major > 0) {
    if (v.minor !== minor) return v.minor > minor;
    if (v.patch !== patch) return v.patch > patch;
  } else if (minor > 0) {
    if (v.minor !== minor) return false;
    if (v.patch !== patch) return v.patch > patch;
  } else if (v.minor !== minor || v.patch !== patch) {
    return false;
  }
  return comparePre(v.pre, c.pre) >= 0;
}

function matchesOne(c: CargoComparator, v: CargoVersion): boolean {
  switch (c.op) {
    case '=':
    case '*':
      return exact(c, v);
    case '>':
      return greater(c, v);
    case '>=':
      return exact(c, v) || greater(c, v);
    case '<':
      return less(c, v);
    case '<=':
      return exact(c, v) || less(c, v);
    case '~':
      return tilde(c, v);
    default:
      return caret(c, v);
  }
}

export function matchesCargo(req: readonly CargoComparator[], v: CargoVersion, includePrerelease = false): boolean {
  for (const c of req) if (!matchesOne(c, v)) return false;
  if (v.pre.length === 0 || includePrerelease) return true;
  for (const c of req) {
    if (c.major === v.major && c.minor === v.minor && c.patch === v.patch && c.pre.length > 0) return true;
  }
  return false;
}

function parseRequirement(text: string, opts: RequirementOptions): ParseResult {
  const inc = opts.includePrerelease === true;
  return compiled(text, parseCargoReq(text), parseCargoVersion, (req, v) => matchesCargo(req, v, inc));
}

export const CARGO: Scheme<CargoVersion> = {
  parse: parseCargoVersion,
  compare: compareCargo,
  canon: canonCargo,
  isPrerelease: (v) => v.pre.length > 0,
  parseRequirement,
};
