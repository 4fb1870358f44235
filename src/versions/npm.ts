/**
 * npm versions and ranges, following node-semver 7 (the library npm itself uses) in its default
 * strict mode, as `semver.valid`, `semver.compare`, `semver.validRange` and `semver.satisfies`
 * answer without options (checked against node-semver 7.8.6 by tools/conformance-native.ts).
 *
 * Versions: after trimming (JS `trim`, as node-semver), at most 256 characters,
 * `v?MAJOR.MINOR.PATCH[-PRERELEASE][+BUILD]`, numbers up to Number.MAX_SAFE_INTEGER (larger ones
 * are rejected). Loose-only spellings are rejected: `=1.2.3`, `v 1.2.3`, `1.2.3beta`. Numeric
 * prerelease identifiers compare as numbers, numeric < alphanumeric, a release sorts after its
 * prereleases, build metadata is ignored by ordering.
 *
 * Ranges: `||`-separated comparator sets; each set is a hyphen range or space-separated comparators
 * (`<`, `<=`, `>`, `>=`, `=`, `~`, `~>`, `^`, x-ranges `1.x`, `1.2.*`, `*`, partial versions),
 * desugared as node-semver's replaceCaret/replaceTilde/replaceXRange/hyphenReplace/replaceStars do,
 * with strict numbers (no leading zeros) and strict prerelease identifiers. As node-semver: a full
 * version kept verbatim in a comparator (plain `1.2.3`, `>=1.2.3`, hyphen bounds) allows only a
 * single `v` before it, while caret, tilde and partial versions allow `[v=\s]*`; a number after an
 * X part (`1.*.3`) invalidates a plain comparator but is ignored by `^`, `~` and hyphen ranges; a
 * desugared bound past MAX_SAFE_INTEGER (`^9007199254740991`) makes the range invalid. Matching
 * (Range#test / testSet): every comparator of some set holds, and a prerelease candidate also needs
 * a comparator in that set with a prerelease of the same MAJOR.MINOR.PATCH, unless
 * includePrerelease. Dist-tags (`latest`) are not ranges.
 *
 * Versions are node-semver's strict ones (issue 14): one optional `v`, all three numbers, no leading
 * zeros in numbers or numeric prerelease identifiers. deps.dev's semver library is looser (short `1.2`
 * read as `1.2.0`, any number of `v`, leading zeros); the vectors of
 * ../shared/conformance/semver_vectors.json that need that looseness are listed, with this reason, in
 * test/unit/versions/expected-failures.ts. A few old packuments hold versions published before the
 * registry checked (esprima-fb's `2001.1001.0000-dev-harmony-fb`): invalid here, as `semver.valid`
 * says, so they sort first and satisfy no range.
 * The one remaining difference from node-semver measured by `npm run conformance:native` is listed in
 * that tool's classes.
 * node-semver's own fixtures that pass `loose: true` are listed in expected-failures.ts.
 *
 * Exports beyond the Scheme: parseNpmVersion, parseNpmRange (sets of primitive comparators) for
 * resolvers that want intervals.
 */
import { compiled, type ParseResult, type RequirementOptions, type Scheme } from './types.ts';
import { MAX_SAFE, isDigitCode, isIdentCode } from './semver-ids.ts';

export interface NpmVersion {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  readonly pre: readonly (string | number)[];
  readonly build: readonly string[];
}

/** Primitive comparator; `v === null` means "any version" (node-semver's ANY). */
export interface NpmComparator {
  readonly op: '' | '<' | '<=' | '>' | '>=';
  readonly v: NpmVersion | null;
}

function isWs(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 11 || c === 12;
}

function toPreId(id: string): string | number {
  for (let i = 0; i < id.length; i++) if (!isDigitCode(id.charCodeAt(i))) return id;
  const n = Number(id);
  return n < MAX_SAFE ? n : id;
}

function scanIdents(s: string, start: number, end: number): string[] | null {
  if (start >= end) return null;
  const out: string[] = [];
  let from = start;
  for (let i = start; i <= end; i++) {
    if (i === end || s.charCodeAt(i) === 46) {
      if (i === from) return null;
      out.push(s.slice(from, i));
      from = i + 1;
    } else if (!isIdentCode(s.charCodeAt(i))) {
      return null;
    }
  }
  return out;
}

