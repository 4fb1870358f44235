/**
 * What an npm version still has to read after its packument: the tarball (bundled manifests, for a
 * version that declares bundleDependencies) and the attestations document (`dist.attestations.url`).
 * A packument read marks them in the version's `meta` (NPM_TARBALL, NPM_ATTESTATIONS: the URL as the
 * packument names it) instead of fetching them, so a first read costs one fetch and one parse whatever
 * the package's history (aws-cdk-lib: 385 versions bundle something; typescript: hundreds attested).
 * The answer that shows them reads them for its own version (src/insights/npm-pending.ts); the rest
 * is done in the background. No database work here.
 */
import type { UpstreamEnv } from './http.ts';
import { fetchJson } from './http.ts';
import type { NpmManifest, NpmPackument } from './npm-manifest.ts';
import { type Bundle, fetchBundled, tarballUrl, tarballsEnabled } from './npm-tarball.ts';
import { npmAttestationsEnabled, npmAttestationsFromDocument, type ReadAttestations } from './attestations.ts';
import type { IngestedVersion } from './types.ts';

/** meta key: the tarball whose bundled manifests are not read yet. */
export const NPM_TARBALL = 'npmTarball';
/** meta key: the attestations document not read yet. */
export const NPM_ATTESTATIONS = 'npmAttestations';

/** Whether the packument entry declares something bundled (npm packs node_modules only then). */
export function declaresBundle(m: NpmManifest | undefined): boolean {
  const bundle = m?.bundleDependencies ?? m?.bundledDependencies;
  return bundle === true
    ? !!m?.dependencies && Object.keys(m.dependencies).length > 0
    : Array.isArray(bundle) && bundle.length > 0;
}

/** Marks, in each version's meta, the tarball and attestations document still to read. */
export function markNpmPending(env: UpstreamEnv, packument: NpmPackument, versions: IngestedVersion[]): void {
  const tarballs = tarballsEnabled(env);
  const attestations = npmAttestationsEnabled(env);
  for (const v of versions) {
    const m = packument.versions?.[v.version];
    const tarball = m?.dist?.tarball;
    if (tarballs && declaresBundle(m) && typeof tarball === 'string' && tarball) v.meta[NPM_TARBALL] = tarball;
    const doc = (m?.dist?.attestations as { url?: unknown } | null | undefined)?.url;
    if (attestations && typeof doc === 'string' && doc) v.meta[NPM_ATTESTATIONS] = doc;
  }
}

/** The bundled manifests of one tarball (UpstreamError when it cannot be read, naming why). */
export function readBundled(env: UpstreamEnv, tarball: string): Promise<Bundle[]> {
  return fetchBundled(env, tarball);
}

/** The SLSA entries of one attestations document. */
export async function readAttestations(env: UpstreamEnv, url: string): Promise<ReadAttestations> {
  return npmAttestationsFromDocument(await fetchJson(tarballUrl(env, url)), url);
}
