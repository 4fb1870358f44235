/**
 * RubyGems versions and requirements, following Gem::Version and Gem::Requirement (checked
 * against RubyGems 3.3.15 / Ruby 3.1 by tools/conformance-native.ts).
 *
 * Versions: Gem::Version::ANCHORED_VERSION_PATTERN after stripping ASCII whitespace (Ruby's `\s`
 * and String#strip; NBSP and other Unicode spaces make a version invalid)
 * (`N(.[0-9A-Za-z]+)*(-[0-9A-Za-z-]+(.[0-9A-Za-z-]+)*)?`); `-` is read as `.pre.`. Segments are the
 * runs of digits (arbitrary-precision integers, bigint) and letters (strings). Ordering is
 * Gem::Version#<=> on canonical_segments (trailing zeros dropped from the numeric part and from
 * each part after the first string): pairwise, string < number, numbers numerically, strings
 * bytewise, missing = 0. A version is a prerelease when it contains a letter.
 * Canonical spelling (deps.dev): the numeric release padded to three components, then `-` and the
 * rest split into digit/letter runs joined by `.` (`6.0.0.beta1` -> `6.0.0-beta.1`, `1.0.0-a-b` ->
 * `1.0.0-a.pre.b`). That spelling is deps.dev's; compare() works on the input as RubyGems reads it.
 *
 * Requirements: comma-separated `[op] version` with op in `=`, `!=`, `>`, `<`, `>=`, `<=`, `~>`
 * (default `=`), each as Gem::Requirement::PATTERN; all must hold; the empty requirement is
 * `>= 0` (so `0.a`, a prerelease of 0, does not meet it). `~> X` is `>= X` and `release < X.bump`
 * (bump: drop string segments, drop the last segment if more than one, increment the last).
 * Requirement matching does not exclude prereleases (that is a resolver policy).
 *
 * The empty (or whitespace-only) version is "0", as Gem::Version reads it (deprecated), and a
 * whitespace-only requirement is an error, as Gem::Requirement's (issue 14). deps.dev rejects the
 * first and reads the second as `>= 0`: those vectors are listed with this reason in
 * test/unit/versions/expected-failures.ts.
 */
import { compiled, type ParseResult, type Scheme } from './types.ts';

export interface GemVersion {
  readonly text: string; // stripped input
  readonly segments: readonly (bigint | string)[];
  readonly canonical: readonly (bigint | string)[];
  readonly prerelease: boolean;
}

