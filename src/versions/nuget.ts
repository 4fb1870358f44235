/**
 * NuGet versions and version ranges, following NuGet.Versioning (NuGetVersion, VersionComparer,
 * VersionRange, FloatRange).
 *
 * Versions: 1 to 4 dot-separated numbers (leading zeros allowed, each <= Int32.MaxValue; missing
 * parts are 0), optional `-` prerelease labels ([0-9A-Za-z-]+) and `+` metadata. No `v` prefix.
 * Ordering (VersionComparer.Default): major, minor, patch, revision; a release sorts after its
 * prereleases; labels compare pairwise: both numeric (Int32.TryParse) -> numerically, numeric <
 * non-numeric, otherwise ordinal ignore-case; more labels win; metadata ignored.
 * Canonical spelling (deps.dev): normalised `M.m.p[.r]` (revision only if non-zero), prerelease
 * lowercased, metadata dropped.
 *
 * Ranges: `[a,b]`, `(a,b)`, `[a,)`, `(,b]`, `[v]` (one range only); a bare version means `>= v`
 * (minimum inclusive) and admits prereleases; floating versions `*`, `1.*`, `1.2.*`, `1.0.0-*`,
 * `1.0.0-beta*`, `1.*-*`, `*-*` mean `>= ` their lowest version. Matching is
 * VersionRange.Satisfies (bounds only), plus FloatRange's rule that a float without a prerelease
 * part (`1.*`, `*`) never selects a prerelease, which is how NuGet (and deps.dev) resolve floats.
 */
import { compiled, type ParseResult, type RequirementOptions, type Scheme } from './types.ts';
import { isIdentCode } from './semver-ids.ts';

export interface NugetVersion {
  readonly nums: readonly [number, number, number, number];
  readonly pre: readonly string[];
  readonly meta: string;
}

const INT32_MAX = 2147483647;

function parseNums(core: string, max: number): number[] | null {
  const parts = core.split('.');
  if (parts.length === 0 || parts.length > max) return null;
  const out: number[] = [];
  for (const p of parts) {
    if (!/^[0-9]+$/.test(p)) return null;
    const n = Number(p);
    if (n > INT32_MAX) return null;
    out.push(n);
  }
  return out;
}

function labelsOk(s: string): string[] | null {
  const ids = s.split('.');
  for (const id of ids) {
    if (id.length === 0) return null;
    for (let i = 0; i < id.length; i++) if (!isIdentCode(id.charCodeAt(i))) return null;
  }
  return ids;
}

export function parseNugetVersion(text: string): NugetVersion | null {
  if (typeof text !== 'string' || text.length === 0) return null;
  let s = text;
  let meta = '';
  const plus = s.indexOf('+');
  if (plus >= 0) {
    meta = s.slice(plus + 1);
    if (!labelsOk(meta)) return null;
    s = s.slice(0, plus);
  }
  let pre: string[] = [];
  const dash = s.indexOf('-');
  if (dash >= 0) {
    const l = labelsOk(s.slice(dash + 1));
    if (!l) return null;
    pre = l;
    s = s.slice(0, dash);
  }
  const nums = parseNums(s, 4);
  if (!nums) return null;
  return { nums: [nums[0]!, nums[1] ?? 0, nums[2] ?? 0, nums[3] ?? 0], pre, meta };
}

function numericLabel(s: string): number | null {
  if (!/^[0-9]+$/.test(s)) return null;
  const n = Number(s);
  return n <= INT32_MAX ? n : null;
}

function cmpLabel(a: string, b: string): number {
  const an = numericLabel(a);
  const bn = numericLabel(b);
  if (an !== null && bn !== null) return an === bn ? 0 : an < bn ? -1 : 1;
  if (an !== null) return -1;
  if (bn !== null) return 1;
  const x = a.toUpperCase();
  const y = b.toUpperCase();
  return x === y ? 0 : x < y ? -1 : 1;
}

export function compareNuget(a: NugetVersion, b: NugetVersion): number {
  for (let i = 0; i < 4; i++) if (a.nums[i] !== b.nums[i]) return a.nums[i]! < b.nums[i]! ? -1 : 1;
  if (a.pre.length === 0) return b.pre.length === 0 ? 0 : 1;
  if (b.pre.length === 0) return -1;
  const n = Math.min(a.pre.length, b.pre.length);
  for (let i = 0; i < n; i++) {
    const r = cmpLabel(a.pre[i]!, b.pre[i]!);
    if (r !== 0) return r;
  }
  return a.pre.length === b.pre.length ? 0 : a.pre.length < b.pre.length ? -1 : 1;
}

function canonNuget(v: NugetVersion): string {
  let s = `${v.nums[0]}.${v.nums[1]}.${v.nums[2]}`;
  if (v.nums[3] !== 0) s += `.${v.nums[3]}`;
  if (v.pre.length) s += `-${v.pre.join('.').toLowerCase()}`;
  return s;
}

// ---- ranges -------------------------------------------------------------------------------

export interface NugetBound {
  readonly v: NugetVersion;
  readonly inclusive: boolean;
}

export interface NugetRange {
  readonly min: NugetBound | null;
  readonly max: NugetBound | null;
  /** false for floats without a prerelease part (`1.*`, `*`): prerelease candidates never match. */
  readonly allowPre: boolean;
  readonly float: boolean;
}

