/**
 * The read status an answer's Warning header is built from (read-status.ts), beside the advisories'
 * (advisory-reads.ts): failed registry reads of stored packages, versions whose attestations are not
 * read (npm: still pending in `meta`; PyPI: the integrity API failed, `meta.attestationsError`), failed
 * project and Scorecard reads. Each is one statement over the answer's keys, and the store-time
 * recording of the PyPI outcome (recordAttestationReads, called by every package store).
 */
import type { Queryable } from '../platform/db.ts';
import { ATTESTATIONS_ERROR } from './ingest/attestations.ts';
import { NPM_ATTESTATIONS } from './ingest/npm-pending.ts';
import { PROJECT_SYSTEM, sourceReadFromRow, type SourceRead, type SourceReadRow } from './queries-source-reads.ts';

type Row = SourceReadRow;
const readOf = sourceReadFromRow;

/** Stored packages whose registry read failed after the stored copy was read, with that copy's time. */
export async function registryFailures(
  db: Queryable,
  keys: readonly { system: string; name: string }[],
): Promise<(SourceRead & { fetchedAt: Date })[]> {
  if (!keys.length) return [];
  const rows = await db.query<Row & { fetched_at: Date | string }>(
    `SELECT r.system, r.name, r.version, r.read_at, r.attempted_at, r.failed_at, r.error, p.fetched_at
    FROM unnest($1::text[], $2::text[]) AS k(system, name)
    JOIN insights.source_reads r ON r.system = k.system AND r.name = k.name AND r.source = 'registry' AND r.version = ''
    JOIN insights.packages p ON p.system = k.system AND p.name = k.name
    WHERE r.failed_at > p.fetched_at -- a read failed since the stored copy was read (by whichever path)`,
    [keys.map((k) => k.system), keys.map((k) => k.name)],
  );
  return rows.map((r) => ({ ...readOf(r), fetchedAt: new Date(r.fetched_at) }));
}

export interface UnreadAttestations extends SourceRead {
  /** npm: the document is still to read (its URL); null for a failed PyPI read. */
  pendingUrl: string | null;
}

/** Stored versions among `keys` whose attestations are not read, with their read status. */
export async function unreadAttestations(
  db: Queryable,
  keys: readonly { system: string; name: string; version: string }[],
): Promise<UnreadAttestations[]> {
  if (!keys.length) return [];
  const rows = await db.query<Row & { pending_url: string | null; meta_error: string | null }>(
    `SELECT v.system, v.name, v.version, r.read_at, r.attempted_at, r.failed_at,
      COALESCE(NULLIF(r.error, ''), v.meta->>'${ATTESTATIONS_ERROR}') AS error,
      v.meta->>'${NPM_ATTESTATIONS}' AS pending_url
    FROM unnest($1::text[], $2::text[], $3::text[]) AS k(system, name, version)
    JOIN insights.versions v ON v.system = k.system AND v.name = k.name AND v.version = k.version
    LEFT JOIN insights.source_reads r ON r.system = v.system AND r.name = v.name AND r.version = v.version
      AND r.source = 'attestations'
    WHERE v.meta ? '${NPM_ATTESTATIONS}' OR v.meta ? '${ATTESTATIONS_ERROR}'`,
    [keys.map((k) => k.system), keys.map((k) => k.name), keys.map((k) => k.version)],
  );
  return rows.map((r) => ({ ...readOf(r), pendingUrl: r.pending_url }));
}

export interface ProjectStatus {
  id: string;
  fetchedAt: Date;
  project: SourceRead | null;
  scorecard: SourceRead | null;
}