const VERSION_RE = /^[0-9]+(?:\.[0-9a-zA-Z]+)*(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

/** Ruby's `\s` and String#strip: ASCII whitespace only (not NBSP or other Unicode spaces). */
const RB_WS = /^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/g;

function segmentsOf(v: string): (bigint | string)[] {
  const s = v.replace(/-/g, '.pre.');
  const out: (bigint | string)[] = [];
  const re = /[0-9]+|[a-z]+/gi;
  for (const m of s.matchAll(re)) out.push(/^[0-9]/.test(m[0]) ? BigInt(m[0]) : m[0]);
  return out;
}

function canonicalSegments(segs: readonly (bigint | string)[]): (bigint | string)[] {
  const idx = segs.findIndex((s) => typeof s === 'string');
  const numeric = idx < 0 ? segs.slice() : segs.slice(0, idx);
  const strings = idx < 0 ? [] : segs.slice(idx);
  const trim = (a: (bigint | string)[]): (bigint | string)[] => {
    let n = a.length;
    while (n > 0 && a[n - 1] === 0n) n--;
    return a.slice(0, n);
  };
  return [...trim(numeric), ...trim(strings)];
}

function make(text: string): GemVersion {
  const segments = segmentsOf(text);
  return { text, segments, canonical: canonicalSegments(segments), prerelease: /[a-zA-Z]/.test(text) };
}

export function parseGemVersion(input: string): GemVersion | null {
  if (typeof input !== 'string') return null;
  const text = input.replace(RB_WS, '');
  if (text === '') return make('0'); // Gem::Version.new('') is "0" (with a deprecation warning)
  if (!VERSION_RE.test(text)) return null;
  return make(text);
}

export function compareGem(a: GemVersion, b: GemVersion): number {
  const l = a.canonical;
  const r = b.canonical;
  const n = Math.max(l.length, r.length);
  for (let i = 0; i < n; i++) {
    const x = l[i] ?? 0n;
    const y = r[i] ?? 0n;
    if (x === y) continue;
    const xs = typeof x === 'string';
    const ys = typeof y === 'string';
    if (xs && !ys) return -1;
    if (!xs && ys) return 1;
    return x < y ? -1 : 1;
  }
  return 0;
}

function canonGem(v: GemVersion): string {
  const m = /^([0-9]+(?:\.[0-9]+)*)(.*)$/.exec(v.text)!;
  const nums = m[1]!.split('.').map((x) => BigInt(x).toString());
  while (nums.length < 3) nums.push('0');
  let rest = m[2]!;
  if (rest === '') return nums.join('.');
  if (rest[0] === '.' || rest[0] === '-') rest = rest.slice(1);
  const parts: string[] = [];
  for (const p of rest.replace(/-/g, '.pre.').split('.')) {
    const runs = p.match(/[0-9]+|[a-zA-Z]+/g);
    if (runs) parts.push(...runs);
  }
  return `${nums.join('.')}-${parts.join('.')}`;
}

function release(v: GemVersion): GemVersion {
  if (!v.prerelease) return v;
  const idx = v.segments.findIndex((s) => typeof s === 'string');
  const nums = v.segments.slice(0, idx < 0 ? undefined : idx);
  return make(nums.join('.') || '0');
}

function bump(v: GemVersion): GemVersion {
  const segs = v.segments.slice();
  while (segs.some((s) => typeof s === 'string')) segs.pop();
  if (segs.length > 1) segs.pop();
  segs[segs.length - 1] = (segs[segs.length - 1] as bigint) + 1n;
  return make(segs.join('.'));
}

export type GemOp = '=' | '!=' | '>' | '<' | '>=' | '<=' | '~>';

export interface GemConstraint {
  readonly op: GemOp;
  readonly version: GemVersion;
}

const REQ_RE = /^[ \t\n\v\f\r]*(=|!=|>=|<=|>|<|~>)?[ \t\n\v\f\r]*([^ \t\n\v\f\r]+)[ \t\n\v\f\r]*$/;

export function parseGemRequirement(text: string): GemConstraint[] | string {
  if (typeof text !== 'string') return 'requirement must be a string';
  // Gem::Requirement.new with no requirement is `>= 0` (which a prerelease of 0, `0.a`, misses).
  // A whitespace-only one is an error, as Gem::Requirement's.
  if (text === '') return [{ op: '>=', version: make('0') }];
  if (text.replace(RB_WS, '') === '') return `illformed requirement \`${text}\``;
  const parts = text.split(',');
  const out: GemConstraint[] = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (p.replace(RB_WS, '') === '')
      return i === parts.length - 1 && i > 0
        ? `missing item after comma in \`${text}\``
        : `unexpected comma in \`${text}\``;
    const m = REQ_RE.exec(p);
    if (!m) return `missing comma in RubyGems in \`${text}\``;
    const v = parseGemVersion(m[2]!);
    if (!v) return `illformed requirement \`${p.trim()}\``;
    out.push({ op: (m[1] ?? '=') as GemOp, version: v });
  }
  return out;
}

export function gemConstraintMatches(c: GemConstraint, v: GemVersion): boolean {
  const r = compareGem(v, c.version);
  switch (c.op) {
    case '=':
      return r === 0;
    case '!=':
      return r !== 0;
    case '>':
      return r > 0;
    case '<':
      return r < 0;
    case '>=':
      return r >= 0;
    case '<=':
      return r <= 0;
    case '~>':
      return r >= 0 && compareGem(release(v), bump(c.version)) < 0;
  }
}

function parseRequirement(text: string): ParseResult {
  return compiled(text, parseGemRequirement(text), parseGemVersion, (req, v) =>
    req.every((c) => gemConstraintMatches(c, v)),
  );
}

export const RUBYGEMS: Scheme<GemVersion> = {
  parse: parseGemVersion,
  compare: compareGem,
  canon: canonGem,
  isPrerelease: (v) => v.prerelease,
  parseRequirement,
};