/** Parses a floating version (`1.*`, `1.0.0-beta*`, `*-*`), or a plain version. */
function parseFloating(text: string): { min: NugetVersion; float: boolean; allowPre: boolean } | string {
  if (!text.includes('*')) {
    const v = parseNugetVersion(text);
    return v ? { min: v, float: false, allowPre: true } : `invalid version \`${text}\``;
  }
  let core = text;
  let preText: string | null = null;
  const dash = text.indexOf('-');
  if (dash >= 0) {
    core = text.slice(0, dash);
    preText = text.slice(dash + 1);
  }
  if (core.endsWith('*') && core.length > 1 && core[core.length - 2] !== '.') {
    // `1.0.0*`: a star directly after the last number floats nothing more.
    core = core.slice(0, -1);
    if (core.includes('*')) return `invalid text in version string in \`${text}\``;
  }
  let nums: number[];
  if (core === '*') {
    nums = [0, 0, 0];
  } else if (core.endsWith('.*')) {
    const head = core.slice(0, -2);
    if (head.includes('*')) {
      return head.endsWith('*')
        ? `version has multiple wildcards in \`${text}\``
        : `invalid text in version string in \`${text}\``;
    }
    const n = parseNums(head, 3);
    if (!n) return `invalid text in version string in \`${text}\``;
    nums = n;
  } else {
    if (core.includes('*')) {
      return /\*\./.test(core)
        ? `wildcard in middle of version in \`${text}\``
        : `invalid text in version string in \`${text}\``;
    }
    const n = parseNums(core, 4);
    if (!n) return `invalid text in version string in \`${text}\``;
    nums = n;
  }
  let pre: string[] = [];
  let allowPre = false;
  if (preText !== null) {
    if (!preText.endsWith('*')) return `missing asterisk at end of prerelease in \`${text}\``;
    const prefix = preText.slice(0, -1);
    if (prefix.includes('*')) return `invalid text in version string in \`${text}\``;
    if (prefix === '') pre = ['0'];
    else {
      const l = labelsOk(prefix.endsWith('.') ? prefix.slice(0, -1) : prefix);
      if (!l) return `invalid text in version string in \`${text}\``;
      pre = l;
    }
    allowPre = true;
  }
  const min: NugetVersion = { nums: [nums[0] ?? 0, nums[1] ?? 0, nums[2] ?? 0, nums[3] ?? 0], pre, meta: '' };
  return { min, float: true, allowPre };
}

export function parseNugetRange(text: string): NugetRange | string {
  if (typeof text !== 'string') return 'requirement must be a string';
  const s = text.trim();
  if (s === '') return 'invalid empty constraint';
  const first = s[0]!;
  if (first === '[' || first === '(') {
    const close = s.search(/[\])]/);
    if (close < 0) return `expected comma or closing bracket in \`${text}\``;
    if (close !== s.length - 1) {
      const rest = s.slice(close + 1).trim();
      if (rest.startsWith(',')) return `cannot have more than one range in \`${text}\``;
      if (rest.startsWith('[') || rest.startsWith('(')) return `unexpected lbracket in \`${text}\``;
      return `unexpected rbracket in \`${text}\``;
    }
    const inner = s.slice(1, -1);
    const lowerInc = first === '[';
    const upperInc = s.endsWith(']');
    const parts = inner.split(',');
    if (parts.length > 2) return `cannot have more than one range in \`${text}\``;
    if (parts.length === 1) {
      if (!lowerInc || !upperInc) return `hard requirement must be closed on both ends in \`${text}\``;
      const v = parseNugetVersion(parts[0]!.trim());
      if (!v) return `invalid version in \`${text}\``;
      return { min: { v, inclusive: true }, max: { v, inclusive: true }, allowPre: true, float: false };
    }
    const lo = parts[0]!.trim();
    const hi = parts[1]!.trim();
    let min: NugetBound | null = null;
    let max: NugetBound | null = null;
    if (lo) {
      const f = parseFloating(lo);
      if (typeof f === 'string') return f;
      min = { v: f.min, inclusive: lowerInc };
    }
    if (hi) {
      const v = parseNugetVersion(hi);
      if (!v) return `invalid version in \`${text}\``;
      max = { v, inclusive: upperInc };
    }
    if (!lo && !hi && !(lowerInc || upperInc)) return `hard requirement must be closed on both ends in \`${text}\``;
    if (min && max) {
      const c = compareNuget(min.v, max.v);
      if (c > 0 || (c === 0 && !(min.inclusive && max.inclusive))) return `invalid range in \`${text}\``;
    }
    return { min, max, allowPre: true, float: false };
  }
  if (/[\])]/.test(s)) return `unexpected rbracket in \`${text}\``;
  if (s.includes(',')) return `cannot have more than one range in \`${text}\``;
  if (/\s/.test(s)) return `unexpected version in \`${text}\``;
  const f = parseFloating(s);
  if (typeof f === 'string') return f;
  return { min: { v: f.min, inclusive: true }, max: null, allowPre: f.allowPre, float: f.float };
}

export function nugetRangeContains(r: NugetRange, v: NugetVersion, includePre = false): boolean {
  if (!r.allowPre && !includePre && v.pre.length > 0) return false;
  if (r.min) {
    const c = compareNuget(v, r.min.v);
    if (c < 0 || (c === 0 && !r.min.inclusive)) return false;
  }
  if (r.max) {
    const c = compareNuget(v, r.max.v);
    if (c > 0 || (c === 0 && !r.max.inclusive)) return false;
  }
  return true;
}

function parseRequirement(text: string, opts: RequirementOptions): ParseResult {
  const inc = opts.includePrerelease === true;
  return compiled(text, parseNugetRange(text), parseNugetVersion, (r, v) => nugetRangeContains(r, v, inc));
}

export const NUGET: Scheme<NugetVersion> = {
  parse: parseNugetVersion,
  compare: compareNuget,
  canon: canonNuget,
  isPrerelease: (v) => v.pre.length > 0,
  parseRequirement,
};
