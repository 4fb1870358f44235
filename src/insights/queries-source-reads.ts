/**
 * The read status of data per source (migrations 0186, 0192): what advisory-reads.ts and read-status.ts
 * decide from. A key is a package (`version` ''), a version (`attestations`) or a project (system
 * PROJECT_SYSTEM, name the project id).
 */
import type { Queryable } from '../platform/db.ts';

/**
 * A source data comes from that may fail on its own: `osv` (a package's advisories); `registry` (a
 * package's registry document: reads that refresh or replace a stored copy, read-through.ts);
 * `attestations` (a version's npm attestations document or PyPI provenance); `tarball` (an npm version's
 * tarball, read for its bundled manifests); `project` (a project's host API) and `scorecard` (its
 * OpenSSF Scorecard).
 */
export type Source = 'osv' | 'registry' | 'attestations' | 'tarball' | 'project' | 'scorecard';

/** The `system` of a project's rows. */
export const PROJECT_SYSTEM = 'PROJECT';

export interface ReadKey {
  system: string;
  name: string;
  /** '' (or absent) for a package or project. */
  version?: string;
}

export interface SourceRead {
  system: string;
  name: string;
  version: string;
  /** Last successful read; null when the data was never read (unknown). */
  readAt: Date | null;
  attemptedAt: Date | null;
  /** Last failed attempt, null once a later read succeeded. */
  failedAt: Date | null;
  error: string;
}

const keyOf = (system: string, name: string, version = '') => `${system}\u0000${name}\u0000${version}`;

/** A row of insights.source_reads as read (dates as the driver gives them; `error` null where not selected). */
export interface SourceReadRow {
  system: string;
  name: string;
  version: string;
  read_at: Date | string | null;
  attempted_at: Date | string | null;
  failed_at: Date | string | null;
  error: string | null;
}

const date = (d: Date | string | null) => (d === null ? null : new Date(d));

export function sourceReadFromRow(r: SourceReadRow): SourceRead {
  return {
    system: r.system,
    name: r.name,
    version: r.version,
    readAt: date(r.read_at),
    attemptedAt: date(r.attempted_at),
    failedAt: date(r.failed_at),
    error: r.error ?? '',
  };
}

/** The status of each key (a key without a row is never read: every date null). */
export async function sourceReads(
  db: Queryable,
  source: Source,
  keys: readonly ReadKey[],
): Promise<Map<string, SourceRead>> {
  const out = new Map<string, SourceRead>();
  for (const k of keys)
    out.set(keyOf(k.system, k.name, k.version), {
      system: k.system,
      name: k.name,
      version: k.version ?? '',
      readAt: null,
      attemptedAt: null,
      failedAt: null,
      error: '',
    });
  if (keys.length === 0) return out;
  const rows = await db.query<SourceReadRow>(
    `SELECT r.system, r.name, r.version, r.read_at, r.attempted_at, r.failed_at, r.error
    FROM insights.source_reads r JOIN unnest($2::text[], $3::text[], $4::text[]) AS k(system, name, version)
      ON r.system = k.system AND r.name = k.name AND r.version = k.version
    WHERE r.source = $1`,
    [source, keys.map((k) => k.system), keys.map((k) => k.name), keys.map((k) => k.version ?? '')],
  );
  for (const r of rows) out.set(keyOf(r.system, r.name, r.version), sourceReadFromRow(r));
  return out;
}

export function sourceReadOf(reads: Map<string, SourceRead>, system: string, name: string, version = ''): SourceRead {
  return reads.get(keyOf(system, name, version))!;
}

/**
 * Claims the next attempt at a package's source: true (and attempted_at set to now) unless another
 * attempt started less than `retrySeconds` ago, so concurrent readers make one upstream request per window.
 */
export async function claimAttempt(
  db: Queryable,
  source: Source,
  system: string,
  name: string,
  retrySeconds: number,
  version = '',
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO insights.source_reads AS r (system, name, source, version, attempted_at) VALUES ($1, $2, $3, $5, now())
    ON CONFLICT (system, name, source, version) DO UPDATE SET attempted_at = now()
    WHERE r.attempted_at IS NULL OR r.attempted_at <= now() - make_interval(secs => $4::float8)
    RETURNING 1`,
    [system, name, source, retrySeconds, version],
  );
  return rows.length > 0;
}

/** Records the outcome of an attempt: a success clears the failure, a failure keeps the last good read. */
export async function markRead(
  db: Queryable,
  source: Source,
  system: string,
  name: string,
  failure: string | null,
  version = '',
): Promise<void> {
  await db.query(
    failure === null
      ? `INSERT INTO insights.source_reads AS r (system, name, source, version, read_at, attempted_at)
        VALUES ($1, $2, $3, $4, now(), now())
        ON CONFLICT (system, name, source, version) DO UPDATE SET read_at = now(), failed_at = NULL, error = ''`
      : `INSERT INTO insights.source_reads AS r (system, name, source, version, attempted_at, failed_at, error)
        VALUES ($1, $2, $3, $4, now(), now(), $5)
        ON CONFLICT (system, name, source, version) DO UPDATE SET failed_at = now(), error = $5`,
    failure === null ? [system, name, source, version] : [system, name, source, version, failure.slice(0, 500)],
  );
}
