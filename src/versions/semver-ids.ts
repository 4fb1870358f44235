/**
 * Small helpers shared by the SemVer-shaped schemes (npm, Cargo, Go): scanning dotted identifier
 * lists and comparing prerelease identifier lists. Identifier comparison differs per tool, so the
 * numeric-identifier rule is a parameter:
 *  - node-semver: numeric ids are numbers (leading zeros allowed in loose mode, `006` == `6`);
 *  - semver crate / Go: digit-only ids compare by length, then bytewise (`006` > `6`, `011` > `12`).
 */

export const MAX_SAFE = Number.MAX_SAFE_INTEGER;

export function isDigitCode(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** [0-9A-Za-z-] */
export function isIdentCode(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 45;
}

export function isAllDigits(s: string): boolean {
  if (s.length === 0) return false;
  for (let i = 0; i < s.length; i++) if (!isDigitCode(s.charCodeAt(i))) return false;
  return true;
}

/** Splits `a.b.c` into identifiers of [0-9A-Za-z-]+; null when an identifier is empty or has another character. */
export function splitIdents(s: string): string[] | null {
  const out = s.split('.');
  for (const id of out) {
    if (id.length === 0) return null;
    for (let i = 0; i < id.length; i++) if (!isIdentCode(id.charCodeAt(i))) return null;
  }
  return out;
}

/** Rust semver crate / Go rule: numeric identifiers compare by length then bytes; numeric < alphanumeric. */
export function compareIdentsByLength(a: readonly string[], b: readonly string[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    const xn = isAllDigits(x);
    const yn = isAllDigits(y);
    if (xn && yn) {
      if (x.length !== y.length) return x.length < y.length ? -1 : 1;
      return x < y ? -1 : 1;
    }
    if (xn) return -1;
    if (yn) return 1;
    return x < y ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** Compares prerelease lists where an empty list (a release) sorts after any prerelease. */
export function comparePre(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0) return b.length === 0 ? 0 : 1;
  if (b.length === 0) return -1;
  return compareIdentsByLength(a, b);
}
