/**
 * RubyGems adapter: `GET {RUBYGEMS_URL}/api/v1/versions/{name}.json` lists versions (one entry per
 * platform; the `ruby` platform entry wins, else the first), then
 * `/api/v2/rubygems/{name}/versions/{number}.json` per version gives runtime/development
 * dependencies, required Ruby/RubyGems versions and the link URIs. When a version also has an
 * `x86_64-linux` gem (the platform graphs are resolved for), that gem's runtime dependencies are read too
 * (`...versions/{number}.json?platform=x86_64-linux`); `meta` keeps them (`linuxRuntimeDependencies`), every
 * platform published for the number and the required Ruby: the resolver reads them, GetRequirements does not show them.
 */
import * as z from 'zod';
import { byName, hexToBase64, isoTime, mapLimit, upstreamUrl, type UpstreamEnv } from './http.ts';
import { licenseFields } from './licenses.ts';
import type { IngestedPackage, IngestedVersion, Link } from './types.ts';
import { fetchDoc } from './upstream-doc.ts';

export const RUBYGEMS_REGISTRY = 'https://rubygems.org/';
const LINUX = 'x86_64-linux';

const text = z.string().nullish();
const licenses = z.array(z.string()).nullish();
/** An entry of `/api/v1/versions/{name}.json` (one per number and platform). */
export const GemVersion = z.looseObject({
  number: z.string(),
  platform: text,
  created_at: text,
  licenses,
  ruby_version: text,
  rubygems_version: text,
  sha: text,
});
type GemVersion = z.output<typeof GemVersion>;
const GemDependency = z.looseObject({ name: z.string(), requirements: text });
/** A gem spec, `/api/v2/rubygems/{name}/versions/{number}.json`: the parts read here. */
export const GemSpec = z.looseObject({
  name: text,
  platform: text,
  created_at: text,
  licenses,
  homepage_uri: text,
  documentation_uri: text,
  bug_tracker_uri: text,
  source_code_uri: text,
  required_ruby_version: text,
  required_rubygems_version: text,
  dependencies: z
    .looseObject({ runtime: z.array(GemDependency).nullish(), development: z.array(GemDependency).nullish() })
    .nullish(),
});
type GemSpec = z.output<typeof GemSpec>;

export async function fetchRubygems(env: UpstreamEnv, name: string): Promise<IngestedPackage> {
  const base = upstreamUrl(env, 'RUBYGEMS_URL');
  const list = await fetchDoc(`${base}/api/v1/versions/${encodeURIComponent(name)}.json`, z.array(GemVersion));
  const byNumber = new Map<string, GemVersion>();
  const platforms = new Map<string, string[]>();
  for (const v of list) {
    if (!byNumber.has(v.number) || v.platform === 'ruby') byNumber.set(v.number, v);
    platforms.set(v.number, [...(platforms.get(v.number) ?? []), String(v.platform ?? 'ruby')]);
  }
  const versions = await mapLimit([...byNumber.values()], 8, async (v) => {
    const url = `${base}/api/v2/rubygems/${encodeURIComponent(name)}/versions/${encodeURIComponent(v.number)}.json`;
    const d = await fetchDoc(url, GemSpec);
    const ps = platforms.get(v.number) ?? [];
    const linux =
      ps.includes(LINUX) && (v.platform ?? 'ruby') !== LINUX
        ? await fetchDoc(`${url}?platform=${LINUX}`, GemSpec)
        : null;
    return rubyVersion(v, d, ps, linux);
  });
  return { system: 'RUBYGEMS', name, versions };
}

function reqs(list: z.output<typeof GemDependency>[] | null | undefined): { name: string; requirement: string }[] {
  return (list ?? []).map((d) => ({ name: d.name, requirement: d.requirements ?? '' })).sort(byName);
}

function rubyVersion(v: GemVersion, d: GemSpec, platforms: string[], linux: GemSpec | null): IngestedVersion {
  const links: Link[] = [];
  const add = (label: string, url: unknown) => typeof url === 'string' && url && links.push({ label, url });
  add('HOMEPAGE', d.homepage_uri);
  add('DOCUMENTATION', d.documentation_uri);
  add('ISSUE_TRACKER', d.bug_tracker_uri);
  add('SOURCE_REPO', d.source_code_uri);
  return {
    version: String(v.number),
    publishedAt: isoTime(v.created_at ?? d.created_at),
    deprecated: null,
    ...licenseFields(v.licenses ?? d.licenses ?? []),
    links,
    registries: [RUBYGEMS_REGISTRY],
    slsaProvenances: [],
    attestations: [],
    requirements: {
      rubygems: {
        runtimeDependencies: reqs(d.dependencies?.runtime),
        devDependencies: reqs(d.dependencies?.development),
        platform: String(v.platform ?? d.platform ?? 'ruby'),
        requiredRubyVersion: String(d.required_ruby_version ?? v.ruby_version ?? ''),
        requiredRubygemsVersion: String(d.required_rubygems_version ?? v.rubygems_version ?? ''),
      },
    },
    meta: {
      platform: v.platform ?? 'ruby',
      platforms,
      requiredRuby: String(d.required_ruby_version ?? v.ruby_version ?? ''),
      ...(linux ? { linuxRuntimeDependencies: reqs(linux.dependencies?.runtime) } : {}),
    },
    artifacts:
      typeof v.sha === 'string' && /^[0-9a-f]{64}$/.test(v.sha)
        ? [
            {
              url: `${RUBYGEMS_REGISTRY}gems/${d.name ?? ''}-${v.number}.gem`,
              hashes: [{ type: 'SHA256', value: hexToBase64(v.sha) }],
            },
          ]
        : [],
  };
}
