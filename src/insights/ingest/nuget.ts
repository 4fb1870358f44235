/**
 * NuGet v3 adapter: the service index (`NUGET_INDEX_URL`) names `RegistrationsBaseUrl`; the
 * registration index `{base}{id-lower}/index.json` holds pages, inline or behind `@id`; each leaf's
 * `catalogEntry` gives version, published (1900-01-01 = unlisted), licenseExpression, projectUrl,
 * deprecation and dependencyGroups. Names are lower-cased (NuGet ids are case-insensitive).
 */
import * as z from 'zod';
import { normalizeNugetId } from '../../versions/names/index.ts';
import { byName, isoTime, mapLimit, upstreamUrl, type UpstreamEnv } from './http.ts';
import { licenseFields } from './licenses.ts';
import { UpstreamError, type IngestedPackage, type IngestedVersion } from './types.ts';
import { fetchDoc } from './upstream-doc.ts';

export const NUGET_REGISTRY = 'https://api.nuget.org/v3/index.json';

const text = z.string().nullish();
/** The service index: its resources, by `@type`. */
export const ServiceIndex = z.looseObject({
  resources: z.array(z.looseObject({ '@id': z.string(), '@type': z.union([z.string(), z.array(z.string())]) })),
});
/** A registration leaf's `catalogEntry` (the nuspec as the registration shows it): the parts read here. */
const CatalogEntry = z.looseObject({
  version: z.string(),
  published: text,
  listed: z.boolean().nullish(),
  licenseExpression: text,
  projectUrl: text,
  deprecation: z.looseObject({ message: text, reasons: z.array(z.string()).nullish() }).nullish(),
  dependencyGroups: z
    .array(
      z.looseObject({
        targetFramework: text,
        dependencies: z.array(z.looseObject({ id: z.string(), range: text })).nullish(),
      }),
    )
    .nullish(),
});
type CatalogEntry = z.output<typeof CatalogEntry>;
const Leaf = z.looseObject({ catalogEntry: CatalogEntry });
/** A registration page as fetched from its `@id`: its leaves. */
export const PageDoc = z.looseObject({ items: z.array(Leaf).nullish() });
/** The registration index: its pages, each with its leaves inline or only its `@id` (fetched then). */
const IndexPage = PageDoc.extend({ '@id': z.string().optional() }).refine((p) => p.items || p['@id'], {
  message: 'a page without its items needs an @id',
  path: ['@id'],
});
export const Registration = z.looseObject({ items: z.array(IndexPage).nullish() });

export async function fetchNuget(env: UpstreamEnv, name: string): Promise<IngestedPackage> {
  const index = await fetchDoc(upstreamUrl(env, 'NUGET_INDEX_URL'), ServiceIndex);
  const res = index.resources.find((r) => String(r['@type']).startsWith('RegistrationsBaseUrl'));
  if (!res) throw new UpstreamError('NuGet service index has no RegistrationsBaseUrl');
  const id = normalizeNugetId(name);
  const reg = await fetchDoc(`${res['@id'].replace(/\/?$/, '/')}${encodeURIComponent(id)}/index.json`, Registration);
  const pages = await mapLimit(
    reg.items ?? [],
    4,
    async (p) => p.items ?? (await fetchDoc(p['@id']!, PageDoc)).items ?? [], // one of them, by the schema
  );
  const versions = pages.flat().map((leaf) => nugetVersion(leaf.catalogEntry));
  return { system: 'NUGET', name: id, versions };
}

function nugetVersion(e: CatalogEntry): IngestedVersion {
  const published = isoTime(e.published);
  const listed = e.listed !== false && !(published ?? '').startsWith('1900-');
  const deprecation = e.deprecation;
  return {
    version: String(e.version),
    publishedAt: published && !published.startsWith('1900-') ? published : null,
    deprecated: deprecation ? String(deprecation.message ?? (deprecation.reasons ?? []).join(', ')) : null,
    ...licenseFields([e.licenseExpression ?? '']),
    links: e.projectUrl ? [{ label: 'HOMEPAGE', url: String(e.projectUrl) }] : [],
    registries: [NUGET_REGISTRY],
    slsaProvenances: [],
    attestations: [],
    requirements: {
      nuget: {
        dependencyGroups: (e.dependencyGroups ?? []).map((g) => ({
          targetFramework: g.targetFramework ?? '',
          dependencies: (g.dependencies ?? [])
            .map((d) => ({ name: d.id, requirement: d.range ?? '', include: '', exclude: '' }))
            .sort(byName),
        })),
        targetFrameworks: [],
        developmentDependency: false,
        frameworkAssemblies: [],
        frameworkReferences: [],
      },
    },
    meta: { listed },
    artifacts: [],
    excludeFromDefault: !listed,
  };
}
