/**
 * Cargo versions and requirements, following the Rust `semver` crate 1.x that Cargo uses (checked
 * against semver 1.0.14, Debian's librust-semver-dev, by tools/conformance-native.ts).
 *
 * Versions: `MAJOR.MINOR.PATCH[-PRE][+BUILD]`, no `v` prefix, no surrounding whitespace, no
 * leading zeros in the numbers, identifiers of [0-9A-Za-z-]. Numbers are exact: a JS number up to
 * 2^53-1, a bigint above. Prerelease identifiers: digit-only ones compare by length then bytes,
 * digit-only < alphanumeric, a release sorts after its prereleases, build metadata is ignored by
 * ordering (`1.0.0+a` == `1.0.0+b`).
 *
 * Requirements (VersionReq): a port of the crate's parser: leading spaces, `*`/`x`/`X` alone,
 * comparators separated by commas with spaces (only U+0020) around them, at most 32; operators
 * `=`, `>`, `>=`, `<`, `<=`, `~`, `^` and bare (= caret); partial versions (`1`, `1.2`) and
 * wildcards (`1.*`, `1.2.x`; none after a wildcard); a prerelease or build only after three
 * numbers, prerelease identifiers without leading zeros. Matching is the crate's `matches_req`:
 * every comparator holds, and a prerelease candidate also needs some comparator with the same
 * MAJOR.MINOR.PATCH that carries a prerelease. `includePrerelease` drops that last rule (deps.dev's
 * MatchVersionPrerelease).
 *
 * Validity is the crate's (issue 14): short versions (`1.2`), numeric prerelease identifiers with
 * leading zeros (`1.2.3-beta.01`) and an empty requirement are errors. deps.dev's library accepts
 * them (`1.2.0`, `*`); the vectors of ../shared/conformance/semver_vectors.json that need that are
 * listed with this reason in test/unit/versions/expected-failures.ts.
 *
 * One difference with the crate is kept: ordering is SemVer precedence, which ignores build metadata
 * (`1.2.1+1.0a` == `1.2.1`, as deps.dev and the SemVer spec); the crate's `Ord` breaks that tie by
 * the build identifiers. Cargo never meets the tie: crates.io refuses a version that differs from a
 * published one only in build metadata.
 *
 * Numbers go up to u64 (18446744073709551615) as the crate's, compared exactly; deps.dev caps them at
 * int64 and its vectors reject `9223372036854775807`: those vectors are expected failures, the tool wins.
 *
 * Exports beyond the Scheme: parseCargoVersion, parseCargoReq (list of comparators), matchesCargo.
 */
import { compiled, type ParseResult, type RequirementOptions, type Scheme } from './types.ts';
import { MAX_SAFE, comparePre, isDigitCode, splitIdents } from './semver-ids.ts';

/** A version number: a JS number up to 2^53-1, a bigint above (one representation per value, so `===` works). */
export type CargoNum = number | bigint;

export interface CargoVersion {
  readonly major: CargoNum;
  readonly minor: CargoNum;
  readonly patch: CargoNum;
  readonly pre: readonly string[];
  readonly build: readonly string[];
}

export type CargoOp = '=' | '>' | '>=' | '<' | '<=' | '~' | '^' | '*';

export interface CargoComparator {
  readonly op: CargoOp;
  readonly major: CargoNum;
  readonly minor: CargoNum | null;
  readonly patch: CargoNum | null;
  readonly pre: readonly string[];
}

/** The crate's bound (u64); deps.dev's int64 cap is not kept (its parse vectors are expected failures). */
const MAX_NUM = 18446744073709551615n;

/** `0` or digits without a leading zero, up to MAX_NUM; number when safe, else bigint. */
function parseNum(s: string): CargoNum | null {
  if (s.length === 0 || (s.length > 1 && s.charCodeAt(0) === 48)) return null;
  for (let i = 0; i < s.length; i++) if (!isDigitCode(s.charCodeAt(i))) return null;
  if (s.length <= 15) return Number(s);
  const b = BigInt(s);
  if (b > MAX_NUM) return null;
  return b <= BigInt(MAX_SAFE) ? Number(b) : b;
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
  if (parts.length !== 3) return null; // the crate: all three numbers
  for (const id of sp.pre) if (id.length > 1 && id.charCodeAt(0) === 48 && isDigits(id)) return null; // `01`
  const nums: CargoNum[] = [];
  for (const p of parts) {
    const n = parseNum(p);
    if (n === null) return null;
    nums.push(n);
  }
  return { major: nums[0]!, minor: nums[1]!, patch: nums[2]!, pre: sp.pre, build: sp.build };
}

function isDigits(id: string): boolean {
  for (let i = 0; i < id.length; i++) if (!isDigitCode(id.charCodeAt(i))) return false;
  return true;
}

export function compareCargo(a: CargoVersion, b: CargoVersion): number {
  if (a.major !== b.major) return a.major < b.major ? -1 : 1;
  if (a.minor !== b.minor) return a.minor < b.minor ? -1 : 1;
  if (a.patch !== b.patch) return a.patch < b.patch ? -1 : 1;
  return comparePre(a.pre, b.pre);
}

function canonCargo(v: CargoVersion): string {
  let s = `${v.major}.${v.minor}.${v.patch}`;
  if (v.pre.length) s += `-${v.pre.join('.')}`;
  if (v.build.length) s += `+${v.build.join('.')}`;
  return s;
}

