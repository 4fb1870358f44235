/**
 * A Package answer (GetPackage, v3 and v3alpha) built from a fetched package instead of from its rows: the
 * text insights.package_json / package_json_alpha build once the package is stored (stored-answers.ts),
 * byte for byte (compact JSON, members in the message's order, null members left out): versions in the
 * system's order, each canonical, `publishedAt` in whole UTC seconds, the default chosen as the store
 * chooses it (prepareVersions). A first read answers with it before the package is stored.
 */
import type { IngestedPackage } from './ingest/types.ts';
import { prepareVersions } from './queries-write.ts';

const PURL_TYPES: Record<string, string> = {
  NPM: 'npm',
  PYPI: 'pypi',
  CARGO: 'cargo',
  MAVEN: 'maven',
  NUGET: 'nuget',
  RUBYGEMS: 'gem',
  GO: 'golang',
};

/** insights.purl_segment: the characters a purl segment cannot hold as they are. */
function purlSegment(s: string): string {
  return s
    .replaceAll('%', '%25')
    .replaceAll('@', '%40')
    .replaceAll('?', '%3F')
    .replaceAll('#', '%23')
    .replaceAll(' ', '%20');
}

/** insights.purl: `pkg:<type>/<name segments>[@<version>]` (Maven `group:artifact`, npm and Go paths by `/`). */
export function purlOf(system: string, name: string, version?: string): string {
  const parts = system === 'MAVEN' ? name.split(':') : system === 'NPM' || system === 'GO' ? name.split('/') : [name];
  const at = version === undefined ? '' : `@${purlSegment(version)}`;
  return `pkg:${PURL_TYPES[system]}/${parts.map(purlSegment).join('/')}${at}`;
}

/** insights.rfc3339: whole seconds, UTC. */
export function rfc3339(t: string | null): string | undefined {
  if (t === null) return undefined;
  const d = new Date(t);
  return Number.isNaN(d.getTime()) ? undefined : `${d.toISOString().slice(0, 19)}Z`;
}

export function packageAnswer(pkg: IngestedPackage, alpha: boolean): string {
  const { system, name } = pkg;
  const versions = prepareVersions(pkg).map((v) => ({
    versionKey: { system, name, version: v.canonical },
    purl: alpha ? purlOf(system, name, v.canonical) : undefined,
    publishedAt: rfc3339(v.publishedAt),
    isDefault: v.isDefault,
    isDeprecated: v.deprecated !== null,
    deprecatedReason: v.deprecated ?? '',
  }));
  return JSON.stringify({ packageKey: { system, name }, purl: alpha ? purlOf(system, name) : undefined, versions });
}
