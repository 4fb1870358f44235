/**
 * Cargo adapter: the crates.io sparse index (`{CRATES_INDEX_URL}/config.json` for the download
 * template, then the index file at `1/a`, `2/ab`, `3/a/abc`, `ab/cd/abcd...`: one JSON object per
 * line, per published version) gives versions, requirements, features, yanked and the .crate
 * sha256. The index has no publish times, licenses or links; those come from the crates.io API
 * (`{CRATES_API_URL}/api/v1/crates/{name}`) when it answers (optional: without it those fields
 * stay empty). A renamed dependency (`package` set) is reported with the real crate as `name` and
 * the local name as `packageAlias`. Default = greatest non-yanked, non-prerelease version.
 */
import { crateIndexName } from '../../versions/names/index.ts';
import {
  byName,
  fetchJson,
  FetchLimitReached,
  fetchText,
  hexToBase64,
  isoTime,
  upstreamUrl,
  type UpstreamEnv,
} from './http.ts';
import { licenseFields } from './licenses.ts';
import { UpstreamNotFound, type IngestedPackage, type IngestedVersion, type Link } from './types.ts';

export const CRATES_REGISTRY = 'https://crates.io/';

export function sparseIndexPath(name: string): string {
  const n = crateIndexName(name);
  if (n.length <= 2) return `${n.length}/${n}`;
  if (n.length === 3) return `3/${n[0]}/${n}`;
  return `${n.slice(0, 2)}/${n.slice(2, 4)}/${n}`;
}

export async function fetchCargo(env: UpstreamEnv, name: string): Promise<IngestedPackage> {
  const index = upstreamUrl(env, 'CRATES_INDEX_URL');
  const config = await fetchJson(`${index}/config.json`).catch((err) => {
    if (err instanceof FetchLimitReached) throw err;
    return { dl: 'https://static.crates.io/crates' };
  });
  const text = await fetchText(`${index}/${sparseIndexPath(name)}`);
  const entries = text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
  if (entries.length === 0) throw new UpstreamNotFound(`crate ${name} has no versions`);
  const crateName: string = entries[0].name;
  let api: any = null;
  try {
    api = await fetchJson(`${upstreamUrl(env, 'CRATES_API_URL')}/api/v1/crates/${encodeURIComponent(crateName)}`);
  } catch (err) {
    if (err instanceof FetchLimitReached) throw err; // a limit is not an answer: never store the package without it
    api = null; // metadata is optional; the index is authoritative for versions
  }
  const apiVersions = new Map<string, any>((api?.versions ?? []).map((v: any) => [v.num, v]));
  const links: Link[] = [];
  if (api?.crate?.homepage) links.push({ label: 'HOMEPAGE', url: api.crate.homepage });
  if (api?.crate?.documentation) links.push({ label: 'DOCUMENTATION', url: api.crate.documentation });
  if (api?.crate?.repository) links.push({ label: 'SOURCE_REPO', url: api.crate.repository });
  const versions = entries.map((e) => cargoVersion(e, apiVersions.get(e.vers), links, String(config.dl ?? '')));
  return { system: 'CARGO', name: crateName, versions };
}

function downloadUrl(dl: string, name: string, version: string): string {
  if (!/\{(crate|version|prefix|lowerprefix|sha256-checksum)\}/.test(dl))
    return `${dl.replace(/\/+$/, '')}/${name}/${version}/download`;
  return dl.replaceAll('{crate}', name).replaceAll('{version}', version);
}

function cargoVersion(e: any, apiV: any, links: Link[], dl: string): IngestedVersion {
  const features = { ...(e.features ?? {}), ...(e.features2 ?? {}) } as Record<string, string[]>;
  const dependencies = (e.deps ?? [])
    .map((d: any) => ({
      name: d.package ?? d.name,
      requirement: d.req ?? '',
      kind: d.kind ?? 'normal',
      optional: d.optional === true,
      packageAlias: d.package ? d.name : '',
      usesDefaultFeatures: d.default_features !== false,
      features: Array.isArray(d.features) ? d.features : [],
      target: d.target ?? '',
    }))
    .sort(byName);
  return {
    version: e.vers,
    publishedAt: isoTime(apiV?.created_at),
    deprecated: null,
    ...licenseFields([apiV?.license ?? '']),
    links,
    registries: [CRATES_REGISTRY],
    slsaProvenances: [],
    attestations: [],
    requirements: {
      cargo: {
        dependencies,
        features: Object.entries(features)
          .map(([name, implies]) => ({ name, implies }))
          .sort(byName),
      },
    },
    meta: {
      yanked: e.yanked === true,
      ...(e.links ? { links: e.links } : {}),
      ...(e.rust_version ? { rustVersion: e.rust_version } : {}),
    },
    artifacts:
      typeof e.cksum === 'string'
        ? [{ url: downloadUrl(dl, e.name, e.vers), hashes: [{ type: 'SHA256', value: hexToBase64(e.cksum) }] }]
        : [],
    excludeFromDefault: e.yanked === true,
  };
}