/**
 * Core scanner (node-semver's strict grammar). `range` selects the range flavour: the `[v=\s]*`
 * prefix of XRANGEPLAIN (reported in `prefix`), x-range parts (x, X, *; returned as null parts) and
 * partial versions; otherwise the version flavour (one optional `v`, all three numbers). Both refuse
 * leading zeros in numbers and in numeric prerelease identifiers.
 */
interface Scanned {
  prefix: string;
  parts: (number | null)[];
  pre: string[];
  build: string[];
}

function isNumericId(id: string): boolean {
  for (let i = 0; i < id.length; i++) if (!isDigitCode(id.charCodeAt(i))) return false;
  return true;
}

function scan(s: string, range: boolean): Scanned | null {
  let i = 0;
  const n = s.length;
  while (i < n) {
    const c = s.charCodeAt(i);
    if ((c === 118 && (range || i === 0)) || (range && (c === 61 || isWs(c))))
      i++; // a version: one `v` at most
    else break;
  }
  const prefix = s.slice(0, i);
  const parts: (number | null)[] = [];
  for (;;) {
    if (i >= n) return null;
    const c = s.charCodeAt(i);
    if (range && (c === 120 || c === 88 || c === 42)) {
      parts.push(null);
      i++;
    } else {
      const st = i;
      while (i < n && isDigitCode(s.charCodeAt(i))) i++;
      if (i === st) return null;
      if (i - st > 1 && s.charCodeAt(st) === 48) return null; // strict: no leading zeros
      const num = i - st > 16 ? Infinity : Number(s.slice(st, i));
      // A range may carry a huge number where it is ignored (`1.x.99999999999999999999`); one that
      // reaches a comparator is rejected after desugaring, as node-semver does.
      if (num > MAX_SAFE && !range) return null;
      parts.push(num);
    }
    if (parts.length < 3 && i < n && s.charCodeAt(i) === 46) {
      i++;
      continue;
    }
    break;
  }
  if (!range && parts.length < 3) return null; // a version has all three parts
  let pre: string[] = [];
  let build: string[] = [];
  if (i < n) {
    if (s.charCodeAt(i) === 45) {
      if (parts.length < 3 && range) return null;
      let j = i + 1;
      while (j < n && s.charCodeAt(j) !== 43) j++;
      const ids = scanIdents(s, i + 1, j);
      if (!ids) return null;
      for (const id of ids) if (id.length > 1 && id.charCodeAt(0) === 48 && isNumericId(id)) return null;
      pre = ids;
      i = j;
    }
    if (i < n) {
      if (s.charCodeAt(i) !== 43) return null;
      const ids = scanIdents(s, i + 1, n);
      if (!ids) return null;
      build = ids;
      i = n;
    }
  }
  return { prefix, parts, pre, build };
}

export function parseNpmVersion(text: string): NpmVersion | null {
  if (typeof text !== 'string' || text.length > MAX_LENGTH) return null;
  const r = scan(text.trim(), false);
  if (!r) return null;
  return {
    major: r.parts[0]!,
    minor: r.parts[1] ?? 0,
    patch: r.parts[2] ?? 0,
    pre: r.pre.map(toPreId),
    build: r.build,
  };
}

function cmpId(a: string | number, b: string | number): number {
  if (a === b) return 0;
  const an = typeof a === 'number';
  const bn = typeof b === 'number';
  if (an && !bn) return -1;
  if (bn && !an) return 1;
  return a < b ? -1 : 1;
}

export function compareNpm(a: NpmVersion, b: NpmVersion): number {
  if (a.major !== b.major) return a.major < b.major ? -1 : 1;
  if (a.minor !== b.minor) return a.minor < b.minor ? -1 : 1;
  if (a.patch !== b.patch) return a.patch < b.patch ? -1 : 1;
  const ap = a.pre;
  const bp = b.pre;
  if (ap.length === 0) return bp.length === 0 ? 0 : 1;
  if (bp.length === 0) return -1;
  const n = Math.min(ap.length, bp.length);
  for (let i = 0; i < n; i++) {
    const c = cmpId(ap[i]!, bp[i]!);
    if (c !== 0) return c;
  }
  return ap.length === bp.length ? 0 : ap.length < bp.length ? -1 : 1;
}