/** Stored projects among `ids`: when they were read, and their failed host or Scorecard reads. */
export async function projectStatuses(db: Queryable, ids: readonly string[]): Promise<ProjectStatus[]> {
  if (!ids.length) return [];
  const rows = await db.query<Row & { id: string; fetched_at: Date | string; source: string | null }>(
    `SELECT p.id, p.fetched_at, r.source, r.system, r.name, r.version, r.read_at, r.attempted_at, r.failed_at, r.error
    FROM insights.projects p
    LEFT JOIN insights.source_reads r ON r.system = '${PROJECT_SYSTEM}' AND r.name = p.id AND r.version = ''
      AND r.source IN ('project', 'scorecard') AND (r.failed_at IS NOT NULL OR r.read_at IS NULL)
      AND (r.source = 'scorecard' OR r.failed_at > p.fetched_at)
    WHERE p.id = ANY($1::text[])`,
    [ids],
  );
  const out = new Map<string, ProjectStatus>();
  for (const r of rows) {
    const s = out.get(r.id) ?? { id: r.id, fetchedAt: new Date(r.fetched_at), project: null, scorecard: null };
    if (r.source === 'project' || r.source === 'scorecard') s[r.source] = readOf(r);
    out.set(r.id, s);
  }
  return [...out.values()];
}

/**
 * At a package store, before its rows are replaced: each version whose attestations could not be read
 * (`meta.attestationsError`) keeps its last good attestations (stale-if-error) and has the failure
 * recorded (with the time of the last good read: the stored copy's, when it was read then); a version
 * read now clears an earlier failure. Returns the versions to store.
 */
export async function recordAttestationReads<
  V extends { canonical: string; meta: Record<string, unknown>; attestations: unknown[] },
>(tx: Queryable, system: string, name: string, versions: readonly V[]): Promise<V[]> {
  const failed = versions.filter((v) => typeof v.meta[ATTESTATIONS_ERROR] === 'string');
  const read = versions.filter((v) => !(ATTESTATIONS_ERROR in v.meta) && !(NPM_ATTESTATIONS in v.meta));
  await tx.query(
    `UPDATE insights.source_reads SET read_at = now(), failed_at = NULL, error = ''
    WHERE system = $1 AND name = $2 AND source = 'attestations' AND failed_at IS NOT NULL AND version = ANY($3::text[])`,
    [system, name, read.map((v) => v.canonical)],
  );
  if (!failed.length) return [...versions];
  // the stored rows (before this store replaces them): a version stored without the marker was read then
  const old = await tx.query<{ version: string; attestations: unknown[]; good_at: Date | string | null }>(
    `SELECT v.version, v.attestations, CASE WHEN v.meta ? '${ATTESTATIONS_ERROR}' THEN NULL ELSE p.fetched_at END AS good_at
    FROM insights.versions v JOIN insights.packages p USING (system, name)
    WHERE v.system = $1 AND v.name = $2 AND v.version = ANY($3::text[]) AND NOT v.meta ? '${NPM_ATTESTATIONS}'`,
    [system, name, failed.map((v) => v.canonical)],
  );
  const goodAt = new Map(old.map((o) => [o.version, o.good_at === null ? null : new Date(o.good_at).toISOString()]));
  await tx.query(
    `INSERT INTO insights.source_reads AS r (system, name, source, version, read_at, attempted_at, failed_at, error)
    SELECT $1, $2, 'attestations', x.version, x.good_at, now(), now(), x.error
    FROM unnest($3::text[], $4::text[], $5::timestamptz[]) AS x(version, error, good_at)
    ON CONFLICT (system, name, source, version) DO UPDATE SET failed_at = now(), error = EXCLUDED.error,
      read_at = COALESCE(r.read_at, EXCLUDED.read_at)`,
    [
      system,
      name,
      failed.map((v) => v.canonical),
      failed.map((v) => String(v.meta[ATTESTATIONS_ERROR])),
      failed.map((v) => goodAt.get(v.canonical) ?? null),
    ],
  );
  const last = new Map(old.map((o) => [o.version, o.attestations]));
  return versions.map((v) =>
    typeof v.meta[ATTESTATIONS_ERROR] === 'string' && last.get(v.canonical)?.length
      ? { ...v, attestations: last.get(v.canonical)! }
      : v,
  );
}
