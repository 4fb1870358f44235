/** The read status of a package's data per source (migration 0186): what advisory-reads.ts decides from. */
import type { Queryable } from '../platform/db.ts';

/**
 * A source a package's data comes from that may fail on its own: `osv` (the package's advisories);
 * `registry` records only the attempts at replacing seeded demo data (read-through.ts).
 */
export type Source = 'osv' | 'registry';

export interface SourceRead {
  system: string;
  name: string;
  /** Last successful read; null when the data was never read (unknown). */
  readAt: Date | null;
  attemptedAt: Date | null;
  /** Last failed attempt, null once a later read succeeded. */
  failedAt: Date | null;
  error: string;
}

const keyOf = (system: string, name: string) => `${system}\u0000${name}`;

/** The status of each key (a key without a row is never read: every date null). */
export async function sourceReads(
  db: Queryable,
  source: Source,
  keys: readonly { system: string; name: string }[],
): Promise<Map<string, SourceRead>> {
  const out = new Map<string, SourceRead>();
  for (const k of keys)
    out.set(keyOf(k.system, k.name), {
      system: k.system,
      name: k.name,
      readAt: null,
      attemptedAt: null,
      failedAt: null,
      error: '',
    });
  if (keys.length === 0) return out;
  const rows = await db.query<{
    system: string;
    name: string;
    read_at: Date | string | null;
    attempted_at: Date | string | null;
    failed_at: Date | string | null;
    error: string;
  }>(
    `SELECT r.system, r.name, r.read_at, r.attempted_at, r.failed_at, r.error
    FROM insights.source_reads r JOIN unnest($2::text[], $3::text[]) AS k(system, name)
      ON r.system = k.system AND r.name = k.name
    WHERE r.source = $1`,
    [source, keys.map((k) => k.system), keys.map((k) => k.name)],
  );
  const date = (d: Date | string | null) => (d === null ? null : new Date(d));
  for (const r of rows)
    out.set(keyOf(r.system, r.name), {
      system: r.system,
      name: r.name,
      readAt: date(r.read_at),
      attemptedAt: date(r.attempted_at),
      failedAt: date(r.failed_at),
      error: r.error,
    });
  return out;
}

export function sourceReadOf(reads: Map<string, SourceRead>, system: string, name: string): SourceRead {
  return reads.get(keyOf(system, name))!;
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
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO insights.source_reads AS r (system, name, source, attempted_at) VALUES ($1, $2, $3, now())
    ON CONFLICT (system, name, source) DO UPDATE SET attempted_at = now()
    WHERE r.attempted_at IS NULL OR r.attempted_at <= now() - make_interval(secs => $4::float8)
    RETURNING 1`,
    [system, name, source, retrySeconds],
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
): Promise<void> {
  await db.query(
    failure === null
      ? `INSERT INTO insights.source_reads AS r (system, name, source, read_at, attempted_at)
        VALUES ($1, $2, $3, now(), now())
        ON CONFLICT (system, name, source) DO UPDATE SET read_at = now(), failed_at = NULL, error = ''`
      : `INSERT INTO insights.source_reads AS r (system, name, source, attempted_at, failed_at, error)
        VALUES ($1, $2, $3, now(), now(), $4)
        ON CONFLICT (system, name, source) DO UPDATE SET failed_at = now(), error = $4`,
    failure === null ? [system, name, source] : [system, name, source, failure.slice(0, 500)],
  );
}