function canonNpm(v: NpmVersion): string {
  let s = `${v.major}.${v.minor}.${v.patch}`;
  if (v.pre.length) s += `-${v.pre.join('.')}`;
  if (v.build.length) s += `+${v.build.join('.')}`;
  return s;
}

// ---- ranges ------------------------------------------------------------------------------

/** node-semver's MAX_LENGTH: longer version strings are rejected before anything else. */
const MAX_LENGTH = 256;

const ANY: NpmComparator = { op: '', v: null };
const ZERO_PRE: readonly (string | number)[] = [0];

function ver(major: number, minor: number, patch: number, pre: readonly (string | number)[] = []): NpmVersion {
  return { major, minor, patch, pre, build: [] };
}
function c(op: NpmComparator['op'], v: NpmVersion): NpmComparator {
  return { op, v };
}
const NULL_SET: NpmComparator = c('<', ver(0, 0, 0, ZERO_PRE));

interface XR {
  M: number | null;
  m: number | null;
  p: number | null;
  pre: (string | number)[];
  /** The text may be copied verbatim into a node-semver Comparator (`v?` + full version). */
  verbatim: boolean;
  /** A number follows an X part (`1.*.3`): invalid as a plain comparator. */
  badOrder: boolean;
}

function parseXR(s: string): XR | null {
  const r = scan(s, true);
  if (!r) return null;
  const M = r.parts[0] ?? null;
  const m = M === null ? null : (r.parts[1] ?? null);
  const p = m === null ? null : (r.parts[2] ?? null);
  // node-semver's replaceXRange leaves a number after an X part (`1.*.3`) unreplaced, so the plain
  // comparator is invalid; caret, tilde and hyphen ranges ignore what follows the X.
  let badOrder = false;
  for (let i = 1; i < r.parts.length; i++) if (r.parts[i] !== null && r.parts[i - 1] === null) badOrder = true;
  return { M, m, p, pre: r.pre.map(toPreId), verbatim: r.prefix === '' || r.prefix === 'v', badOrder };
}

function caret(x: XR, incPre: boolean): NpmComparator[] | null {
  const { M, m, p, pre } = x;
  const z = incPre ? ZERO_PRE : [];
  if (M === null) return [ANY];
  if (m === null) return [c('>=', ver(M, 0, 0, z)), c('<', ver(M + 1, 0, 0, ZERO_PRE))];
  if (p === null) {
    if (M === 0) return [c('>=', ver(M, m, 0, z)), c('<', ver(M, m + 1, 0, ZERO_PRE))];
    return [c('>=', ver(M, m, 0, z)), c('<', ver(M + 1, 0, 0, ZERO_PRE))];
  }
  const lo = ver(M, m, p, pre);
  if (M === 0) {
    if (m === 0) return [c('>=', lo), c('<', ver(M, m, p + 1, ZERO_PRE))];
    return [c('>=', lo), c('<', ver(M, m + 1, 0, ZERO_PRE))];
  }
  return [c('>=', lo), c('<', ver(M + 1, 0, 0, ZERO_PRE))];
}

function tilde(x: XR, incPre: boolean): NpmComparator[] {
  const { M, m, p, pre } = x;
  const z = incPre ? ZERO_PRE : [];
  if (M === null) return [ANY];
  if (m === null) return [c('>=', ver(M, 0, 0, z)), c('<', ver(M + 1, 0, 0, ZERO_PRE))];
  if (p === null) return [c('>=', ver(M, m, 0, z)), c('<', ver(M, m + 1, 0, ZERO_PRE))];
  return [c('>=', ver(M, m, p, pre)), c('<', ver(M, m + 1, 0, ZERO_PRE))];
}

