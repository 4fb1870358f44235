/**
 * The requirements an npm manifest declares (a packument's version entry, or a package.json inside a
 * tarball): dependencies of each kind sorted by name, `bundleDependencies` (`true` = every entry of
 * `dependencies`) and peer metadata. Read by the packument adapter (npm.ts) and the tarball reader
 * (npm-tarball.ts).
 */
import { byName } from './http.ts';

type Manifest = Record<string, any>;

function deps(obj: unknown): { name: string; requirement: string }[] {
  if (!obj || typeof obj !== 'object') return [];
  return Object.entries(obj as Record<string, unknown>)
    .map(([name, r]) => ({ name, requirement: typeof r === 'string' ? r : '' }))
    .sort(byName);
}

export function npmDependencies(m: Manifest) {
  const dependencies = deps(m.dependencies);
  const bundleRaw = m.bundleDependencies ?? m.bundledDependencies;
  const bundleDependencies =
    bundleRaw === true
      ? dependencies.map((d) => d.name)
      : Array.isArray(bundleRaw)
        ? bundleRaw.filter((x): x is string => typeof x === 'string')
        : [];
  const meta = m.peerDependenciesMeta && typeof m.peerDependenciesMeta === 'object' ? m.peerDependenciesMeta : {};
  return {
    dependencies,
    devDependencies: deps(m.devDependencies),
    optionalDependencies: deps(m.optionalDependencies),
    peerDependencies: deps(m.peerDependencies),
    bundleDependencies,
    peerDependencyMetadata: Object.entries<any>(meta)
      .map(([name, v]) => ({ name, optional: v?.optional === true }))
      .sort(byName),
  };
}
