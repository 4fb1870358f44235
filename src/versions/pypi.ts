/**
 * PyPI versions and specifiers, following PEP 440 as implemented by pypa/packaging (Version,
 * Specifier, SpecifierSet) — what pip uses (checked against packaging 26.2 by
 * tools/conformance-native.ts).
 *
 * Versions: packaging's VERSION_PATTERN (case-insensitive, surrounding whitespace in Python's
 * sense allowed, optional `v`): `[N!]N(.N)*[{a|b|rc}N][.postN][.devN][+local]` with all
 * alternative spellings (`alpha`, `c`, `pre`, `preview`, `-N` post, `rev`, `r`, separators `.`,
 * `-`, `_`, implicit numbers 0). Numbers are exact (a JS number up to 2^53-1, a bigint above).
 * Ordering is packaging's _cmpkey: epoch, release with trailing zeros ignored, then pre/post/dev
 * (a dev release of a final sorts before its prereleases), then local (none < any; numeric local
 * segments > alphanumeric ones).
 * Canonical spelling (deps.dev): packaging's normalised string with the release padded to at
 * least three components (`3.0` -> `3.0.0`, `1.0.0-alpha` -> `1.0.0a0`).
 *
 * Specifiers: SpecifierSet splits on commas, strips each clause and ignores empty ones; each clause
 * must match packaging's Specifier regex, whose branches are PEP 440's per-operator grammar:
 * `===` any text without whitespace, `;` or `)`; `==`/`!=` a local part or a `.*` wildcard
 * directly after the release (none after a pre/post/dev part); `~=` at least two release numbers,
 * no local part; `<`, `<=`, `>`, `>=` neither. Operators: `~=`, `==` (`.*` prefix matching,
 * local-version rules), `!=`, `<=`, `>=`, `<`, `>` (exclusive-order rules for pre/post/local
 * releases), `===` (case-insensitive identity with the candidate text as given, as packaging 26: before 26
 * it compared the normalised candidate, so `9.1.2.dev.2` missed `===9.1.2.dev.2`; native-spot-vectors.test.ts).
 * Prerelease policy of the per-version predicate: prereleases (pre or dev) match only when
 * requested or when some clause names a prerelease (`!=` and `==X.*` do not count), i.e.
 * `SpecifierSet.contains(v, prereleases=bool(set.prereleases))`. packaging >= 25's default
 * `contains(v)` treats the lone candidate as "the only version" and admits prereleases: that
 * list-level rule is applied by index.ts maxSatisfying, not by the per-version predicate.
 *
 * Numbers are unbounded, as packaging's (deps.dev caps them at int64 and its parse vectors reject
 * `1.2.9223372036854775807`: those vectors are expected failures, the tool wins).
 *
 * Validity is packaging's (issue 14): a clause holding several specifiers separated by whitespace
 * (`>=2.0.0 <3.0.0`) is an error; deps.dev's match vectors that need it are listed in
 * expected-failures.ts.
 * Known divergences from deps.dev (native wins, listed in expected-failures.ts): deps.dev never
 * matches `+local` candidates unless the clause names one, and a `>X` clause with a prerelease X
 * disables prereleases.
 *
 * Exports beyond the Scheme: parsePypiVersion, parseSpecifierSet, specifierContains.
 */
import { compiled, type ParseResult, type RequirementOptions, type Scheme } from './types.ts';

/** A number: a JS number up to 2^53-1, a bigint above (one representation per value, so `===` works). */
export type PyNum = number | bigint;

export interface PypiVersion {
  readonly epoch: PyNum;
  readonly release: readonly PyNum[];
  readonly pre: readonly [string, PyNum] | null; // ['a'|'b'|'rc', n]
  readonly post: PyNum | null;
  readonly dev: PyNum | null;
  readonly local: readonly (string | PyNum)[] | null;
}

/** Python's `\s` on str (what packaging's surrounding `\s*` strips): Unicode whitespace, not U+FEFF. */
const PY_WS = '[\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';

