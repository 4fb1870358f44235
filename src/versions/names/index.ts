/**
 * Package names, one module per system whose names have a rule (pure, like the version modules):
 *   PYPI   PEP 503 normalisation                      pypi.ts
 *   NUGET  ids are case-insensitive: lower-cased      nuget.ts
 *   GO     module paths are case-sensitive; proxies case-escape them (`!x`)   go.ts
 *   CARGO  the index is keyed by the lower-cased name (the published spelling is kept)   cargo.ts
 *   MAVEN  `groupId:artifactId`                        maven.ts
 * and which names can exist at all in each system (rules.ts).
 * npm and RubyGems names are kept as written (npm's registry refuses new upper-case names but serves
 * the old ones by their spelling; RubyGems names are case-sensitive).
 */
import type { System } from '../types.ts';
import { normalizeNugetId } from './nuget.ts';
import { normalizePypiName } from './pypi.ts';

export { crateIndexName } from './cargo.ts';
export { escapeModulePath, unescapeModulePath } from './go.ts';
export { isMavenName, mavenCoordinates } from './maven.ts';
export { normalizeNugetId } from './nuget.ts';
export { normalizePypiName } from './pypi.ts';
export { nameProblem } from './rules.ts';

/** The name a package is stored and answered under: PyPI normalised, NuGet lower-cased, others as given. */
export function canonicalPackageName(system: System, name: string): string {
  if (system === 'PYPI') return normalizePypiName(name);
  if (system === 'NUGET') return normalizeNugetId(name);
  return name;
}
