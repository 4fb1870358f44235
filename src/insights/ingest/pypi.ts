/**
 * PyPI adapter (JSON API): `GET {PYPI_URL}/pypi/{name}/json` for the release list and files, then
 * `GET {PYPI_URL}/pypi/{name}/{version}/json` per release for that release's metadata
 * (requires_dist, requires_python, license, project_urls). Names are PEP 503-normalised.
 * publishedAt = earliest file upload; licenses from PEP 639 `license_expression`, else `license`,
 * else trove classifiers; links from `project_urls` (Documentation -> DOCUMENTATION, Source/
 * Repository/Code -> SOURCE_REPO, Homepage -> HOMEPAGE, Issues/Bug Tracker -> ISSUE_TRACKER; other
 * keys such as "Tracker" or "Funding" are not links in deps.dev). Default = greatest non-yanked
 * final release.
 *
 * Attestations (PEP 740): for each file uploaded since ATTESTATIONS_SINCE (PyPI accepted
 * attestations from late 2024; older files cannot have any, so they cost no request),
 * `GET {PYPI_URL}/integrity/{name}/{version}/{filename}/provenance` (404 = none), read by
 * attestations.ts; `url` is that endpoint on pypi.org. INSIGHTS_PYPI_ATTESTATIONS=off skips them.
 */
import * as z from 'zod';
import { normalizePypiName } from '../../versions/names/index.ts';
import { ATTESTATIONS_ERROR, pypiAttestationsFromProvenance } from './attestations.ts';
import { fetchJson, isoTime, mapLimit, upstreamUrl, type UpstreamEnv } from './http.ts';
import { fetchDoc } from './upstream-doc.ts';
import { licenseDetails, licenseFromClassifier, normalizeLicenses } from './licenses.ts';
import {
  UpstreamError,
  UpstreamNotFound,
  type Artifact,
  type Attestation,
  type IngestedPackage,
  type IngestedVersion,
  type Link,
  type UpstreamIdentifier,
} from './types.ts';
import { insightsConfig } from '../config.ts';
import { failureOf, warnUpstream } from './upstream-log.ts';

export const PYPI_REGISTRY = 'https://pypi.org/simple';

/** The JSON API's parts read here (`/pypi/{name}/json` and `/pypi/{name}/{version}/json`); nulls where PyPI sends them. */
const text = z.string().nullish();
const PypiFile = z.looseObject({
  filename: text,
  url: text,
  upload_time_iso_8601: text,
  upload_time: text,
  requires_python: text,
  yanked: z.boolean().nullish(),
  yanked_reason: text,
  digests: z.looseObject({ md5: text, sha256: text }).nullish(),
});
type PypiFile = z.output<typeof PypiFile>;
const PypiInfo = z.looseObject({
  name: text,
  version: text,
  requires_dist: z.array(z.string()).nullish(),
  provides_extra: z.array(z.string()).nullish(),
  requires_python: text,
  license: text,
  license_expression: text,
  classifiers: z.array(z.string()).nullish(),
  project_urls: z.record(z.string(), z.string().nullable()).nullish(),
  project_status: z.looseObject({ status: text, reason: text }).nullish(),
});
type PypiInfo = z.output<typeof PypiInfo>;
export const PypiDoc = z.looseObject({
  info: PypiInfo.nullish(),
  releases: z.record(z.string(), z.array(PypiFile).nullable()).nullish(),
  urls: z.array(PypiFile).nullish(),
});
type PypiDoc = z.output<typeof PypiDoc>;

export async function fetchPypi(env: UpstreamEnv, name: string): Promise<IngestedPackage> {
  const canonical = normalizePypiName(name);
  const doc = await fetchDoc(`${upstreamUrl(env, 'PYPI_URL')}/pypi/${encodeURIComponent(canonical)}/json`, PypiDoc);
  const releases = doc.releases ?? {};
  const versions = await mapLimit(Object.keys(releases), 8, (v) => fetchPypiRelease(env, canonical, v));
  return { system: 'PYPI', name: canonical, versions };
}

/** One release with its own metadata (`/pypi/{name}/{version}/json`, files from its `urls`). */
export async function fetchPypiRelease(env: UpstreamEnv, name: string, version: string): Promise<IngestedVersion> {
  const base = upstreamUrl(env, 'PYPI_URL');
  const vdoc = await fetchDoc(`${base}/pypi/${encodeURIComponent(name)}/${encodeURIComponent(version)}/json`, PypiDoc);
  const files = vdoc.urls ?? [];
  const v = pypiVersion(version, vdoc, files);
  const read = await pypiAttestations(env, base, name, version, files);
  v.attestations = read.attestations;
  if (read.error) v.meta[ATTESTATIONS_ERROR] = read.error; // unknown, not none (queries-read-status.ts)
  return v;
}

