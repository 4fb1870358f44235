/**
 * Which names can exist in each system: a name these rules reject cannot be a package there, so the
 * service answers 400 without asking the registry. The rules are the registries' own, loosened where a
 * registry still serves names it no longer accepts for new packages (legacy names must stay readable):
 *   NPM       validate-npm-package-name's rules for old packages: URL-safe characters only (what
 *             encodeURIComponent leaves as is: letters, digits, `-._~!*'()`), as `name` or `@scope/name`;
 *             not starting with `.` or `_`; not `node_modules` or `favicon.ico`; at most 214 characters.
 *             Upper case is allowed (`JSONStream`, `Base64` are still served).
 *   PYPI      PEP 508 / core metadata: ASCII letters and digits, with `.`, `_`, `-` inside, any case.
 *   CARGO     crates.io: an ASCII letter, then ASCII letters, digits, `_`, `-`; at most 64 characters.
 *   MAVEN     `groupId:artifactId`, each of ASCII letters, digits, `_`, `-`, `.` (Maven's id pattern).
 *   NUGET     NuGet's PackageIdValidator: word characters in runs joined by single `.` or `-`; at most 100.
 *   RUBYGEMS  Gem::Specification's name pattern: ASCII letters, digits, `.`, `-`, `_`; at least one letter
 *             or digit.
 *   GO        golang.org/x/mod/module's module path check: `/`-separated elements of ASCII letters,
 *             digits and `-._~`, none empty, `.` or `..`, none starting or ending with `.`; the first
 *             element a host name with a dot, not starting with `-` (any case: a purl's Go path is
 *             looked up ignoring case, and the proxy answers 404 for a host it does not serve).
 * Pure; `nameProblem` never throws.
 */
import type { System } from '../types.ts';

const NPM_PART = /^[A-Za-z0-9\-._~!*'()]+$/;
const PYPI = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;
const CARGO = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const MAVEN_ID = /^[A-Za-z0-9_.-]+$/;
const NUGET = /^[\p{L}\p{Mn}\p{Nd}\p{Pc}]+(?:[.-][\p{L}\p{Mn}\p{Nd}\p{Pc}]+)*$/u;
const RUBYGEMS = /^[A-Za-z0-9._-]*[A-Za-z0-9][A-Za-z0-9._-]*$/;
const GO_ELEMENT = /^[A-Za-z0-9\-._~]+$/;
const GO_HOST = /^[A-Za-z0-9][A-Za-z0-9.-]*\.[A-Za-z0-9.-]*[A-Za-z0-9]$/;

function npmProblem(name: string): string | null {
  if (name.length > 214) return 'longer than 214 characters';
  const scoped = /^@([^/]*)\/([^/]*)$/.exec(name);
  const parts = scoped ? [scoped[1]!, scoped[2]!] : [name];
  if (!scoped && name.includes('/')) return 'a "/" outside "@scope/name"';
  if (parts.some((p) => p === '')) return 'an empty scope or name';
  if (!parts.every((p) => NPM_PART.test(p))) return 'characters that are not URL-safe';
  const bare = parts[parts.length - 1]!;
  if (!scoped && (bare.startsWith('.') || bare.startsWith('_'))) return 'a leading "." or "_"';
  if (!scoped && ['node_modules', 'favicon.ico'].includes(name.toLowerCase())) return 'a reserved name';
  return null;
}

function goProblem(path: string): string | null {
  const elems = path.split('/');
  if (elems.some((e) => e === '' || e === '.' || e === '..')) return 'an empty, "." or ".." path element';
  if (!elems.every((e) => GO_ELEMENT.test(e))) return 'characters outside letters, digits and "-._~"';
  if (elems.some((e) => e.startsWith('.') || e.endsWith('.'))) return 'a path element starting or ending with "."';
  if (!GO_HOST.test(elems[0]!)) return 'a first element that is not a host name with a dot';
  return null;
}

/** Why `name` cannot be a package of `system`, or null when it can (the registry decides whether it is). */
export function nameProblem(system: System, name: string): string | null {
  if (name !== name.trim()) return 'leading or trailing white space';
  switch (system) {
    case 'NPM':
      return npmProblem(name);
    case 'PYPI':
      return PYPI.test(name) ? null : 'not a PEP 508 name (ASCII letters and digits, ".", "_", "-" inside)';
    case 'CARGO':
      return CARGO.test(name) ? null : 'not a crate name (an ASCII letter, then letters, digits, "_", "-"; 64 at most)';
    case 'MAVEN': {
      const parts = name.split(':');
      return parts.length === 2 && parts.every((p) => MAVEN_ID.test(p))
        ? null
        : 'not groupId:artifactId of letters, digits, "_", "-", "."';
    }
    case 'NUGET':
      return name.length <= 100 && NUGET.test(name)
        ? null
        : 'not a NuGet id (word characters joined by "." or "-"; 100 at most)';
    case 'RUBYGEMS':
      return RUBYGEMS.test(name) ? null : 'not a gem name (ASCII letters, digits, ".", "-", "_")';
    case 'GO':
      return goProblem(name);
    default:
      return null;
  }
}