const VERSION_RE = new RegExp(
  `^${PY_WS}*v?(?:(?:([0-9]+)!)?([0-9]+(?:\\.[0-9]+)*)([-_.]?(alpha|a|beta|b|preview|pre|c|rc)[-_.]?([0-9]+)?)?((?:-([0-9]+))|(?:[-_.]?(post|rev|r)[-_.]?([0-9]+)?))?([-_.]?(dev)[-_.]?([0-9]+)?)?)(?:\\+([a-z0-9]+(?:[-_.][a-z0-9]+)*))?${PY_WS}*$`,
  'i',
);

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Digits to a number, unbounded as packaging's (exact: bigint above 2^53-1). */
function num(s: string): PyNum | null {
  if (s.length <= 15) return Number(s);
  const b = BigInt(s);
  return b <= SAFE ? Number(b) : b;
}

export function parsePypiVersion(text: string): PypiVersion | null {
  if (typeof text !== 'string') return null;
  const m = VERSION_RE.exec(text);
  if (!m) return null;
  const release: PyNum[] = [];
  for (const part of m[2]!.split('.')) {
    const n = num(part);
    if (n === null) return null;
    release.push(n);
  }
  let pre: [string, PyNum] | null = null;
  if (m[3]) {
    const l = m[4]!.toLowerCase();
    const label = l === 'alpha' || l === 'a' ? 'a' : l === 'beta' || l === 'b' ? 'b' : 'rc';
    const n = m[5] ? num(m[5]) : 0;
    if (n === null) return null;
    pre = [label, n];
  }
  let post: PyNum | null = null;
  if (m[6]) {
    post = m[7] ? num(m[7]) : m[9] ? num(m[9]) : 0;
    if (post === null) return null;
  }
  let dev: PyNum | null = null;
  if (m[10]) {
    dev = m[12] ? num(m[12]) : 0;
    if (dev === null) return null;
  }
  let local: (string | PyNum)[] | null = null;
  if (m[13]) {
    local = [];
    for (const p of m[13].toLowerCase().split(/[-_.]/)) {
      if (/^[0-9]+$/.test(p)) {
        const n = num(p);
        if (n === null) return null;
        local.push(n);
      } else local.push(p);
    }
  }
  let epoch: PyNum = 0;
  if (m[1]) {
    const e = num(m[1]);
    if (e === null) return null;
    epoch = e;
  }
  return { epoch, release, pre, post, dev, local };
}

function cmpNums(a: readonly PyNum[], b: readonly PyNum[]): number {
  let la = a.length;
  let lb = b.length;
  while (la > 0 && a[la - 1] === 0) la--;
  while (lb > 0 && b[lb - 1] === 0) lb--;
  const n = Math.min(la, lb);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return la === lb ? 0 : la < lb ? -1 : 1;
}

const PRE_ORDER: Record<string, number> = { a: 0, b: 1, rc: 2 };

function cmpPublic(a: PypiVersion, b: PypiVersion): number {
  if (a.epoch !== b.epoch) return a.epoch < b.epoch ? -1 : 1;
  const r = cmpNums(a.release, b.release);
  if (r !== 0) return r;
  // pre key: dev-only final -> -inf; no pre -> +inf
  const pa = a.pre === null ? (a.post === null && a.dev !== null ? -Infinity : Infinity) : 0;
  const pb = b.pre === null ? (b.post === null && b.dev !== null ? -Infinity : Infinity) : 0;
  if (pa !== pb) return pa < pb ? -1 : 1;
  if (a.pre && b.pre) {
    const la = PRE_ORDER[a.pre[0]]!;
    const lb = PRE_ORDER[b.pre[0]]!;
    if (la !== lb) return la < lb ? -1 : 1;
    if (a.pre[1] !== b.pre[1]) return a.pre[1] < b.pre[1] ? -1 : 1;
  }
  const qa = a.post ?? -Infinity;
  const qb = b.post ?? -Infinity;
  if (qa !== qb) return qa < qb ? -1 : 1;
  const da = a.dev ?? Infinity;
  const db = b.dev ?? Infinity;
  if (da !== db) return da < db ? -1 : 1;
  return 0;
}

