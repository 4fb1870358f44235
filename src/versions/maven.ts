/**
 * Maven versions and version ranges.
 *
 * Ordering is a port of Maven's `ComparableVersion` (maven-artifact): the lowercased version is
 * split into items at `.` and `-` and at digit/letter transitions; `-` and a transition open a
 * nested list; numbers compare numerically; strings are qualifiers ordered alpha < beta <
 * milestone < rc (= cr) < snapshot < "" (= ga = final = release) < sp < unknown (lexical);
 * `a1`/`b1`/`m1` mean alpha-1/beta-1/milestone-1; trailing null items (0, "", empty lists) are
 * dropped (normalize). Item-vs-item: int > list > string, so `1-alpha` < `1`, `1-sp` > `1`,
 * `1.foo` < `1-foo`. Transition rule: Maven 3.6-3.8's (a letter->digit transition does not first
 * open a list, and a trailing `.X` is not rewritten to `-X` as 3.9 does), with 3.8's `release`
 * alias: this combination reproduces all 14,752 comparisons OSV generated with the native
 * ComparableVersion and deps.dev's Maven vectors (3.9's rules disagree with 18 of the generated
 * lines, e.g. `6.1.12.rc5` < `6.1.12rc1`).
 * Any non-empty string without whitespace is a valid Maven version. Like Maven's own class, the
 * order is not transitive for some letter-first oddities (`post`, `post0.alpha`, `post.x0`); it is
 * for versions that start with a number, which the property tests check.
 *
 * Canonical spelling (deps.dev): Maven 3.6's `getCanonical()` without the `release` alias
 * (`RELEASE120` -> `release-120`, `1.0.0-a1` -> `1-alpha-1`), keeping numbers as written.
 *
 * Ranges: `VersionRange.createFromVersionSpec`: a comma-separated list of `[a,b]`, `(a,b)`, `[a,)`,
 * `(,b]`, `[v]` restrictions (no overlaps, ascending) or a bare soft requirement `1.0`. A soft
 * requirement is only a recommendation in Maven: `matches` accepts every version (Maven's
 * containsVersion), `isSoftRequirement`/`parseMavenRange().soft` expose it for resolvers that
 * prefer the recommended version. Deviation (deps.dev): a soft requirement containing a bracket or
 * a comma (`)`) is rejected instead of being taken as a literal version.
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
  if (value === 'ga' || value === 'final' || (mode === 'order' && value === 'release')) v = '';
  else if (value === 'cr') v = 'rc';
  // canon prints a kept null qualifier (`0.ga.1`) as written so the spelling re-parses the same.
  return { t: 1, v, raw: v === '' ? value : v };
}

function intItem(buf: string): IntItem {
  let i = 0;
  while (i < buf.length - 1 && buf.charCodeAt(i) === 48) i++;
  return { t: 0, v: buf.length === 0 ? '0' : buf.slice(i), raw: buf };
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

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function parseItem(isDig: boolean, buf: string, mode: Mode): Item {
  return isDig ? intItem(buf) : strItem(buf, false, mode);
}

type Mode = 'order' | 'canon';

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
  if (typeof text !== 'string' || text.length === 0 || /\s/.test(text)) return null;
  const items = parseItems(text, 'order');
  return { t: 2, items: items.items, text };
}

export function compareMaven(a: MavenVersion, b: MavenVersion): number {
  return compareItem(a, b);
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

function parseRestriction(spec: string): MavenRestriction | string {
  const lowerInclusive = spec.startsWith('[');
  const upperInclusive = spec.endsWith(']');
  const process = spec.slice(1, -1).trim();
  const idx = process.indexOf(',');
  if (idx < 0) {
    if (!lowerInclusive || !upperInclusive) return `hard requirement must be closed on both ends in \`${spec}\``;
    const v = parseMavenVersion(process);
    if (!v) return `invalid version in \`${spec}\``;
    return { lower: v, lowerInclusive, upper: v, upperInclusive };
  }
  const lo = process.slice(0, idx).trim();
  const hi = process.slice(idx + 1).trim();
  const lower = lo ? parseMavenVersion(lo) : null;
  const upper = hi ? parseMavenVersion(hi) : null;
  if ((lo && !lower) || (hi && !upper)) return `invalid version in \`${spec}\``;
  if (lower && upper) {
    const r = compareMaven(upper, lower);
    if (r < 0 || (r === 0 && (!lowerInclusive || !upperInclusive))) return `range defies version ordering: \`${spec}\``;
  }
  return { lower, lowerInclusive, upper, upperInclusive };
}

export function parseMavenRange(spec: string): MavenRange | string {
  if (typeof spec !== 'string') return 'requirement must be a string';
  let process = spec.trim();
  if (process === '') return 'invalid empty constraint';
  const restrictions: MavenRestriction[] = [];
  let upperBound: MavenVersion | null = null;
  while (process.startsWith('[') || process.startsWith('(')) {
    const i1 = process.indexOf(')');
    const i2 = process.indexOf(']');
    let index = i2;
    if (i2 < 0 || i1 < i2) if (i1 >= 0) index = i1;
    if (index < 0) return `expected comma or closing bracket in \`${spec}\``;
    const r = parseRestriction(process.slice(0, index + 1));
    if (typeof r === 'string') return r;
    if (upperBound !== null && (r.lower === null || compareMaven(r.lower, upperBound) < 0)) {
      return `ranges overlap in \`${spec}\``;
    }
    restrictions.push(r);
    upperBound = r.upper;
    process = process.slice(index + 1).trim();
    if (process.startsWith(',')) process = process.slice(1).trim();
  }
  if (process.length > 0) {
    if (restrictions.length > 0) return `unexpected text \`${process}\` after ranges in \`${spec}\``;
    if (/[[\](),]/.test(process)) return `unexpected bracket in \`${spec}\``;
    const v = parseMavenVersion(process);
    if (!v) return `invalid version in \`${spec}\``;
    return { soft: v, restrictions: [] };
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
