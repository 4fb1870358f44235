/**
 * The rows one ingested package writes, table by table: the steps of a package store
 * (queries-write.ts runs them in one transaction, in this order, and holds the invariants). Each
 * step is one set-based statement (json_to_recordset over one JSON parameter), skipped when it has no
 * rows:
 *  1. claim the package row (dist-tags, `fetched_at`; NULL while partial): a plain store replaces it,
 *     a batched read-through store (`onlyNew`) leaves a package stored meanwhile as it is;
 *  2. the version rows, deleted and inserted again (canonical version, ordinal, default);
 *  3. each version's requirements;
 *  4. each artifact hash;
 *  5. the related projects: attested relations first, so a link naming the same (project,
 *     SOURCE_REPO) conflicts and is dropped and the attested relation is the one served; then the
 *     links (GO_ORIGIN for Go, UNVERIFIED_METADATA elsewhere).
 */
import type { Queryable } from '../platform/db.ts';
import type { System } from '../versions/index.ts';
import { relatedProjectsFromAttestations, relatedProjectsFromLinks } from './ingest/project-links.ts';
import type { IngestedPackage, IngestedVersion } from './ingest/types.ts';

/** An ingested version in the system's order: its canonical form, position, and whether it is the default. */
export interface Prepared extends IngestedVersion {
  canonical: string;
  ordinal: number;
  isDefault: boolean;
}

/** Writes the package row; false when `onlyNew` and the package is already stored (nothing more to write). */
export async function claimPackage(tx: Queryable, pkg: IngestedPackage, onlyNew: boolean): Promise<boolean> {
  const claimed = await tx.query(
    `INSERT INTO insights.packages (system, name, dist_tags, fetched_at) VALUES ($1, $2, $3, CASE WHEN $4::boolean THEN NULL ELSE now() END)
     ON CONFLICT (system, name) DO ${onlyNew ? 'NOTHING' : 'UPDATE SET dist_tags = EXCLUDED.dist_tags, fetched_at = EXCLUDED.fetched_at, answer_v3 = NULL, answer_alpha = NULL'} RETURNING 1`,
    [pkg.system, pkg.name, JSON.stringify(pkg.distTags ?? {}), pkg.partial === true],
  );
  return claimed.length > 0;
}

export async function replaceVersionRows(
  tx: Queryable,
  system: System,
  name: string,
  versions: readonly Prepared[],
): Promise<void> {
  await tx.query('DELETE FROM insights.versions WHERE system = $1 AND name = $2', [system, name]);
  await tx.query('SELECT insights.delete_package_rows($1, $2)', [system, name]); // orphans too (0189)
  const rows = versions.map((v) => ({
    version: v.canonical,
    upstream_version: v.version,
    ordinal: v.ordinal,
    published_at: v.publishedAt,
    is_default: v.isDefault,
    is_deprecated: v.deprecated !== null,
    deprecated_reason: v.deprecated ?? '',
    licenses: v.licenses,
    links: v.links,
    slsa_provenances: v.slsaProvenances,
    attestations: v.attestations,
    registries: v.registries,
    project_status: v.projectStatus ?? null,
    meta: v.meta,
  }));
  if (!rows.length) return;
  await tx.query(
    `INSERT INTO insights.versions (system, name, version, upstream_version, ordinal, published_at, is_default,
        is_deprecated, deprecated_reason, licenses, links, slsa_provenances, attestations, registries, project_status, meta)
      SELECT $2::text, $3::text, x.version, x.upstream_version, x.ordinal, x.published_at, x.is_default, x.is_deprecated,
        x.deprecated_reason, x.licenses, x.links, x.slsa_provenances, x.attestations, x.registries, x.project_status, x.meta
      FROM json_to_recordset($1::json) AS x(version text, upstream_version text, ordinal int, published_at timestamptz,
        is_default boolean, is_deprecated boolean, deprecated_reason text, licenses json, links json, slsa_provenances json,
        attestations json, registries json, project_status json, meta jsonb)`,
    [JSON.stringify(rows), system, name],
  );
}

