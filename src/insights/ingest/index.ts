/**
 * One entry point per upstream: `fetchPackage(env, system, name)` returns the normalised package
 * (see types.ts) without touching the database, so the resolver can pull a missing package on
 * demand. `env` only needs the *_URL variables (defaults: the public upstreams).
 */
import type { System } from '../../versions/index.ts';
import { fetchCargo } from './cargo.ts';
import { fetchGo, fetchGoForResolve, fetchGoVersion } from './go.ts';
import { registryOf, type UpstreamEnv } from './http.ts';
import { fetchMaven, fetchMavenForResolve, fetchMavenPom } from './maven.ts';
import { fetchNpm } from './npm.ts';
import { fetchNuget } from './nuget.ts';
import { fetchPypi, fetchPypiForResolve, fetchPypiRelease } from './pypi.ts';
import { fetchRubygems } from './rubygems.ts';
import type { IngestedPackage, IngestedVersion } from './types.ts';

export { fetchOsv, fetchOsvForPackage, advisoryFromOsv } from './osv.ts';
export { fetchProject } from './projects.ts';
export * from './types.ts';

const ADAPTERS: Record<System, (env: UpstreamEnv, name: string) => Promise<IngestedPackage>> = {
  NPM: fetchNpm,
  PYPI: fetchPypi,
  CARGO: fetchCargo,
  MAVEN: fetchMaven,
  NUGET: fetchNuget,
  RUBYGEMS: fetchRubygems,
  GO: fetchGo,
};

export async function fetchPackage(env: UpstreamEnv, system: System, name: string): Promise<IngestedPackage> {
  return readFrom(env, await ADAPTERS[system](env, name));
}

/** `registries` name the registry the versions were read from: the configured one when it is not the public default. */
export function registriesRead<T extends IngestedVersion>(env: UpstreamEnv, system: System, versions: T[]): T[] {
  const here = registryOf(env, system);
  const pub = registryOf({}, system);
  if (!here || here === pub) return versions;
  for (const v of versions) v.registries = v.registries.map((r) => (r === pub ? here : r));
  return versions;
}

function readFrom(env: UpstreamEnv, pkg: IngestedPackage): IngestedPackage {
  registriesRead(env, pkg.system, pkg.versions);
  return pkg;
}

/**
 * A package as a dependency resolution needs it: PyPI (`/pypi/{name}/json`) and Maven
 * (`maven-metadata.xml`, Go `@v/list`) in one request with per-version metadata left `pending` (read on demand with
 * fetchVersionForResolve); every other system as fetchPackage reads it.
 */
export async function fetchForResolve(env: UpstreamEnv, system: System, name: string): Promise<IngestedPackage> {
  if (system === 'PYPI') return readFrom(env, await fetchPypiForResolve(env, name));
  if (system === 'MAVEN') return readFrom(env, await fetchMavenForResolve(env, name));
  if (system === 'GO') return fetchGoForResolve(env, name);
  return fetchPackage(env, system, name);
}

/** The metadata of one version read on demand (PyPI: the release's JSON; Maven: the POM, by path; Go: .info and .mod). */
export async function fetchVersionForResolve(
  env: UpstreamEnv,
  system: System,
  name: string,
  version: string,
): Promise<IngestedVersion> {
  if (system === 'GO') return fetchGoVersion(env, name, version);
  if (system !== 'PYPI' && system !== 'MAVEN') throw new Error(`${system} versions are not read one by one`);
  const v = system === 'PYPI' ? await fetchPypiRelease(env, name, version) : await fetchMavenPom(env, name, version);
  return registriesRead(env, system, [v])[0]!;
}