/**
 * The project for dependency resolution, in one request (`/pypi/{name}/json`): every release with
 * what the index tells pip before it reads any metadata (files, yanked, Requires-Python of the files),
 * complete for the release the document describes (its `info`, the latest), the others `pending`
 * until a resolution asks for their requirements (fetchPypiRelease).
 */
export async function fetchPypiForResolve(env: UpstreamEnv, name: string): Promise<IngestedPackage> {
  const canonical = normalizePypiName(name);
  const doc = await fetchDoc(`${upstreamUrl(env, 'PYPI_URL')}/pypi/${encodeURIComponent(canonical)}/json`, PypiDoc);
  const releases = doc.releases ?? {};
  const described = doc.info?.version ?? '';
  const versions = Object.entries(releases).map(([v, files]) =>
    v === described ? pypiVersion(v, doc, files ?? []) : pendingVersion(v, files ?? []),
  );
  return { system: 'PYPI', name: canonical, versions, partial: versions.some((v) => v.meta.pending === true) };
}

function pendingVersion(version: string, files: PypiFile[]): IngestedVersion {
  const v = pypiVersion(version, { info: {} }, files);
  const requiresPython = files.map((f) => f.requires_python).find((r) => typeof r === 'string' && r.trim()) ?? '';
  v.requirements = null;
  v.meta = { ...v.meta, requiresPython, pending: true };
  return v;
}

const LINK_KEYS: [RegExp, string][] = [
  [/^(homepage|home page|home)$/i, 'HOMEPAGE'],
  [/^(documentation|docs)$/i, 'DOCUMENTATION'],
  [/^(source|source code|repository|code|github)$/i, 'SOURCE_REPO'],
  [/^(issues|issue tracker|bug tracker|bugs|bug reports)$/i, 'ISSUE_TRACKER'],
];

function pypiLinks(info: PypiInfo): Link[] {
  const out: Link[] = [];
  for (const [key, url] of Object.entries<unknown>(info.project_urls ?? {})) {
    const label = LINK_KEYS.find(([re]) => re.test(key.trim()))?.[1];
    if (label && typeof url === 'string' && url) out.push({ label, url });
  }
  return out;
}

/** PEP 508 requirement -> deps.dev PyPI dependency; null for unparsable lines. */
export function parseRequiresDist(
  line: string,
): { projectName: string; extras: string; versionSpecifier: string; environmentMarker: string } | null {
  const [req = '', ...markerParts] = line.split(';');
  const m = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[([^\]]*)\])?\s*(?:\(([^)]*)\)|([^@]*))?\s*$/.exec(req);
  if (!m) return null;
  return {
    projectName: m[1]!,
    extras: (m[2] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .join(','),
    versionSpecifier: (m[3] ?? m[4] ?? '').replace(/\s+/g, ''),
    environmentMarker: markerParts.join(';').trim(),
  };
}

function pypiVersion(version: string, vdoc: PypiDoc, files: PypiFile[]): IngestedVersion {
  const info: PypiInfo = vdoc.info ?? {};
  const requires = info.requires_dist ?? [];
  const dependencies = requires.map(parseRequiresDist).filter((d): d is NonNullable<typeof d> => d !== null);
  const extras = new Set<string>(Array.isArray(info.provides_extra) ? info.provides_extra : []);
  if (!Array.isArray(info.provides_extra)) {
    for (const d of dependencies)
      for (const x of d.environmentMarker.matchAll(/extra\s*==\s*['"]([^'"]+)['"]/g)) extras.add(x[1]!);
  }
  const licenseText =
    info.license_expression || (typeof info.license === 'string' && info.license.length < 200 ? info.license : '');
  let licenses = normalizeLicenses([licenseText]);
  let details = licenseDetails([licenseText]);
  if (licenses.length === 0 || (licenses[0] === 'non-standard' && !licenseText)) {
    const classifiers = strings(info.classifiers).filter((c) => licenseFromClassifier(c) !== null);
    licenses = normalizeLicenses(classifiers.map(licenseFromClassifier));
    details = licenseDetails(classifiers, licenseFromClassifier);
  }
  const uploads = files
    .map((f) => isoTime(f.upload_time_iso_8601 ?? f.upload_time))
    .filter((t): t is string => t !== null)
    .sort();
  const artifacts: Artifact[] = files.map((f) => ({
    url: String(f.url ?? ''),
    hashes: [
      ...(f.digests?.md5 ? [{ type: 'MD5', value: hex64(f.digests.md5) }] : []),
      ...(f.digests?.sha256 ? [{ type: 'SHA256', value: hex64(f.digests.sha256) }] : []),
    ],
  }));
  const yanked = files.length > 0 && files.every((f) => f.yanked === true);
  return {
    version,
    publishedAt: uploads[0] ?? null,
    deprecated: null,
    licenses,
    licenseDetails: details,
    upstreamIdentifiers: pypiUpstreamIdentifiers(info, files),
    links: pypiLinks(info),
    registries: [PYPI_REGISTRY],
    slsaProvenances: [],
    attestations: [],
    requirements: {
      pypi: {
        dependencies,
        providedExtras: [...extras].sort().map((name) => ({ name })),
        externalDependencies: [],
        requiredPythonVersion: typeof info.requires_python === 'string' ? info.requires_python : '',
      },
    },
    meta: {
      yanked,
      requiresPython: info.requires_python ?? '',
      ...(yanked ? { yankedReason: files[0]?.yanked_reason ?? '' } : {}),
    },
    artifacts,
    projectStatus: {
      status: typeof info.project_status?.status === 'string' ? info.project_status.status : 'active',
      reason: typeof info.project_status?.reason === 'string' ? info.project_status.reason : '',
    },
    excludeFromDefault: yanked,
  };
}