function xrange(gtlt: string, x: XR, incPre: boolean): NpmComparator[] | null {
  if (x.badOrder) return null;
  const { M, m, p } = x;
  const xM = M === null;
  const xm = xM || m === null;
  const anyX = xm || p === null;
  if (gtlt === '=' && anyX) gtlt = '';
  let pr: readonly (string | number)[] = incPre ? ZERO_PRE : [];
  if (xM) {
    if (gtlt === '>' || gtlt === '<') return [NULL_SET];
    return [ANY];
  }
  let MM = M as number;
  if (gtlt && anyX) {
    let mm = xm ? 0 : (m as number);
    let pp = 0;
    if (gtlt === '>') {
      gtlt = '>=';
      if (xm) {
        MM = MM + 1;
        mm = 0;
        pp = 0;
      } else {
        mm = mm + 1;
        pp = 0;
      }
    } else if (gtlt === '<=') {
      gtlt = '<';
      if (xm) MM = MM + 1;
      else mm = mm + 1;
    }
    if (gtlt === '<') pr = ZERO_PRE;
    return [c(gtlt as NpmComparator['op'], ver(MM, mm, pp, pr))];
  }
  if (xm) return [c('>=', ver(MM, 0, 0, pr)), c('<', ver(MM + 1, 0, 0, ZERO_PRE))];
  if (anyX) return [c('>=', ver(MM, m as number, 0, pr)), c('<', ver(MM, (m as number) + 1, 0, ZERO_PRE))];
  if (!x.verbatim) return null; // node-semver's Comparator only allows `v?` before a full version
  const v = ver(MM, m as number, p as number, x.pre);
  return [c((gtlt === '=' ? '' : gtlt) as NpmComparator['op'], v)];
}

function hyphen(from: XR, to: XR, incPre: boolean): NpmComparator[] | null {
  const out: NpmComparator[] = [];
  const z = incPre ? ZERO_PRE : [];
  if (from.M !== null) {
    if (from.m === null) out.push(c('>=', ver(from.M, 0, 0, z)));
    else if (from.p === null) out.push(c('>=', ver(from.M, from.m, 0, z)));
    else if (!from.verbatim)
      return null; // `>=` + the text as written
    else if (from.pre.length) out.push(c('>=', ver(from.M, from.m, from.p, from.pre)));
    else out.push(c('>=', ver(from.M, from.m, from.p, z)));
  }
  if (to.M !== null) {
    if (to.m === null) out.push(c('<', ver(to.M + 1, 0, 0, ZERO_PRE)));
    else if (to.p === null) out.push(c('<', ver(to.M, to.m + 1, 0, ZERO_PRE)));
    else if (to.pre.length) out.push(c('<=', ver(to.M, to.m, to.p, to.pre)));
    else if (incPre) out.push(c('<', ver(to.M, to.m, to.p + 1, ZERO_PRE)));
    else if (!to.verbatim)
      return null; // `<=` + the text as written
    else out.push(c('<=', ver(to.M, to.m, to.p)));
  }
  return out.length ? out : [ANY];
}

const OP_TRIM = /(<=|>=|<|>|=|~>|~|\^)\s+/g;
// node-semver's HYPHENRANGE: each bound is XRANGEPLAIN, whose `[v=\s]*` prefix may hold spaces (`= 1.2 - 2`).
const HYPHEN = /^([v= ]*\S+) - ([v= ]*\S+)$/;

const STAR = /(<|>)?=?\s*\*/;

function parseToken(tok: string, incPre: boolean): NpmComparator[] | string {
  const r = parseToken1(tok, incPre);
  if (typeof r !== 'string' || !STAR.test(tok)) return r;
  // node-semver's replaceStars runs on a token the caret/tilde/x-range rules left as is and deletes
  // its first `[<>]=?*` (`0=*.1.2` -> `0.1.2`); the rest must then be a plain comparator (or empty).
  const rest = tok.replace(STAR, '').trim();
  if (rest === '') return [ANY];
  const again = parseToken1(rest, incPre);
  return typeof again !== 'string' && again.length === 1 && again[0]!.v !== null && !/[xX*]/.test(rest) ? again : r;
}

function parseToken1(tok: string, incPre: boolean): NpmComparator[] | string {
  let i = 0;
  let kind: string;
  const c0 = tok.charCodeAt(0);
  if (c0 === 126) {
    kind = '~';
    i = tok.charCodeAt(1) === 62 ? 2 : 1;
  } else if (c0 === 94) {
    kind = '^';
    i = 1;
  } else if (c0 === 60 || c0 === 62) {
    i = tok.charCodeAt(1) === 61 ? 2 : 1;
    kind = tok.slice(0, i);
  } else if (c0 === 61) {
    kind = '=';
    i = 1;
  } else {
    kind = '';
  }
  const body = tok.slice(i);
  const x = parseXR(body);
  if (!x) return `invalid comparator \`${tok}\``;
  if (kind === '~') return tilde(x, incPre);
  if (kind === '^') return caret(x, incPre) ?? `invalid comparator \`${tok}\``;
  return xrange(kind, x, incPre) ?? `invalid comparator \`${tok}\``;
}