function cmpLocal(a: PypiVersion['local'], b: PypiVersion['local']): number {
  if (a === null) return b === null ? 0 : -1;
  if (b === null) return 1;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    const xn = typeof x === 'number';
    const yn = typeof y === 'number';
    if (xn !== yn) return xn ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

export function comparePypi(a: PypiVersion, b: PypiVersion): number {
  return cmpPublic(a, b) || cmpLocal(a.local, b.local);
}

function publicString(v: PypiVersion, minRelease: number): string {
  let s = v.epoch ? `${v.epoch}!` : '';
  const rel = v.release.slice();
  while (rel.length < minRelease) rel.push(0);
  s += rel.join('.');
  if (v.pre) s += v.pre[0] + v.pre[1];
  if (v.post !== null) s += `.post${v.post}`;
  if (v.dev !== null) s += `.dev${v.dev}`;
  return s;
}

function canonPypi(v: PypiVersion): string {
  return publicString(v, 3) + (v.local ? `+${v.local.join('.')}` : '');
}

function isPre(v: PypiVersion): boolean {
  return v.pre !== null || v.dev !== null;
}

// ---- specifiers ---------------------------------------------------------------------------

export type PypiOp = '~=' | '==' | '!=' | '<=' | '>=' | '<' | '>' | '===';

export interface PypiSpecifier {
  readonly op: PypiOp;
  readonly text: string; // the version text as written
  readonly version: PypiVersion | null; // null only for `===` with a non-PEP 440 string
  readonly wildcard: boolean;
}

// packaging 26's Specifier._regex, branch by branch (PEP 440's grammar for each operator):
// `===` takes any text without whitespace, `;` or `)` (even none); `==`/`!=` take a version with a
// local part or a `.*` wildcard directly after the release; `~=` needs two release numbers and no
// local part; `<`, `<=`, `>`, `>=` take neither a local part nor a wildcard.
const V_HEAD = 'v?(?:[0-9]+!)?[0-9]+';
const V_PRE = '(?:[-_.]?(?:alpha|beta|preview|pre|a|b|c|rc)[-_.]?[0-9]*)?';
const V_POST = '(?:(?:-[0-9]+)|(?:[-_.]?(?:post|rev|r)[-_.]?[0-9]*))?';
const V_DEV = '(?:[-_.]?dev[-_.]?[0-9]*)?';
const V_LOCAL = '(?:\\+[a-z0-9]+(?:[-_.][a-z0-9]+)*)?';
const SPEC_RE = new RegExp(
  `^${PY_WS}*(?:` +
    `(===)${PY_WS}*([^\\s;)]*)` +
    `|(==|!=)${PY_WS}*(${V_HEAD}(?:\\.[0-9]+)*(?:\\.\\*|${V_PRE}${V_POST}${V_DEV}${V_LOCAL}))` +
    `|(~=)${PY_WS}*(${V_HEAD}(?:\\.[0-9]+)+${V_PRE}${V_POST}${V_DEV})` +
    `|(<=|>=|<|>)${PY_WS}*(${V_HEAD}(?:\\.[0-9]+)*${V_PRE}${V_POST}${V_DEV})` +
    `)${PY_WS}*$`,
  'i',
);

function parseSpecifier(raw: string): PypiSpecifier | string {
  const m = SPEC_RE.exec(raw);
  if (!m) return `invalid specifier \`${raw}\``;
  const op = (m[1] ?? m[3] ?? m[5] ?? m[7]) as PypiOp;
  let vt = (m[2] ?? m[4] ?? m[6] ?? m[8])!;
  if (op === '===') return { op, text: vt, version: parsePypiVersion(vt), wildcard: false };
  let wildcard = false;
  if (vt.endsWith('.*')) {
    wildcard = true;
    vt = vt.slice(0, -2);
  }
  const v = parsePypiVersion(vt);
  if (!v) return `invalid version \`${vt}\` in \`${raw}\``;
  return { op, text: vt, version: v, wildcard };
}

function stripLocal(v: PypiVersion): PypiVersion {
  return v.local === null ? v : { ...v, local: null };
}

function baseOf(v: PypiVersion): PypiVersion {
  return { epoch: v.epoch, release: v.release, pre: null, post: null, dev: null, local: null };
}

function prefixMatch(spec: PypiVersion, cand: PypiVersion): boolean {
  if (spec.epoch !== cand.epoch) return false;
  const sr = spec.release;
  const cr = cand.release;
  for (let i = 0; i < sr.length; i++) if ((cr[i] ?? 0) !== sr[i]) return false;
  // A wildcard spec with pre/post parts (`==1.0rc1.*`, rare) must also match those exactly.
  if (spec.pre !== null || spec.post !== null) {
    if (cr.length > sr.length && cr.slice(sr.length).some((x) => x !== 0)) return false;
    if (spec.pre !== null && (cand.pre === null || cand.pre[0] !== spec.pre[0] || cand.pre[1] !== spec.pre[1]))
      return false;
    if (spec.post !== null && cand.post !== spec.post) return false;
  }
  return true;
}

function equalSpec(s: PypiSpecifier, cand: PypiVersion): boolean {
  const sv = s.version!;
  if (s.wildcard) return prefixMatch(sv, stripLocal(cand));
  if (sv.local === null) return comparePypi(stripLocal(cand), sv) === 0;
  return comparePypi(cand, sv) === 0;
}

export function specifierContains(s: PypiSpecifier, cand: PypiVersion, candText: string): boolean {
  const sv = s.version;
  switch (s.op) {
    case '===':
      return candText.toLowerCase() === s.text.toLowerCase();
    case '==':
      return equalSpec(s, cand);
    case '!=':
      return !equalSpec(s, cand);
    case '<=':
      return comparePypi(stripLocal(cand), sv!) <= 0;
    case '>=':
      return comparePypi(stripLocal(cand), sv!) >= 0;
    case '<': {
      if (!(comparePypi(cand, sv!) < 0)) return false;
      if (!isPre(sv!) && isPre(cand) && comparePypi(baseOf(cand), baseOf(sv!)) === 0) return false;
      return true;
    }
    case '>': {
      if (!(comparePypi(cand, sv!) > 0)) return false;
      if (sv!.post === null && cand.post !== null && comparePypi(baseOf(cand), baseOf(sv!)) === 0) return false;
      if (cand.local !== null && comparePypi(baseOf(cand), baseOf(sv!)) === 0) return false;
      return true;
    }
    case '~=': {
      const prefix: PypiVersion = { ...baseOf(sv!), epoch: sv!.epoch, release: sv!.release.slice(0, -1) };
      return comparePypi(stripLocal(cand), sv!) >= 0 && prefixMatch(prefix, stripLocal(cand));
    }
  }
}

/** Whether a specifier on its own admits prereleases (packaging's Specifier.prereleases). */
function allowsPre(s: PypiSpecifier): boolean {
  if (s.op === '!=') return false;
  return s.version !== null && isPre(s.version);
}

export interface SpecifierSet {
  readonly specs: readonly PypiSpecifier[];
  readonly prereleases: boolean;
}

/** Python's str.strip() whitespace. */
const PY_WS_RE = new RegExp(`^${PY_WS}+|${PY_WS}+$`, 'g');

/**
 * SpecifierSet(text): comma-separated clauses, each stripped, empty ones ignored (packaging). A
 * clause is one specifier: `>=1.0 <2.0` is an error, as packaging's (deps.dev reads it as two).
 */
export function parseSpecifierSet(text: string): SpecifierSet | string {
  if (typeof text !== 'string') return 'specifier must be a string';
  const specs: PypiSpecifier[] = [];
  for (const clause of text.split(',')) {
    const c = clause.replace(PY_WS_RE, '');
    if (c === '') continue;
    const s = parseSpecifier(c);
    if (typeof s === 'string') return s;
    specs.push(s);
  }
  return { specs, prereleases: specs.some(allowsPre) };
}

export function specifierSetContains(
  set: SpecifierSet,
  cand: PypiVersion,
  candText: string,
  includePre: boolean,
): boolean {
  if (!includePre && !set.prereleases && isPre(cand)) return false;
  for (const s of set.specs) if (!specifierContains(s, cand, candText)) return false;
  return true;
}

function parseRequirement(text: string, opts: RequirementOptions): ParseResult {
  const inc = opts.includePrerelease === true;
  return compiled(text, parseSpecifierSet(text), parsePypiVersion, (set, v, raw) =>
    specifierSetContains(set, v, raw, inc),
  );
}

export const PYPI: Scheme<PypiVersion> = {
  parse: parsePypiVersion,
  compare: comparePypi,
  canon: canonPypi,
  isPrerelease: isPre,
  parseRequirement,
};