// ---- requirements: a port of the crate's hand-written parser (src/parse.rs) ------------------

class Cursor {
  i = 0;
  readonly s: string;
  constructor(s: string) {
    this.s = s;
  }
  peek(): number {
    return this.i < this.s.length ? this.s.charCodeAt(this.i) : -1;
  }
  spaces(): void {
    while (this.peek() === 32) this.i++; // the crate skips ' ' only, not tabs or other whitespace
  }
  wildcard(): boolean {
    const c = this.peek();
    if (c === 42 || c === 120 || c === 88) {
      this.i++;
      return true;
    }
    return false;
  }
  number(): CargoNum | string {
    const st = this.i;
    while (isDigitCode(this.peek())) this.i++;
    if (this.i === st)
      return this.i < this.s.length ? `unexpected character \`${this.s[this.i]}\`` : 'unexpected end of input';
    const n = parseNum(this.s.slice(st, this.i));
    return n ?? `invalid number \`${this.s.slice(st, this.i)}\``;
  }
  /** Dot-separated [0-9A-Za-z-] identifiers; stops at any other character (crate's `identifier`). */
  idents(pre: boolean): string[] | string {
    const out: string[] = [];
    for (;;) {
      const st = this.i;
      let alpha = false;
      for (;;) {
        const c = this.peek();
        if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 45) alpha = true;
        else if (!isDigitCode(c)) break;
        this.i++;
      }
      if (this.i === st) return 'empty identifier';
      const id = this.s.slice(st, this.i);
      if (pre && !alpha && id.length > 1 && id.charCodeAt(0) === 48) return `leading zero in \`${id}\``;
      out.push(id);
      if (this.peek() !== 46) return out;
      this.i++;
    }
  }
}

function parseComparator(cur: Cursor): CargoComparator | string {
  const s = cur.s;
  let op: CargoOp | null = null;
  const c0 = cur.peek();
  if (c0 === 61) op = '=';
  else if (c0 === 62) op = s.charCodeAt(cur.i + 1) === 61 ? '>=' : '>';
  else if (c0 === 60) op = s.charCodeAt(cur.i + 1) === 61 ? '<=' : '<';
  else if (c0 === 126) op = '~';
  else if (c0 === 94) op = '^';
  if (op !== null) cur.i += op.length;
  cur.spaces();
  const major = cur.number();
  if (typeof major === 'string') return major;
  let minor: CargoNum | null = null;
  let patch: CargoNum | null = null;
  let wild = false;
  if (cur.peek() === 46) {
    cur.i++;
    if (cur.wildcard()) wild = true;
    else {
      const m = cur.number();
      if (typeof m === 'string') return m;
      minor = m;
    }
    if (cur.peek() === 46) {
      cur.i++;
      if (cur.wildcard()) wild = true;
      else if (wild) return 'unexpected version after wildcard';
      else {
        const p = cur.number();
        if (typeof p === 'string') return p;
        patch = p;
      }
    }
  }
  let pre: string[] = [];
  if (patch !== null && cur.peek() === 45) {
    cur.i++;
    const ids = cur.idents(true);
    if (typeof ids === 'string') return ids;
    pre = ids;
  }
  if (patch !== null && cur.peek() === 43) {
    cur.i++;
    const ids = cur.idents(false);
    if (typeof ids === 'string') return ids;
  }
  cur.spaces();
  return { op: op ?? (wild ? '*' : '^'), major, minor, patch, pre };
}

/**
 * Parses a VersionReq into its comparators (empty list = any version). As the crate: leading
 * spaces, `*`/`x`/`X` alone, comparators separated by commas (spaces around them allowed, at most
 * 32). An empty or space-only requirement is an error, as the crate's (deps.dev reads it as `*`).
 */
export function parseCargoReq(text: string): CargoComparator[] | string {
  if (typeof text !== 'string') return 'requirement must be a string';
  const cur = new Cursor(text);
  cur.spaces();
  if (cur.i === text.length) return `empty requirement \`${text}\``; // the crate: end of input before a version
  const w = cur.i;
  if (cur.wildcard()) {
    cur.spaces();
    if (cur.i === text.length) return [];
    return text[cur.i] === ','
      ? `wildcard must be the only comparator in \`${text}\``
      : `unexpected text after wildcard in \`${text}\``;
  }
  cur.i = w;
  const out: CargoComparator[] = [];
  for (;;) {
    const c = parseComparator(cur);
    if (typeof c === 'string') return `${c} in \`${text}\``;
    out.push(c);
    if (cur.i === text.length) return out;
    if (cur.peek() !== 44)
      return /\s/.test(text[cur.i]!) && text[cur.i] !== ' '
        ? `invalid whitespace in \`${text}\``
        : `expected comma in \`${text}\``;
    cur.i++;
    cur.spaces();
    if (out.length === 32) return `excessive number of comparators in \`${text}\``;
  }
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
  if (patch === null) return c.major !== 0 ? v.minor >= minor : v.minor === minor;
  if (c.major !== 0) {
    if (v.minor !== minor) return v.minor > minor;
    if (v.patch !== patch) return v.patch > patch;
  } else if (minor !== 0) {
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