function strings(x: unknown): string[] {
  return Array.isArray(x) ? x.filter((s): s is string => typeof s === 'string') : [];
}

/** The name and version a distribution's file name spells: `{name}-{version}-{tags}.whl`, `{name}-{version}.tar.gz`. */
export function distributionName(filename: string): { name: string; version: string } | null {
  const wheel = /^([^-]+)-([^-]+)-.+\.whl$/.exec(filename);
  if (wheel) return { name: wheel[1]!, version: wheel[2]! };
  const sdist = /^(.+)-([^-]+)\.(?:tar\.gz|tar\.bz2|tar\.xz|tgz|zip|tar)$/i.exec(filename);
  return sdist ? { name: sdist[1]!, version: sdist[2]! } : null;
}

/**
 * deps.dev's PyPI upstream identifiers: the name and version each release file name spells
 * (PYPI_RELEASE_FILENAME, one entry per distinct spelling, in file order), then the METADATA file's
 * `Name` and `Version` (PYPI_METADATA_FILE; the JSON API's `info`, which PyPI fills from it).
 */
function pypiUpstreamIdentifiers(info: PypiInfo, files: PypiFile[]): UpstreamIdentifier[] {
  const out: UpstreamIdentifier[] = [];
  const add = (packageName: string, versionString: string, source: string) => {
    if (!out.some((u) => u.packageName === packageName && u.versionString === versionString && u.source === source)) {
      out.push({ packageName, versionString, source });
    }
  };
  for (const f of files) {
    const d = typeof f.filename === 'string' ? distributionName(f.filename) : null;
    if (d) add(d.name, d.version, 'PYPI_RELEASE_FILENAME');
  }
  if (typeof info.name === 'string' && info.name && typeof info.version === 'string' && info.version) {
    add(info.name, info.version, 'PYPI_METADATA_FILE');
  }
  return out;
}

function hex64(hex: string): string {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

export const ATTESTATIONS_SINCE = '2024-10-01T00:00:00Z';
const PYPI_PUBLIC = 'https://pypi.org';

async function pypiAttestations(
  env: UpstreamEnv,
  base: string,
  name: string,
  version: string,
  files: PypiFile[],
): Promise<{ attestations: Attestation[]; error: string | null }> {
  if (!insightsConfig(env).INSIGHTS_PYPI_ATTESTATIONS) return { attestations: [], error: null };
  const recent = files.filter(
    (f) =>
      typeof f.filename === 'string' && (isoTime(f.upload_time_iso_8601 ?? f.upload_time) ?? '') >= ATTESTATIONS_SINCE,
  );
  let error: string | null = null;
  const found = await mapLimit(recent, 4, async (f) => {
    const path = `/integrity/${encodeURIComponent(name)}/${encodeURIComponent(version)}/${encodeURIComponent(f.filename ?? '')}/provenance`;
    try {
      return pypiAttestationsFromProvenance(await fetchJson(base + path), PYPI_PUBLIC + path);
    } catch (err) {
      if (err instanceof UpstreamNotFound) return [];
      if (!(err instanceof UpstreamError)) throw err;
      warnUpstream('PyPI provenance', err, path);
      error = failureOf(err);
      return [];
    }
  });
  return { attestations: found.flat(), error };
}