function isNullSet(cmp: NpmComparator): boolean {
  const v = cmp.v;
  return (
    cmp.op === '<' &&
    v !== null &&
    v.major === 0 &&
    v.minor === 0 &&
    v.patch === 0 &&
    v.pre.length === 1 &&
    v.pre[0] === 0
  );
}

/** Parses a range into comparator sets (a union of intersections), or an error message. */
export function parseNpmRange(text: string, incPre = false): NpmComparator[][] | string {
  if (typeof text !== 'string') return 'range must be a string';
  const parts = text.split('||');
  let sets: NpmComparator[][] = [];
  for (const raw of parts) {
    const part = raw.trim().split(/\s+/).join(' ');
    let set: NpmComparator[] = [];
    if (part === '') {
      set = [ANY];
    } else {
      const h = HYPHEN.exec(part);
      const from = h ? parseXR(h[1]!) : null;
      const to = h ? parseXR(h[2]!) : null;
      const hy = from && to ? hyphen(from, to, incPre) : null;
      if (from && to) {
        if (!hy) return `invalid hyphen range \`${part}\``;
        set = hy;
      } else {
        const toks = part.replace(OP_TRIM, '$1').split(' ');
        for (const tok of toks) {
          const r = parseToken(tok, incPre);
          if (typeof r === 'string') return r;
          for (const cmp of r) set.push(cmp);
        }
      }
    }
    // node-semver re-parses every desugared comparator: a bound past MAX_SAFE_INTEGER (`^9007199254740991`
    // -> `<9007199254740992.0.0-0`) makes the range invalid.
    for (const cmp of set)
      if (cmp.v !== null && (cmp.v.major > MAX_SAFE || cmp.v.minor > MAX_SAFE || cmp.v.patch > MAX_SAFE))
        return `number too large in \`${part}\``;
    const nul = set.find(isNullSet);
    if (nul) set = [nul];
    else if (set.length > 1) {
      const real = set.filter((x) => x.v !== null);
      set = real.length ? real : [ANY];
    }
    sets.push(set);
  }
  if (sets.length > 1) {
    const nonNull = sets.filter((s) => !isNullSet(s[0]!));
    sets = nonNull.length ? nonNull : [sets[0]!];
    const any = sets.find((s) => s.length === 1 && s[0]!.v === null);
    if (any) sets = [any];
  }
  return sets;
}

function testComparator(cmp: NpmComparator, v: NpmVersion): boolean {
  if (cmp.v === null) return true;
  const r = compareNpm(v, cmp.v);
  switch (cmp.op) {
    case '':
      return r === 0;
    case '<':
      return r < 0;
    case '<=':
      return r <= 0;
    case '>':
      return r > 0;
    default:
      return r >= 0;
  }
}

export function testNpmSets(sets: readonly (readonly NpmComparator[])[], v: NpmVersion, incPre: boolean): boolean {
  outer: for (const set of sets) {
    for (const cmp of set) if (!testComparator(cmp, v)) continue outer;
    if (v.pre.length && !incPre) {
      for (const cmp of set) {
        const cv = cmp.v;
        if (cv !== null && cv.pre.length > 0 && cv.major === v.major && cv.minor === v.minor && cv.patch === v.patch) {
          return true;
        }
      }
      continue;
    }
    return true;
  }
  return false;
}

function parseRequirement(text: string, opts: RequirementOptions): ParseResult {
  const incPre = opts.includePrerelease === true;
  return compiled(text, parseNpmRange(text, incPre), parseNpmVersion, (sets, v) => testNpmSets(sets, v, incPre));
}

export const NPM: Scheme<NpmVersion> = {
  parse: parseNpmVersion,
  compare: compareNpm,
  canon: canonNpm,
  isPrerelease: (v) => v.pre.length > 0,
  parseRequirement,
};
