/**
 * Path and key handling shared by the routers. Hono matches on the raw path, so `%2F`, `%40`,
 * `%3A` arrive encoded: each segment is decoded exactly once here (a malformed escape is a 400).
 * `{system}` is accepted in any case; a name that cannot exist in its system (src/versions/names/rules.ts)
 * is a 400 before any upstream request; names are canonicalised per system (PyPI PEP 503, NuGet
 * lower-case, Go `!x` case-encoding decoded, others verbatim); versions through `canon()` (unparsable
 * text is looked up as given).
 */
import { HttpError } from '../platform/errors.ts';
import { canon, type System } from '../versions/index.ts';
import { canonicalPackageName, isMavenName, nameProblem, unescapeModulePath } from '../versions/names/index.ts';
import { check, systemParam } from './schemas.ts';

export function decodeSegment(seg: string): string {
  try {
    return decodeURIComponent(seg);
  } catch {
    throw new HttpError(400, `malformed percent-encoding in path segment "${seg}"`);
  }
}

/** Raw (still encoded) path segments of the request, empty segments dropped. */
export function rawSegments(url: string): string[] {
  return new URL(url).pathname.split('/').filter((s) => s !== '');
}

export function parseSystem(text: string): System {
  check(systemParam, text, `invalid system "${text}"`);
  return text.toUpperCase() as System;
}

/**
 * Go's module path case-encoding (golang.org/x/mod/module: `!x` = `X`, as in proxy URLs and the module
 * cache) read back; a path that holds no `!` is returned as is (a module path cannot hold one).
 */
export function goCaseDecode(path: string): string {
  const unescaped = unescapeModulePath(path);
  if (unescaped === null)
    throw new HttpError(400, `invalid Go module path "${path}" (a "!" escapes a lower-case letter)`);
  return unescaped;
}

export function canonicalName(system: System, name: string): string {
  if (!name.trim()) throw new HttpError(400, 'package name is empty');
  if (system === 'GO') name = goCaseDecode(name);
  if (system === 'MAVEN' && !isMavenName(name))
    throw new HttpError(400, `invalid Maven package name "${name}" (want group:artifact)`);
  const problem = nameProblem(system, name);
  if (problem) throw new HttpError(400, `invalid ${system} package name "${name}": ${problem}`);
  return canonicalPackageName(system, name);
}

export function canonicalVersion(system: System, version: string): string {
  if (!version.trim()) throw new HttpError(400, 'version is empty');
  return canon(system, version) ?? version;
}
