/**
 * NuGet v3 adapter: the service index (`NUGET_INDEX_URL`) names `RegistrationsBaseUrl`; the
 * registration index `{base}{id-lower}/index.json` holds pages, inline or behind `@id`; each leaf's
 * `catalogEntry` gives version, published (1900-01-01 = unlisted), licenseExpression, projectUrl,
 * deprecation and dependencyGroups. Names are lower-cased (NuGet ids are case-insensitive).
 */
import { normalizeNugetId } from '../../versions/names/index.ts';
import { byName, fetchJson, isoTime, mapLimit, upstreamUrl, type UpstreamEnv } from './http.ts';
import { licenseFields } from './licenses.ts';
import { UpstreamError, type IngestedPackage, type IngestedVersion } from './types.ts';

export const NUGET_REGISTRY = 'https://api.nuget.org/v3/index.json';

export async function fetchNuget(env: UpstreamEnv, name: string): Promise<IngestedPackage> {
  const index = await fetchJson(upstreamUrl(env, 'NUGET_INDEX_URL'));
  const res = (index.resources ?? []).find((r: any) => String(r['@type']).startsWith('RegistrationsBaseUrl'));
  if (!res) throw new UpstreamError('NuGet service index has no RegistrationsBaseUrl');
  const id = normalizeNugetId(name);
  const reg = await fetchJson(`${String(res['@id']).replace(/\/?$/, '/')}${encodeURIComponent(id)}/index.json`);
  const pages = await mapLimit<any, any[]>(
    reg.items ?? [],
    4,
    async (p) => p.items ?? (await fetchJson(p['@id'])).items ?? [],
  );
  const versions = pages.flat().map((leaf) => nugetVersion(leaf.catalogEntry ?? {}));
  return { system: 'NUGET', name: id, versions };
}

function nugetVersion(e: any): IngestedVersion {
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
        dependencyGroups: (e.dependencyGroups ?? []).map((g: any) => ({
          targetFramework: g.targetFramework ?? '',
          dependencies: (g.dependencies ?? [])
            .map((d: any) => ({ name: String(d.id), requirement: d.range ?? '', include: '', exclude: '' }))
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
