/**
 * The npm reads left pending at ingestion (ingest/npm-pending.ts), in the store: which versions still
 * have a tarball or an attestations document to read, and the writes that fill them in. A fill is one
 * transaction: the data, the marker dropped from `meta`, the resolve document rebuilt (0156 cleared it)
 * and, for attestations, the related projects and the stored GetVersion answers (stored-answers.ts).
 * Neither drops a cached graph (0186).
 */
import type { Db, Queryable } from '../platform/db.ts';
import type { ReadAttestations } from './ingest/attestations.ts';
import { keepAttestationDocument } from './queries-attestation-checks.ts';
import { relatedProjectsFromAttestations } from './ingest/project-links.ts';
import { NPM_ATTESTATIONS, NPM_TARBALL } from './ingest/npm-pending.ts';
import type { Bundle } from './ingest/npm-tarball.ts';
import { rebuildResolveDoc } from './queries-write.ts';
import { refreshVersionAnswers } from './stored-answers.ts';

export interface NpmPendingVersion {
  version: string;
  ordinal: number;
  tarball: string | null;
  attestations: string | null;
}

/** Versions of a package still pending, newest first, below ordinal `before` (exclusive). */
export async function npmPendingVersions(
  db: Queryable,
  name: string,
  before: number,
  limit: number,
): Promise<NpmPendingVersion[]> {
  return db.query<NpmPendingVersion>(
    `SELECT version, ordinal, meta->>'${NPM_TARBALL}' AS tarball, meta->>'${NPM_ATTESTATIONS}' AS attestations
    FROM insights.versions WHERE system = 'NPM' AND name = $1 AND ordinal < $2
      AND (meta ? '${NPM_TARBALL}' OR meta ? '${NPM_ATTESTATIONS}')
    ORDER BY ordinal DESC LIMIT $3`,
    [name, before, limit],
  );
}

/** One version's pending reads; null when the version is not stored. */
export async function npmPendingOf(db: Queryable, name: string, version: string): Promise<NpmPendingVersion | null> {
  const rows = await db.query<NpmPendingVersion>(
    `SELECT version, ordinal, meta->>'${NPM_TARBALL}' AS tarball, meta->>'${NPM_ATTESTATIONS}' AS attestations
    FROM insights.versions WHERE system = 'NPM' AND name = $1 AND version = $2`,
    [name, version],
  );
  return rows[0] ?? null;
}

/** Fills `requirements.npm.bundled` of a version (key order kept: the row is rewritten as text). */
export async function storeNpmBundled(
  db: Db,
  name: string,
  version: string,
  bundled: readonly Bundle[],
): Promise<void> {
  await db.transaction(async (tx) => {
    const rows = await tx.query<{ requirements: string }>(
      `SELECT r.requirements::text AS requirements FROM insights.requirements r JOIN insights.versions v USING (system, name, version)
      WHERE r.system = 'NPM' AND r.name = $1 AND r.version = $2 AND v.meta ? '${NPM_TARBALL}' FOR UPDATE OF v`,
      [name, version],
    );
    if (!rows[0]) return; // filled meanwhile, or the package was stored again
    const req = JSON.parse(rows[0].requirements) as { npm?: { bundled?: unknown } };
    if (req.npm) req.npm.bundled = bundled;
    await tx.query(
      `UPDATE insights.requirements SET requirements = $3::json WHERE system = 'NPM' AND name = $1 AND version = $2`,
      [name, version, JSON.stringify(req)],
    );
    await dropMarker(tx, name, version, NPM_TARBALL);
  });
}

/** Fills a version's slsaProvenances/attestations and the projects they name. */
export async function storeNpmAttestations(
  db: Db,
  name: string,
  version: string,
  read: ReadAttestations,
): Promise<void> {
  await db.transaction(async (tx) => {
    const updated = await tx.query(
      `UPDATE insights.versions SET slsa_provenances = $3::json, attestations = $4::json, meta = meta - '${NPM_ATTESTATIONS}'
      WHERE system = 'NPM' AND name = $1 AND version = $2 AND meta ? '${NPM_ATTESTATIONS}' RETURNING 1`,
      [name, version, JSON.stringify(read.slsaProvenances), JSON.stringify(read.attestations)],
    );
    if (updated.length === 0) return;
    if (read.document !== undefined && read.attestations.length)
      await keepAttestationDocument(
        tx,
        { system: 'NPM', name, version, url: read.attestations[0]!.url },
        read.document,
      );
    const attested = relatedProjectsFromAttestations(read).map((p) => ({
      project_id: p.projectId,
      relation_type: p.relationType,
      relation_provenance: p.relationProvenance,
      slsa_provenances: p.slsaProvenances,
      attestations: p.attestations,
    }));
    if (attested.length)
      await tx.query(
        `INSERT INTO insights.project_versions (project_id, system, name, version, relation_type, relation_provenance,
          from_attestation, slsa_provenances, attestations)
        SELECT x.project_id, 'NPM', $2::text, $3::text, x.relation_type, x.relation_provenance, true, x.slsa_provenances, x.attestations
        FROM json_to_recordset($1::json) AS x(project_id text, relation_type text, relation_provenance text,
          slsa_provenances json, attestations json)
        ON CONFLICT (system, name, version, relation_type, project_id) DO UPDATE SET
          relation_provenance = EXCLUDED.relation_provenance, from_attestation = true,
          slsa_provenances = EXCLUDED.slsa_provenances, attestations = EXCLUDED.attestations`,
        [JSON.stringify(attested), name, version],
      );
    await rebuildResolveDoc(tx, 'NPM', name);
    await refreshVersionAnswers(tx, 'NPM', name, [version]);
  });
}

async function dropMarker(tx: Queryable, name: string, version: string, key: string): Promise<void> {
  await tx.query(
    `UPDATE insights.versions SET meta = meta - $3::text WHERE system = 'NPM' AND name = $1 AND version = $2`,
    [name, version, key],
  );
  await rebuildResolveDoc(tx, 'NPM', name);
}
