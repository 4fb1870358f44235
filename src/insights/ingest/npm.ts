/**
 * npm registry adapter: `GET {NPM_REGISTRY_URL}/{name}` (full packument; scoped names as
 * `@scope%2Fname`). Links are the manifest's declared values, as deps.dev reports them: HOMEPAGE
 * (`homepage`), ISSUE_TRACKER (`bugs`), ORIGIN (`<registry>/name/version`), SOURCE_REPO (`repository`
 * or its `url`), in that order; nothing is derived or rewritten (the public registry's manifests were
 * normalised by npm at publish time; a private mirror's may not be, and their values stay as they are).
 * `registries` and ORIGIN name the registry the packument was read from (NPM_REGISTRY_URL when set).
 * Default version = dist-tag `latest`. Requirement lists are sorted by name; `bundleDependencies:
 * true` lists every entry of `dependencies`. `bundled` (manifests inside the tarball, npm-tarball.ts)
 * and slsaProvenances/attestations (the `dist.attestations` document, attestations.ts) are not read
 * here: the versions that have them are marked pending (npm-pending.ts) and read when an answer
 * needs them or in the background, so reading a package costs one fetch.
 */
import { hexToBase64, isoTime, registryOf, upstreamUrl, type UpstreamEnv } from './http.ts';
import { licenseFields } from './licenses.ts';
import { npmDependencies, NpmPackument, type NpmManifest } from './npm-manifest.ts';
import { markNpmPending } from './npm-pending.ts';
import type { Artifact, IngestedPackage, IngestedVersion, Link } from './types.ts';
import { fetchDoc } from './upstream-doc.ts';

export const NPM_REGISTRY = 'https://registry.npmjs.org/';

export function npmPackagePath(name: string): string {
  return name.startsWith('@') ? `@${encodeURIComponent(name.slice(1))}` : encodeURIComponent(name);
}

export async function fetchNpm(env: UpstreamEnv, name: string): Promise<IngestedPackage> {
  const doc = await fetchDoc(`${upstreamUrl(env, 'NPM_REGISTRY_URL')}/${npmPackagePath(name)}`, NpmPackument);
  const pkg = npmFromPackument(doc, name, registryOf(env, 'NPM'));
  markNpmPending(env, doc, pkg.versions); // tarballs and attestations: read on demand (npm-pending.ts)
  return pkg;
}

/** `registry`: where the packument was read (`registries` and the ORIGIN link), default the public one. */
export function npmFromPackument(doc: NpmPackument, requested: string, registry = NPM_REGISTRY): IngestedPackage {
  const name = doc.name ?? requested;
  const time = doc.time ?? {};
  const versions: IngestedVersion[] = Object.entries(doc.versions ?? {}).map(([v, m]) =>
    npmVersion(name, v, m, time[v], registry),
  );
  const distTags = doc['dist-tags'] ?? {};
  return { system: 'NPM', name, versions, defaultVersion: distTags.latest, distTags };
}

/** A declared URL (`repository` or `bugs`: a string or `{url}`), as the manifest has it. */
function declaredUrl(declared: unknown): string | null {
  const raw = typeof declared === 'string' ? declared : (declared as { url?: unknown } | null | undefined)?.url;
  return typeof raw === 'string' && raw ? raw : null;
}

function strings(x: unknown): string[] {
  return Array.isArray(x) ? x.filter((s): s is string => typeof s === 'string') : [];
}

/** `license` (or the old `licenses`): a string, `{type}`, or a list of either. */
function licenseTexts(license: unknown): unknown[] {
  const typeOf = (l: unknown) => (l as { type?: unknown } | null | undefined)?.type;
  if (typeof license === 'string') return [license];
  if (Array.isArray(license)) return license.map((l: unknown) => (typeof l === 'string' ? l : typeOf(l)));
  const type = typeOf(license);
  return typeof type === 'string' ? [type] : [];
}

function npmVersion(
  name: string,
  version: string,
  m: NpmManifest,
  published: unknown,
  registry: string,
): IngestedVersion {
  const repo = declaredUrl(m.repository);
  const bugs = declaredUrl(m.bugs);
  const homepage = typeof m.homepage === 'string' && m.homepage ? m.homepage : null;
  const links: Link[] = [];
  if (homepage) links.push({ label: 'HOMEPAGE', url: homepage });
  if (bugs) links.push({ label: 'ISSUE_TRACKER', url: bugs });
  links.push({ label: 'ORIGIN', url: `${registry}${name.replace('/', '%2F')}/${version}` });
  if (repo) links.push({ label: 'SOURCE_REPO', url: repo });

  const { shasum, integrity, tarball } = m.dist ?? {};
  const artifacts: Artifact[] = [];
  const hashes = [];
  if (typeof shasum === 'string' && /^[0-9a-f]{40}$/i.test(shasum))
    hashes.push({ type: 'SHA1', value: hexToBase64(shasum) });
  for (const part of typeof integrity === 'string' ? integrity.split(/\s+/) : []) {
    const i = /^sha(512|256)-(.+)$/.exec(part);
    if (i) hashes.push({ type: `SHA${i[1]}`, value: i[2]! });
  }
  if (hashes.length) artifacts.push({ url: typeof tarball === 'string' ? tarball : '', hashes });

  const deprecated = typeof m.deprecated === 'string' ? m.deprecated : m.deprecated === true ? '' : null;
  return {
    version,
    publishedAt: isoTime(published),
    deprecated,
    ...licenseFields(licenseTexts(m.license ?? m.licenses)),
    upstreamIdentifiers: [{ packageName: name, versionString: version, source: 'NPM_NPMJS_ORG' }],
    links,
    registries: [registry],
    slsaProvenances: [],
    attestations: [],
    requirements: { npm: { dependencies: npmDependencies(m), bundled: [], os: strings(m.os), cpu: strings(m.cpu) } },
    meta: {
      os: strings(m.os),
      cpu: strings(m.cpu),
      libc: strings(m.libc),
      engines: m.engines && typeof m.engines === 'object' ? m.engines : {},
      ...(deprecated !== null ? { deprecated } : {}),
    },
    artifacts,
  };
}
