/**
 * Maven versions and version ranges, following maven-artifact 3.8.7 (ComparableVersion,
 * DefaultArtifactVersion, VersionRange; the jar of the installed Maven, /usr/share/maven/lib/),
 * checked by tools/conformance-native.ts. The rules below are restated from that class's behaviour.
 *
 * Ordering (ComparableVersion): the version is lowercased (Locale.ENGLISH) and read left to right
 * into items: `.` ends an item, `-` ends one and opens a nested list, a digit/letter transition
 * ends one and opens a nested list; an empty item before a separator is 0. Digits are any Unicode
 * decimal digit (Java's Character.isDigit) and a number is exact at any size (Maven's int/long/
 * BigInteger items compare by value). Letters are qualifiers: a single `a`/`b`/`m` directly followed
 * by a digit means alpha/beta/milestone; `ga`, `final`, `release` mean "" and `cr` means `rc`;
 * qualifiers order alpha < beta < milestone < rc < snapshot < "" < sp < any other (lexically). Each
 * list drops its trailing null items (0, "", empty lists). Comparing: number > list > qualifier,
 * numbers numerically, lists item by item (a missing item compares as null: `1.0` == `1`,
 * `1-alpha` < `1`, `1-sp` > `1`, `1.foo` < `1-foo`). Like Maven's own class, the order is not
 * transitive on some letter-first strings (`0.alpha` > ` ` > `0` > `0.alpha`); it is for versions
 * that start with a number, which the property tests check.
 * Validity: every non-empty string is a version (whitespace and all, as ComparableVersion takes it).
 *
 * Canonical spelling (deps.dev): Maven 3.6's `getCanonical()` without the `release` alias
 * (`RELEASE120` -> `release-120`, `1.0.0-a1` -> `1-alpha-1`), keeping numbers as written.
 *
 * Ranges (VersionRange.createFromVersionSpec): while the text starts with `[` or `(`, a restriction
 * runs to the first `)` or `]` (`[a,b]`, `(a,b)`, `[a,)`, `(,b]`, `[v]`; bounds split at the first
 * comma and trimmed as Java's String.trim, lower <= upper), then the rest is trimmed and an
 * optional comma skipped; restrictions must not overlap. Text left over is an error after
 * restrictions; alone it is a soft requirement (any text, not trimmed): only a recommendation in
 * Maven, so `matches` accepts every version (containsVersion); `isSoftRequirement` /
 * `parseMavenRange().soft` expose it for resolvers that prefer the recommended version.
 *
 * Everything is maven-artifact 3.8.7's, the Maven installed here and the one the Maven graph tests
 * compare with (issue 14): MNG-7644 applies (a qualifier after other items opens its own list, so
 * `1.0.0.SNAPSHOT` == `1.0.0-SNAPSHOT`, `1.CR1` == `1-CR1`, `6.1.12.rc5` > `6.1.12rc1`); the empty
 * string is a version equal to `0`; the empty spec is a range that matches nothing; a soft
 * requirement may start with `)` or `]` (a literal version). deps.dev's vectors expect the earlier
 * order (its `1.foo` < `1-foo`, 18 lines OSV generated with the pre-3.8.7 class) and reject the
 * empty version and spec: they are listed with this reason in test/unit/versions/expected-failures.ts.
 * `[1.0][2.0]` (adjacent restrictions) is accepted as Maven does (listed in expected-failures.ts).
 */
import { compiled, type ParseResult, type Scheme } from './types.ts';

type Item = IntItem | StrItem | ListItem;
interface IntItem {
  readonly t: 0;
  readonly v: string; // digits without leading zeros ('0' for zero)
  readonly raw: string; // digits as written (deps.dev's canon keeps them)
}
interface StrItem {
  readonly t: 1;
  readonly v: string; // value after aliasing, used for ordering
  readonly raw: string; // spelling used by canon
}
interface ListItem {
  readonly t: 2;
  readonly items: Item[];
}

export type MavenVersion = ListItem & { readonly text: string };

/**
 * Maven 3.8.7's MNG-7644 rule: a qualifier after other items (`1.0.rc1`, trailing `1.0.SNAPSHOT`)
 * opens its own list, so `.X` reads as `-X`. On, as in the Maven this module follows; off gives the
 * pre-3.8.7 order that deps.dev's vectors were written against.
 */
const MNG_7644 = true;

