/**
 * npm manifests: the packument's schema (the parts read at the boundary, npm.ts and npm-pending.ts)
 * and the requirements a manifest declares (a packument's version entry, or a package.json inside a
 * tarball, npm-tarball.ts): dependencies of each kind sorted by name, `bundleDependencies` (`true` =
 * every entry of `dependencies`) and peer metadata.
 *
 * The schema holds the packument's structure: the document, `versions` and each version entry are
 * objects, each `dist` is an object, `dist-tags` name versions as strings, `time` is an object. The
 * fields of a version entry are read by shape, as npm reads them, and stay `unknown` here: ancient
 * manifests hold `dependencies` as a list or a string, `license` as an object or a list of them,
 * `repository` and `bugs` as a string or `{url}`, `bundleDependencies` as true, a list or an object,
 * `engines` as a list; each reader keeps what it understands and ignores the rest, as before the
 * schema (a stricter one would fail real packages).
 *
 * Packuments are large and read on every first request (typescript's: 10 MB, 3,478 versions), so a
 * version entry is a plain zod object of the fields read, not a loose one: parsing copies those
 * fields only, where a loose object copies every field of every version (typescript's: 4-7 ms against
 * 10-13 ms, next to 26-34 ms of JSON.parse and 58-66 ms of reading the versions), and `time` (one
 * entry per version) is checked to be an object without being copied. docs/insights.md has the figures.
 */
import * as z from 'zod';
import { byName } from './http.ts';

const shape = z.unknown().optional();
/** An object, checked and not copied: its fields are read by shape. */
const anObject = z.custom<Partial<Record<string, unknown>>>(
  (x) => !!x && typeof x === 'object' && !Array.isArray(x),
  'Invalid input: expected object',
);
/** A version entry: the fields read (others are dropped), each by its shape. */
export const NpmManifest = z.object({
  dependencies: shape,
  devDependencies: shape,
  optionalDependencies: shape,
  peerDependencies: shape,
  peerDependenciesMeta: shape,
  bundleDependencies: shape,
  bundledDependencies: shape,
  license: shape,
  licenses: shape,
  repository: shape,
  bugs: shape,
  homepage: shape,
  deprecated: shape,
  os: shape,
  cpu: shape,
  libc: shape,
  engines: shape,
  dist: z.object({ shasum: shape, integrity: shape, tarball: shape, attestations: shape }).nullish(),
});
export type NpmManifest = z.output<typeof NpmManifest>;
/** `GET {registry}/{name}`: a full packument (an unpublished package's has neither versions nor dist-tags). */
export const NpmPackument = z.looseObject({
  name: z.string().nullish(),
  versions: z.record(z.string(), NpmManifest).nullish(),
  time: anObject.nullish(),
  'dist-tags': z.record(z.string(), z.string()).nullish(),
});
export type NpmPackument = z.output<typeof NpmPackument>;

/** What npmDependencies reads: a version entry, or any package.json object. */
type Manifest = Partial<Record<string, unknown>>;

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
    peerDependencyMetadata: Object.entries(meta as Record<string, { optional?: unknown } | null | undefined>)
      .map(([name, v]) => ({ name, optional: v?.optional === true }))
      .sort(byName),
  };
}
