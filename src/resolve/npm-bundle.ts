/**
 * npm bundled dependencies in the resolver vocabulary, as deps.dev's util/resolve APIClient builds
 * them from GetRequirements' `npm.bundled[]` (manifests found in a version's tarball):
 *  - every bundled manifest becomes a package of its own with a mangled name that encodes the
 *    bundling path, `bundler > bundlerVersion > a > b` for `node_modules/a/node_modules/b`
 *    (names are opaque; npm package names cannot contain `>`), with exactly one version carrying
 *    the version attr `derivedfrom` = the manifest's own package name;
 *  - the folder's "bundle content" is listed in the requirements of the version holding that
 *    folder (the bundler for `node_modules/a`, the mangled `a` for `node_modules/a/node_modules/b`)
 *    as a dependency on the mangled name with the exact version as requirement and no attrs.
 * The resolver (npm-tree.ts) recognises such a dependency (mangled name, one exact version with
 * `derivedfrom`) as a folder of the tarball, not as something to install from the registry; the
 * folder name is the last `>` segment (it differs from `derivedfrom` for `npm:` aliases).
 */
import type { Dependency, VersionInfo } from './types.ts';
import { has } from './types.ts';

export const BUNDLE_SEP = '>';

export interface BundledManifest {
  /** folder inside the package: `node_modules/a`, `node_modules/a/node_modules/@s/b` */
  path: string;
  /** package name the manifest declares (empty: the folder name) */
  name: string;
  version: string;
  /** the manifest's own dependencies in the resolver vocabulary */
  deps: Dependency[];
}

export interface BundleRows {
  /** dependencies to append to the bundling version's requirements */
  content: Dependency[];
  /** the mangled packages, one version each */
  rows: { info: VersionInfo; deps: Dependency[] }[];
}

/** `node_modules/a/node_modules/@s/b` -> ['a', '@s/b']; null when it is not such a path. */
export function bundleFolders(path: string): string[] | null {
  const p = path.replace(/^\.?\/+/, '').replace(/\/+$/, '');
  if (!p.startsWith('node_modules/')) return null;
  const parts = p.slice('node_modules/'.length).split('/node_modules/');
  if (parts.some((x) => x === '' || x.includes(BUNDLE_SEP) || !/^(@[^/]+\/)?[^/@][^/]*$/.test(x))) return null;
  return parts;
}

export function mangledName(bundler: string, version: string, folders: readonly string[]): string {
  return [bundler, version, ...folders].join(BUNDLE_SEP);
}

export function isMangled(name: string): boolean {
  return name.includes(BUNDLE_SEP);
}

/** The folder a mangled name stands for (its last segment). */
export function bundleFolder(mangled: string): string {
  return mangled.slice(mangled.lastIndexOf(BUNDLE_SEP) + 1);
}

/**
 * Rows for the manifests bundled by `bundler@version`. Shallower folders first, so a nested
 * folder always finds its parent; a folder whose parent folder holds no manifest is not reachable
 * by node's module resolution from the package and is left out, as are malformed paths and
 * duplicates.
 */
export function bundleRows(bundler: string, version: string, bundled: readonly BundledManifest[]): BundleRows {
  const out: BundleRows = { content: [], rows: [] };
  const byName = new Map<string, { info: VersionInfo; deps: Dependency[] }>();
  const sorted = bundled
    .map((b) => ({ b, folders: bundleFolders(b.path) }))
    .filter((x): x is { b: BundledManifest; folders: string[] } => x.folders !== null && x.b.version !== '')
    .sort((x, y) => x.folders.length - y.folders.length || (x.b.path < y.b.path ? -1 : x.b.path > y.b.path ? 1 : 0));
  for (const { b, folders } of sorted) {
    const name = mangledName(bundler, version, folders);
    if (byName.has(name)) continue;
    const parentDeps =
      folders.length === 1 ? out.content : byName.get(mangledName(bundler, version, folders.slice(0, -1)))?.deps;
    if (!parentDeps) continue;
    const row = {
      info: { name, version: b.version, attrs: { derivedfrom: b.name || folders[folders.length - 1]! } },
      deps: [...b.deps],
    };
    byName.set(name, row);
    out.rows.push(row);
    parentDeps.push({ name, requirement: b.version, attrs: {} });
  }
  return out;
}

/** The bundled version a dependency points at, when it is bundle content (see the header). */
export function bundledVersionOf(dep: Dependency, versions: readonly VersionInfo[]): VersionInfo | null {
  if (!isMangled(dep.name) || Object.keys(dep.attrs).length > 0) return null;
  const v = versions.filter((x) => x.version === dep.requirement);
  return v.length === 1 && has(v[0]!.attrs, 'derivedfrom') ? v[0]! : null;
}