const QUALIFIERS = ['alpha', 'beta', 'milestone', 'rc', 'snapshot', '', 'sp'];
const RELEASE_INDEX = '5';

function comparableQualifier(q: string): string {
  const i = QUALIFIERS.indexOf(q);
  return i === -1 ? `${QUALIFIERS.length}-${q}` : String(i);
}

function cmpStr(a: string, b: string): number {
  return a === b ? 0 : a < b ? -1 : 1;
}

function strItem(value: string, followedByDigit: boolean, mode: Mode): StrItem {
  if (followedByDigit && value.length === 1) {
    if (value === 'a') value = 'alpha';
    else if (value === 'b') value = 'beta';
    else if (value === 'm') value = 'milestone';
  }
  let v = value;
  if (value === 'ga' || value === 'final' || (mode !== 'canon' && value === 'release')) v = '';
  else if (value === 'cr') v = 'rc';
  // canon prints a kept null qualifier (`0.ga.1`) as written so the spelling re-parses the same.
  return { t: 1, v, raw: v === '' ? value : v };
}

/** Zero code point of each run of ten BMP decimal digits (Java's Character.isDigit/digit), built on first use. */
let digitZeros: Uint16Array | null = null;

function digitZero(c: number): number {
  if (digitZeros === null) {
    digitZeros = new Uint16Array(65536);
    const nd = /\p{Nd}/u;
    let start = -1;
    for (let x = 0; x < 65536; x++) {
      if (x >= 0xd800 && x <= 0xdfff) continue;
      if (nd.test(String.fromCharCode(x))) {
        if (start < 0 || x - start >= 10 || !nd.test(String.fromCharCode(x - 1))) start = x;
        digitZeros[x] = start;
      } else start = -1;
    }
  }
  return digitZeros[c]!;
}

/** Java's Character.isDigit on one UTF-16 unit: any Unicode decimal digit of the BMP. */
function isDigit(c: number): boolean {
  if (c < 128) return c >= 48 && c <= 57;
  return (c < 0xd800 || c > 0xdfff) && digitZero(c) !== 0;
}

/** A number item: its value as ASCII digits without leading zeros (Maven keeps it exact: int/long/BigInteger). */
function intItem(buf: string): IntItem {
  let digits = '';
  for (let i = 0; i < buf.length; i++) {
    const c = buf.charCodeAt(i);
    digits += c < 128 ? buf[i] : String(c - digitZero(c));
  }
  let i = 0;
  while (i < digits.length - 1 && digits.charCodeAt(i) === 48) i++;
  return { t: 0, v: digits.length === 0 ? '0' : digits.slice(i), raw: buf };
}

const ZERO: IntItem = { t: 0, v: '0', raw: '0' };

function isNull(it: Item): boolean {
  if (it.t === 0) return it.v === '0';
  if (it.t === 1) return comparableQualifier(it.v) === RELEASE_INDEX;
  return it.items.length === 0;
}

function normalize(list: ListItem): void {
  const items = list.items;
  for (let i = items.length - 1; i >= 0; i--) {
    const last = items[i]!;
    if (isNull(last)) items.splice(i, 1);
    else if (last.t !== 2) break;
  }
}

function parseItem(isDig: boolean, buf: string, mode: Mode): Item {
  return isDig ? intItem(buf) : strItem(buf, false, mode);
}

/** `order`: the ordering used here; `order387`: with MNG_7644 (Maven 3.8.7 exactly); `canon`: deps.dev's spelling. */
type Mode = 'order' | 'order387' | 'canon';

