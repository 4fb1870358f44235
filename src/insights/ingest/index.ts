/**
 * One entry point per upstream: `fetchPackage(env, system, name)` returns the normalised package
 * (see types.ts) without touching the database, so the resolver can pull a missing package on
 * demand. `env` only needs the *_URL variables (defaults: the public upstreams).
 */
import type { System } from '../../versions/index.ts';
import { fetchCargo } from './cargo.ts';
import { fetchGo } from './go.ts';
import type { UpstreamEnv } from './http.ts';
import { fetchMaven } from './maven.ts';
import { fetchNpm } from './npm.ts';
import { fetchNuget } from './nuget.ts';
import { fetchPypi, fetchPypiForResolve } from './pypi.ts';
import { fetchRubygems } from './rubygems.ts';
import type { IngestedPackage } from './types.ts';

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

export function fetchPackage(env: UpstreamEnv, system: System, name: string): Promise<IngestedPackage> {
  return ADAPTERS[system](env, name);
}

/**
 * A package as a dependency resolution needs it: PyPI in one request with per-version metadata left
 * `pending` (read on demand with fetchPypiRelease); every other system as fetchPackage reads it.
 */
export function fetchForResolve(env: UpstreamEnv, system: System, name: string): Promise<IngestedPackage> {
  return system === 'PYPI' ? fetchPypiForResolve(env, name) : fetchPackage(env, system, name);
}
