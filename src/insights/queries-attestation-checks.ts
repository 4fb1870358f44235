/**
 * The store side of attestation verification (attestation-checks.ts, migrations/0190): which attestation
 * documents of a package have no check yet, what a check needs from the stored version (its declared
 * source repository, its artifacts' digests, the npm document kept when it was read), and the write of a
 * check with the version's answers.
 */
import type { Db, Queryable } from '../platform/db.ts';
import { refreshVersionAnswers } from './stored-answers.ts';

export interface Unchecked {
  version: string;
  url: string;
  /** The version's SOURCE_REPO link (npm: the packument's `repository`), null when it has none. */
  repository: string | null;
}

/** Attestation documents of a package's versions not checked yet, at most `limit`, oldest versions first. */
export async function uncheckedAttestations(db: Queryable, system: string, name: string, limit: number) {
  return db.query<Unchecked>(
    `SELECT DISTINCT v.ordinal, v.version, a.value->>'url' AS url,
      (SELECT l->>'url' FROM json_array_elements(v.links) l WHERE l->>'label' = 'SOURCE_REPO' LIMIT 1) AS repository
    FROM insights.versions v CROSS JOIN LATERAL json_array_elements(v.attestations) a
    WHERE v.system = $1 AND v.name = $2 AND a.value->>'url' IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM insights.attestation_checks c
        WHERE c.system = v.system AND c.name = v.name AND c.version = v.version AND c.url = a.value->>'url')
    ORDER BY v.ordinal, url LIMIT $3`,
    [system, name, limit],
  );
}

/** The stored artifacts of a version: url, hash type (SHA512, SHA256, ...) and lower-case hex digest. */
export async function artifactDigests(db: Queryable, system: string, name: string, version: string) {
  return db.query<{ url: string; hash_type: string; hex: string }>(
    `SELECT url, hash_type, encode(hash_value, 'hex') AS hex FROM insights.artifacts
    WHERE system = $1 AND name = $2 AND version = $3 ORDER BY url, hash_type`,
    [system, name, version],
  );
}

export interface DocumentKey {
  system: string;
  name: string;
  version: string;
  url: string;
}

/** Keeps a document as read until its check has run (a document checked already is not kept again). */
export async function keepAttestationDocument(tx: Queryable, key: DocumentKey, document: unknown): Promise<void> {
  await tx.query(
    `INSERT INTO insights.attestation_documents (system, name, version, url, document)
    SELECT $1, $2, $3, $4, $5::json WHERE NOT EXISTS (SELECT 1 FROM insights.attestation_checks
      WHERE system = $1 AND name = $2 AND version = $3 AND url = $4)
    ON CONFLICT (system, name, version, url) DO UPDATE SET document = EXCLUDED.document`,
    [key.system, key.name, key.version, key.url, JSON.stringify(document)],
  );
}

/** The kept document, null when none is kept (read before documents were kept, or checked already). */
export async function keptAttestationDocument(db: Queryable, key: DocumentKey): Promise<unknown> {
  const rows = await db.query<{ document: string }>(
    `SELECT document::text AS document FROM insights.attestation_documents
    WHERE system = $1 AND name = $2 AND version = $3 AND url = $4`,
    [key.system, key.name, key.version, key.url],
  );
  return rows[0] ? JSON.parse(rows[0].document) : null;
}

/** Records a document's check, drops its kept copy and rewrites the version's stored answers, which show it. */
export async function storeAttestationCheck(
  db: Db,
  key: DocumentKey,
  verdict: { verified: boolean; reason: string },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO insights.attestation_checks (system, name, version, url, verified, reason)
      VALUES ($1, $2, $3, $4, $5, $6)
      ON CONFLICT (system, name, version, url) DO UPDATE SET verified = EXCLUDED.verified, reason = EXCLUDED.reason,
        checked_at = now()`,
      [key.system, key.name, key.version, key.url, verdict.verified, verdict.reason],
    );
    await tx.query(
      'DELETE FROM insights.attestation_documents WHERE system = $1 AND name = $2 AND version = $3 AND url = $4',
      [key.system, key.name, key.version, key.url],
    );
    await refreshVersionAnswers(tx, key.system, key.name, [key.version]);
  });
}