function parseItems(version: string, mode: Mode): ListItem {
  const root: ListItem = { t: 2, items: [] };
  let list = root;
  const stack: ListItem[] = [root];
  const s = version.toLowerCase();
  let dig = false;
  let start = 0;
  const open = (): void => {
    const nl: ListItem = { t: 2, items: [] };
    list.items.push(nl);
    list = nl;
    stack.push(nl);
  };
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 46) {
      list.items.push(i === start ? ZERO : parseItem(dig, s.slice(start, i), mode));
      start = i + 1;
    } else if (c === 45) {
      list.items.push(i === start ? ZERO : parseItem(dig, s.slice(start, i), mode));
      start = i + 1;
      open();
    } else if (isDigit(c)) {
      if (!dig && i > start) {
        // 3.8.7 (MNG-7644): a qualifier that follows other items gets its own list, so `1.0.rc1`
        // and `1.0-rc1` read the same ([1, [rc, [1]]]). Off: see MNG_7644.
        if (((MNG_7644 && mode === 'order') || mode === 'order387') && list.items.length > 0) open();
        list.items.push(strItem(s.slice(start, i), true, mode));
        start = i;
        open();
      }
      dig = true;
    } else {
      if (dig && i > start) {
        list.items.push(parseItem(true, s.slice(start, i), mode));
        start = i;
        open();
      }
      dig = false;
    }
  }
  if (s.length > start) {
    // 3.8.7: so does a trailing qualifier (`1.0.0.SNAPSHOT` reads as `1-SNAPSHOT`).
    if (((MNG_7644 && mode === 'order') || mode === 'order387') && !dig && list.items.length > 0) open();
    list.items.push(parseItem(dig, s.slice(start), mode));
  }
  while (stack.length) normalize(stack.pop()!);
  return root;
}

function cmpInt(a: string, b: string): number {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return cmpStr(a, b);
}

function compareItem(a: Item, b: Item | null): number {
  if (a.t === 0) {
    if (b === null) return a.v === '0' ? 0 : 1;
    if (b.t === 0) return cmpInt(a.v, b.v);
    return 1;
  }
  if (a.t === 1) {
    if (b === null) return cmpStr(comparableQualifier(a.v), RELEASE_INDEX);
    if (b.t === 1) return cmpStr(comparableQualifier(a.v), comparableQualifier(b.v));
    return -1;
  }
  if (b === null) {
    for (const it of a.items) {
      const r = compareItem(it, null);
      if (r !== 0) return r;
    }
    return 0;
  }
  if (b.t === 0) return -1;
  if (b.t === 1) return 1;
  const la = a.items;
  const lb = b.items;
  const n = Math.max(la.length, lb.length);
  for (let i = 0; i < n; i++) {
    const l = la[i];
    const r = lb[i];
    const res = l === undefined ? (r === undefined ? 0 : -compareItem(r, null)) : compareItem(l, r ?? null);
    if (res !== 0) return res;
  }
  return 0;
}

function listToString(list: ListItem): string {
  let out = '';
  for (const it of list.items) {
    if (out.length > 0) out += it.t === 2 ? '-' : '.';
    out += it.t === 0 ? it.raw : it.t === 1 ? it.raw : listToString(it);
  }
  return out;
}

export function parseMavenVersion(text: string): MavenVersion | null {
  if (typeof text !== 'string') return null; // `` is a version too: ComparableVersion reads it as 0
  const items = parseItems(text, 'order');
  return { t: 2, items: items.items, text };
}

export function compareMaven(a: MavenVersion, b: MavenVersion): number {
  return compareItem(a, b);
}

/**
 * Maven 3.8.7's own ComparableVersion order (MNG_7644 on), for callers and the differential
 * harness that want the installed tool's answer rather than the vectors'.
 */
export function compareMaven387(a: string, b: string): number {
  return compareItem(parseItems(a, 'order387'), parseItems(b, 'order387'));
}

function canonMaven(v: MavenVersion): string {
  // A version whose items all normalise away (`0`, `ga`) keeps its (lowercased) spelling.
  return listToString(parseItems(v.text, 'canon')) || v.text.toLowerCase();
}

/** A release in Maven's sense: no qualifier that sorts below "" (alpha/beta/milestone/rc/snapshot). */
function isPrereleaseMaven(v: MavenVersion): boolean {
  let pre = false;
  const walk = (l: ListItem): void => {
    for (const it of l.items) {
      if (it.t === 1) {
        const q = comparableQualifier(it.v);
        if (q < RELEASE_INDEX) pre = true;
      } else if (it.t === 2) walk(it);
    }
  };
  walk(v);
  return pre;
}

// ---- ranges -------------------------------------------------------------------------------

export interface MavenRestriction {
  readonly lower: MavenVersion | null;
  readonly lowerInclusive: boolean;
  readonly upper: MavenVersion | null;
  readonly upperInclusive: boolean;
}

export interface MavenRange {
  readonly soft: MavenVersion | null; // recommended version of a soft requirement
  readonly restrictions: readonly MavenRestriction[];
}

