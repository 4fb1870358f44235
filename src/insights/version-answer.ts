/**
 * A Version answer (GetVersion, v3 and v3alpha) built from a fetched package instead of from its rows: the
 * text insights.version_json (and version_json_alpha completed by version-alpha.ts) build once the
 * package is stored, byte for byte. The parts the rows would hold come from what the store derives from
 * the same package:
 *   advisoryKeys     the package's OSV records that affect the version (osv-affected.ts), by id in C order
 *   slsaProvenances  as fetched, `verified` false (no check has run: attestation-checks.ts, 0190)
 *   attestations     likewise
 *   relatedProjects  from the attestations first (SLSA_ATTESTATION, PYPI_PUBLISH_ATTESTATION), then from the
 *                    links (UNVERIFIED_METADATA, GO_ORIGIN for Go), one per relation type and project, in
 *                    (relationType, projectId) C order, as storeProjectRelations writes them
 * and every member whose value is null is left out at any depth (json_strip_nulls).
 */
import type { Osv } from './ingest/osv.ts';
import { isAffected } from './osv-affected.ts';
import { relatedProjectsFromAttestations, relatedProjectsFromLinks } from './ingest/project-links.ts';
import type { Prepared } from './queries-write-package.ts';
import { purlOf, rfc3339 } from './package-answer.ts';
import { completeAlphaVersion } from './version-alpha.ts';
import type { System } from '../versions/index.ts';

/** v3alpha key order (insights.version_json_alpha). */
const ALPHA_ORDER = [
  'versionKey',
  'purl',
  'publishedAt',
  'isDefault',
  'isDeprecated',
  'deprecatedReason',
  'licenses',
  'advisoryKeys',
  'links',
  'slsaProvenances',
  'attestations',
  'registries',
  'relatedProjects',
  'upstreamIdentifiers',
  'projectStatus',
];

/** json_strip_nulls: object members whose value is null are dropped, at every depth (array elements are kept). */
function stripNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripNulls);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== null && v !== undefined) out[k] = stripNulls(v);
  return out;
}

/** PostgreSQL's C collation: by UTF-8 bytes. */
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** insights.checked_attestations with no check recorded: each entry's `verified` is false, in place. */
function unchecked<T extends object>(list: readonly T[]): T[] {
  return list.map((e) => ('verified' in e ? { ...e, verified: false } : e));
}

function relatedProjects(system: System, v: Prepared) {
  const rows = new Map<string, { projectId: string; relationType: string; relationProvenance: string }>();
  const add = (p: { projectId: string; relationType: string; relationProvenance: string }) => {
    const key = `${p.relationType}\u0000${p.projectId}`;
    if (!rows.has(key)) rows.set(key, p); // ON CONFLICT DO NOTHING: the attested row is written first
  };
  for (const p of relatedProjectsFromAttestations(v)) add(p);
  const linked = system === 'GO' ? 'GO_ORIGIN' : 'UNVERIFIED_METADATA';
  for (const p of relatedProjectsFromLinks(v.links)) add({ ...p, relationProvenance: linked });
  return [...rows.values()]
    .sort((a, b) => byBytes(a.relationType, b.relationType) || byBytes(a.projectId, b.projectId))
    .map((p) => ({
      projectKey: { id: p.projectId },
      relationProvenance: p.relationProvenance,
      relationType: p.relationType,
    }));
}

function advisoryKeys(system: System, name: string, version: string, records: readonly Osv[]) {
  const ids = new Set(records.filter((r) => isAffected(r, system, name, version)).map((r) => String(r.id)));
  return [...ids].sort(byBytes).map((id) => ({ id }));
}

/** The v3 Version message of `v` (insights.version_json), as an object in the message's member order. */
function versionObject(system: System, name: string, v: Prepared, records: readonly Osv[]): Record<string, unknown> {
  return stripNulls({
    versionKey: { system, name, version: v.canonical },
    publishedAt: rfc3339(v.publishedAt) ?? null,
    isDefault: v.isDefault,
    isDeprecated: v.deprecated !== null,
    deprecatedReason: v.deprecated ?? '',
    licenses: v.licenses,
    advisoryKeys: advisoryKeys(system, name, v.canonical, records),
    links: v.links,
    slsaProvenances: unchecked(v.slsaProvenances),
    attestations: unchecked(v.attestations),
    registries: v.registries,
    relatedProjects: relatedProjects(system, v),
    projectStatus: v.projectStatus ?? null,
  }) as Record<string, unknown>;
}

/** The GetVersion answer of one version of a fetched package, v3 or v3alpha (`cooldownDays` for the latter). */
export function versionAnswer(
  system: System,
  name: string,
  v: Prepared,
  records: readonly Osv[],
  alpha: boolean,
  cooldownDays: number,
): string {
  const v3 = versionObject(system, name, v, records);
  if (!alpha) return JSON.stringify(v3);
  const fields: Record<string, unknown> = {
    ...v3,
    purl: purlOf(system, name, v.canonical),
    upstreamIdentifiers:
      system === 'NPM' ? [{ packageName: name, versionString: v.version, source: 'NPM_NPMJS_ORG' }] : [],
  };
  const ordered = Object.fromEntries(
    ALPHA_ORDER.filter((k) => fields[k] !== undefined).map((k) => [k, fields[k]] as const),
  );
  const recorded = v.licenseDetails !== undefined || v.upstreamIdentifiers !== undefined;
  const details = recorded
    ? { licenseDetails: v.licenseDetails ?? [], upstreamIdentifiers: v.upstreamIdentifiers ?? null }
    : undefined;
  return JSON.stringify(completeAlphaVersion(stripNulls(ordered) as Record<string, unknown>, details, cooldownDays));
}
