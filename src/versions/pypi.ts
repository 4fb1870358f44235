/**
 * PyPI versions and specifiers, following PEP 440 as implemented by pypa/packaging
 * (Version, Specifier, SpecifierSet) — what pip uses.
 *
 * Versions: packaging's VERSION_PATTERN (case-insensitive, surrounding whitespace allowed, optional
 * `v`): `[N!]N(.N)*[{a|b|rc}N][.postN][.devN][+local]` with all alternative spellings (`alpha`,
 * `c`, `pre`, `preview`, `-N` post, `rev`, `r`, separators `.`, `-`, `_`, implicit numbers 0).
 * Ordering is packaging's _cmpkey: epoch, release with trailing zeros ignored, then pre/post/dev
 * (a dev release of a final sorts before its prereleases), then local (none < any; numeric local
 * segments > alphanumeric ones).
 * Canonical spelling (deps.dev): packaging's normalised string with the release padded to at
 * least three components (`3.0` -> `3.0.0`, `1.0.0-alpha` -> `1.0.0a0`).
 *
 * Specifiers: clauses separated by commas (deps.dev also accepts whitespace between clauses; that
 * never changes the meaning of a valid PEP 440 specifier). Operators `~=`, `==` (with `.*`
 * prefix matching and local-version rules), `!=`, `<=`, `>=`, `<`, `>` (with the exclusive-order
 * rules for pre/post/local releases), `===` (string identity). SpecifierSet.contains: prereleases
 * (pre or dev) are excluded unless requested or some clause names a prerelease (`!=` does not
 * count). The "accept prereleases when they are the only match" rule of pip's filtering is applied
 * by index.ts maxSatisfying, not by the per-version predicate.
 * Known divergences from deps.dev (native wins): deps.dev never matches `+local` candidates
 * unless the clause names one, and a `>X` clause with a prerelease X disables prereleases.
 *
 * Exports beyond the Scheme: parsePypiVersion, parseSpecifierSet, specifierContains.
 */
import { compiled, type ParseResult, type RequirementOptions, type Scheme } from './types.ts';

export interface PypiVersion {
  readonly epoch: number;
  readonly release: readonly number[];
  readonly pre: readonly [string, number] | null; // ['a'|'b'|'rc', n]
  readonly post: number | null;
  readonly dev: number | null;
  readonly local: readonly (string | number)[] | null;
}

const VERSION_RE =
  /^\s*v?(?:(?:([0-9]+)!)?([0-9]+(?:\.[0-9]+)*)([-_.]?(alpha|a|beta|b|preview|pre|c|rc)[-_.]?([0-9]+)?)?((?:-([0-9]+))|(?:[-_.]?(post|rev|r)[-_.]?([0-9]+)?))?([-_.]?(dev)[-_.]?([0-9]+)?)?)(?:\+([a-z0-9]+(?:[-_.][a-z0-9]+)*))?\s*$/i;

function num(s: string): number {
  return Number(s);
}

export function parsePypiVersion(text: string): PypiVersion | null {
  if (typeof text !== 'string') return null;
  const m = VERSION_RE.exec(text);
  if (!m) return null;
  const release = m[2]!.split('.').map(num);
  if (release.some((n) => !Number.isSafeInteger(n))) return null;
  let pre: [string, number] | null = null;
  if (m[3]) {
    const l = m[4]!.toLowerCase();
    const label = l === 'alpha' || l === 'a' ? 'a' : l === 'beta' || l === 'b' ? 'b' : 'rc';
    pre = [label, m[5] ? num(m[5]) : 0];
  }
  let post: number | null = null;
  if (m[6]) post = m[7] ? num(m[7]) : m[9] ? num(m[9]) : 0;
  const dev = m[10] ? (m[12] ? num(m[12]) : 0) : null;
  const local = m[13] ? m[13].toLowerCase().split(/[-_.]/).map((p) => (/^[0-9]+$/.test(p) ? num(p) : p)) : null;
  return { epoch: m[1] ? num(m[1]) : 0, release, pre, post, dev, local };
}

function cmpNums(a: readonly number[], b: readonly number[]): number {
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
  if (v.post !== null) s += '.post' + v.post;
  if (v.dev !== null) s += '.dev' + v.dev;
  return s;
}

function canonPypi(v: PypiVersion): string {
  return publicString(v, 3) + (v.local ? '+' + v.local.join('.') : '');
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

const SPEC_RE = /^(~=|===|==|!=|<=|>=|<|>)\s*(\S+)$/;

function parseSpecifier(raw: string): PypiSpecifier | string {
  const m = SPEC_RE.exec(raw);
  if (!m) return raw.trim() === '' ? 'empty specifier' : `missing operator in \`${raw}\``;
  const op = m[1] as PypiOp;
  let vt = m[2]!;
  if (op === '===') return { op, text: vt, version: parsePypiVersion(vt), wildcard: false };
  let wildcard = false;
  if (vt.endsWith('.*')) {
    if (op !== '==' && op !== '!=') return `wildcard not allowed with ${op} in \`${raw}\``;
    wildcard = true;
    vt = vt.slice(0, -2);
  }
  const v = parsePypiVersion(vt);
  if (!v) return `invalid version \`${vt}\` in \`${raw}\``;
  if (wildcard && (v.local !== null || v.dev !== null)) return `invalid wildcard in \`${raw}\``;
  if ((op === '<' || op === '>' || op === '<=' || op === '>=' || op === '~=') && v.local !== null) {
    return `local version not allowed with ${op} in \`${raw}\``;
  }
  if (op === '~=' && v.release.length < 2) return `~= requires at least two release segments in \`${raw}\``;
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
    if (spec.pre !== null && (cand.pre === null || cand.pre[0] !== spec.pre[0] || cand.pre[1] !== spec.pre[1])) return false;
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
      return candText.trim().toLowerCase() === s.text.toLowerCase();
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

export function parseSpecifierSet(text: string): SpecifierSet | string {
  if (typeof text !== 'string') return 'specifier must be a string';
  const trimmed = text.trim();
  if (trimmed === '') return { specs: [], prereleases: false };
  if (/[|]/.test(trimmed)) return `invalid \`|\` in \`${text}\``;
  const specs: PypiSpecifier[] = [];
  // Clauses: split on commas, then on whitespace that starts a new operator.
  for (const clause of trimmed.split(',')) {
    const c = clause.trim();
    if (c === '') return `empty clause in \`${text}\``;
    const pieces = c.split(/\s+(?=[~=!<>])/);
    for (const p of pieces) {
      const s = parseSpecifier(p.trim());
      if (typeof s === 'string') return s;
      specs.push(s);
    }
  }
  return { specs, prereleases: specs.some(allowsPre) };
}

export function specifierSetContains(set: SpecifierSet, cand: PypiVersion, candText: string, includePre: boolean): boolean {
  if (!includePre && !set.prereleases && isPre(cand)) return false;
  for (const s of set.specs) if (!specifierContains(s, cand, candText)) return false;
  return true;
}

function parseRequirement(text: string, opts: RequirementOptions): ParseResult {
  const inc = opts.includePrerelease === true;
  return compiled(text, parseSpecifierSet(text), parsePypiVersion, (set, v, raw) => specifierSetContains(set, v, raw, inc));
}

export const PYPI: Scheme<PypiVersion> = {
  parse: parsePypiVersion,
  compare: comparePypi,
  canon: canonPypi,
  isPrerelease: isPre,
  parseRequirement,
};