/** Java's String.trim(): strips code units <= U+0020 (not NBSP or other Unicode spaces). */
function javaTrim(s: string): string {
  let i = 0;
  let j = s.length;
  while (i < j && s.charCodeAt(i) <= 32) i++;
  while (j > i && s.charCodeAt(j - 1) <= 32) j--;
  return s.slice(i, j);
}

/** Any string is a Maven version to DefaultArtifactVersion (inside ranges, bounds are trimmed). */
function rangeVersion(text: string): MavenVersion {
  return { t: 2, items: parseItems(text, 'order').items, text };
}

function parseRestriction(spec: string): MavenRestriction | string {
  const lowerInclusive = spec.startsWith('[');
  const upperInclusive = spec.endsWith(']');
  const process = javaTrim(spec.slice(1, -1));
  const idx = process.indexOf(',');
  if (idx < 0) {
    if (!lowerInclusive || !upperInclusive) return `hard requirement must be closed on both ends in \`${spec}\``;
    const v = rangeVersion(process);
    return { lower: v, lowerInclusive, upper: v, upperInclusive };
  }
  const lo = javaTrim(process.slice(0, idx));
  const hi = javaTrim(process.slice(idx + 1));
  const lower = lo ? rangeVersion(lo) : null;
  const upper = hi ? rangeVersion(hi) : null;
  if (lower && upper) {
    const r = compareMaven(upper, lower);
    if (r < 0 || (r === 0 && (!lowerInclusive || !upperInclusive))) return `range defies version ordering: \`${spec}\``;
  }
  return { lower, lowerInclusive, upper, upperInclusive };
}

/**
 * VersionRange.createFromVersionSpec (3.8.7): restrictions are read while the text starts with `[`
 * or `(` (each up to the first `)` or `]`, then trimmed, then an optional comma); leftover text is a
 * soft requirement only when there were no restrictions. The empty spec is a range matching nothing,
 * and a soft requirement may start with a closing bracket (a literal version such as `)`), as Maven.
 */
export function parseMavenRange(spec: string): MavenRange | string {
  if (typeof spec !== 'string') return 'requirement must be a string';
  let process = spec;
  const restrictions: MavenRestriction[] = [];
  let upperBound: MavenVersion | null = null;
  while (process.startsWith('[') || process.startsWith('(')) {
    const i1 = process.indexOf(')');
    const i2 = process.indexOf(']');
    let index = i2;
    if ((i2 < 0 || i1 < i2) && i1 >= 0) index = i1;
    if (index < 0) return `expected comma or closing bracket in \`${spec}\``;
    const r = parseRestriction(process.slice(0, index + 1));
    if (typeof r === 'string') return r;
    if (upperBound !== null && (r.lower === null || compareMaven(r.lower, upperBound) < 0)) {
      return `ranges overlap in \`${spec}\``;
    }
    restrictions.push(r);
    upperBound = r.upper;
    process = javaTrim(process.slice(index + 1));
    if (process.startsWith(',')) process = javaTrim(process.slice(1));
  }
  if (process.length > 0) {
    if (restrictions.length > 0) return `unexpected text \`${process}\` after ranges in \`${spec}\``;
    return { soft: rangeVersion(process), restrictions: [] };
  }
  return { soft: null, restrictions };
}

export function restrictionContains(r: MavenRestriction, v: MavenVersion): boolean {
  if (r.lower) {
    const c = compareMaven(r.lower, v);
    if (c > 0 || (c === 0 && !r.lowerInclusive)) return false;
  }
  if (r.upper) {
    const c = compareMaven(r.upper, v);
    if (c < 0 || (c === 0 && !r.upperInclusive)) return false;
  }
  return true;
}

export function mavenRangeContains(range: MavenRange, v: MavenVersion): boolean {
  if (range.soft) return true;
  for (const r of range.restrictions) if (restrictionContains(r, v)) return true;
  return false;
}

/** True when the requirement is a bare (soft) version such as `1.0`, not a range. */
export function isSoftRequirement(spec: string): boolean {
  const r = parseMavenRange(spec);
  return typeof r !== 'string' && r.soft !== null;
}

function parseRequirement(text: string): ParseResult {
  return compiled(text, parseMavenRange(text), parseMavenVersion, mavenRangeContains);
}

export const MAVEN: Scheme<MavenVersion> = {
  parse: parseMavenVersion,
  compare: compareMaven,
  canon: canonMaven,
  isPrerelease: isPrereleaseMaven,
  parseRequirement,
};
