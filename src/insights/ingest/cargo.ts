/**
 * Cargo adapter: the crates.io sparse index (`{CRATES_INDEX_URL}/config.json` for the download
 * template, then the index file at `1/a`, `2/ab`, `3/a/abc`, `ab/cd/abcd...`: one JSON object per
 * line, per published version) gives versions, requirements, features, yanked and the .crate
 * sha256. The index has no publish times, licenses or links; those come from the crates.io API
 * (`{CRATES_API_URL}/api/v1/crates/{name}`) when it answers (optional: without it those fields
 * stay empty). A renamed dependency (`package` set) is reported with the real crate as `name` and
 * the local name as `packageAlias`. Default = greatest non-yanked, non-prerelease version.
 */
import * as z from 'zod';
import { crateIndexName } from '../../versions/names/index.ts';
import { byName, FetchLimitReached, hexToBase64, isoTime, upstreamUrl, type UpstreamEnv } from './http.ts';
import { licenseFields } from './licenses.ts';
import { UpstreamNotFound, type IngestedPackage, type IngestedVersion, type Link } from './types.ts';
import { fetchDoc, fetchJsonLines } from './upstream-doc.ts';

export const CRATES_REGISTRY = 'https://crates.io/';

/** One line of the sparse index (one published version), the parts read here. */
const IndexDep = z.looseObject({
  name: z.string(),
  req: z.string().nullish(),
  kind: z.string().nullish(),
  optional: z.boolean().nullish(),
  package: z.string().nullish(),
  default_features: z.boolean().nullish(),
  features: z.array(z.string()).nullish(),
  target: z.string().nullish(),
});
export const IndexLine = z.looseObject({
  name: z.string(),
  vers: z.string(),
  deps: z.array(IndexDep).nullish(),
  features: z.record(z.string(), z.array(z.string())).nullish(),
  features2: z.record(z.string(), z.array(z.string())).nullish(),
  cksum: z.string().nullish(),
  yanked: z.boolean().nullish(),
  links: z.string().nullish(),
  rust_version: z.string().nullish(),
});
type IndexLine = z.output<typeof IndexLine>;
const IndexConfig = z.looseObject({ dl: z.string().nullish() });
/** The crates.io API's crate document (optional metadata: publish times, licenses, links). */
const ApiVersion = z.looseObject({ num: z.string(), created_at: z.string().nullish(), license: z.string().nullish() });
type ApiVersion = z.output<typeof ApiVersion>;
export const ApiCrate = z.looseObject({
  crate: z
    .looseObject({
      homepage: z.string().nullish(),
      documentation: z.string().nullish(),
      repository: z.string().nullish(),
    })
    .nullish(),
  versions: z.array(ApiVersion).nullish(),
});
type ApiCrate = z.output<typeof ApiCrate>;

export function sparseIndexPath(name: string): string {
  const n = crateIndexName(name);
  if (n.length <= 2) return `${n.length}/${n}`;
  if (n.length === 3) return `3/${n[0]}/${n}`;
  return `${n.slice(0, 2)}/${n.slice(2, 4)}/${n}`;
}

export async function fetchCargo(env: UpstreamEnv, name: string): Promise<IngestedPackage> {
  const index = upstreamUrl(env, 'CRATES_INDEX_URL');
  const config = await fetchDoc(`${index}/config.json`, IndexConfig).catch((err) => {
    if (err instanceof FetchLimitReached) throw err;
    return { dl: 'https://static.crates.io/crates' };
  });
  const entries = await fetchJsonLines(`${index}/${sparseIndexPath(name)}`, IndexLine);
  if (entries.length === 0) throw new UpstreamNotFound(`crate ${name} has no versions`);
  const crateName = entries[0]!.name;
  let api: ApiCrate | null = null;
  try {
    api = await fetchDoc(
      `${upstreamUrl(env, 'CRATES_API_URL')}/api/v1/crates/${encodeURIComponent(crateName)}`,
      ApiCrate,
    );
  } catch (err) {
    if (err instanceof FetchLimitReached) throw err; // a limit is not an answer: never store the package without it
    api = null; // metadata is optional; the index is authoritative for versions
  }
  const apiVersions = new Map((api?.versions ?? []).map((v) => [v.num, v]));
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

function cargoVersion(e: IndexLine, apiV: ApiVersion | undefined, links: Link[], dl: string): IngestedVersion {
  const features = { ...(e.features ?? {}), ...(e.features2 ?? {}) } as Record<string, string[]>;
  const dependencies = (e.deps ?? [])
    .map((d) => ({
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