export async function storeRequirementRows(
  tx: Queryable,
  system: System,
  name: string,
  versions: readonly Prepared[],
): Promise<void> {
  const reqs = versions
    .filter((v) => v.requirements)
    .map((v) => ({ version: v.canonical, requirements: v.requirements }));
  if (!reqs.length) return;
  await tx.query(
    `INSERT INTO insights.requirements (system, name, version, requirements)
      SELECT $2::text, $3::text, x.version, x.requirements FROM json_to_recordset($1::json) AS x(version text, requirements json)`,
    [JSON.stringify(reqs), system, name],
  );
}

export async function storeArtifactRows(
  tx: Queryable,
  system: System,
  name: string,
  versions: readonly Prepared[],
): Promise<void> {
  const arts = versions.flatMap((v) =>
    v.artifacts.flatMap((a) =>
      a.hashes.map((h) => ({ version: v.canonical, url: a.url, hash_type: h.type, hash_value: h.value })),
    ),
  );
  if (!arts.length) return;
  await tx.query(
    `INSERT INTO insights.artifacts (system, name, version, url, hash_type, hash_value)
      SELECT $2::text, $3::text, x.version, x.url, x.hash_type, decode(x.hash_value, 'base64')
      FROM json_to_recordset($1::json) AS x(version text, url text, hash_type text, hash_value text)`,
    [JSON.stringify(arts), system, name],
  );
}

/** The related projects, attested ones before linked ones (see header). */
export async function storeProjectRelations(
  tx: Queryable,
  system: System,
  name: string,
  versions: readonly Prepared[],
): Promise<void> {
  await storeAttestedProjects(tx, system, name, versions);
  await storeLinkedProjects(tx, system, name, versions);
}

async function storeAttestedProjects(
  tx: Queryable,
  system: System,
  name: string,
  versions: readonly Prepared[],
): Promise<void> {
  const attested = versions.flatMap((v) =>
    relatedProjectsFromAttestations(v).map((p) => ({
      project_id: p.projectId,
      version: v.canonical,
      relation_type: p.relationType,
      relation_provenance: p.relationProvenance,
      slsa_provenances: p.slsaProvenances,
      attestations: p.attestations,
    })),
  );
  if (!attested.length) return;
  await tx.query(
    `INSERT INTO insights.project_versions (project_id, system, name, version, relation_type, relation_provenance,
        from_attestation, slsa_provenances, attestations)
      SELECT x.project_id, $2::text, $3::text, x.version, x.relation_type, x.relation_provenance, true, x.slsa_provenances, x.attestations
      FROM json_to_recordset($1::json) AS x(project_id text, version text, relation_type text, relation_provenance text,
        slsa_provenances json, attestations json)
      ON CONFLICT DO NOTHING`,
    [JSON.stringify(attested), system, name],
  );
}

async function storeLinkedProjects(
  tx: Queryable,
  system: System,
  name: string,
  versions: readonly Prepared[],
): Promise<void> {
  const provenance = system === 'GO' ? 'GO_ORIGIN' : 'UNVERIFIED_METADATA';
  const projects = versions.flatMap((v) =>
    relatedProjectsFromLinks(v.links).map((p) => ({
      project_id: p.projectId,
      version: v.canonical,
      relation_type: p.relationType,
      relation_provenance: provenance,
    })),
  );
  if (!projects.length) return;
  await tx.query(
    `INSERT INTO insights.project_versions (project_id, system, name, version, relation_type, relation_provenance)
      SELECT x.project_id, $2::text, $3::text, x.version, x.relation_type, x.relation_provenance
      FROM json_to_recordset($1::json) AS x(project_id text, version text, relation_type text, relation_provenance text)
      ON CONFLICT DO NOTHING`,
    [JSON.stringify(projects), system, name],
  );
}
