/** Counters of market.rate_limits: a window per key, restarted once it is older than its length. */
import type { Queryable } from '../platform/db.ts';

export interface Hits {
  hits: number;
  /** Seconds until the window restarts. */
  resetIn: number;
}

/** Counts one hit and answers the window's count including it (one statement, safe under concurrency). */
export async function countHit(db: Queryable, key: string, windowSeconds: number): Promise<Hits> {
  const [row] = await db.query<{ hits: number; reset_in: number }>(
    `INSERT INTO market.rate_limits AS r (key, window_start, hits) VALUES ($1, now(), 1)
     ON CONFLICT (key) DO UPDATE SET
       hits = CASE WHEN r.window_start <= now() - make_interval(secs => $2) THEN 1 ELSE r.hits + 1 END,
       window_start = CASE WHEN r.window_start <= now() - make_interval(secs => $2) THEN now() ELSE r.window_start END
     RETURNING hits, ceil(extract(epoch FROM r.window_start + make_interval(secs => $2) - now()))::int AS reset_in`,
    [key, windowSeconds],
  );
  return { hits: row!.hits, resetIn: Math.max(1, row!.reset_in) };
}

/** The window's count without counting (0 once the window has passed). */
export async function hitsOf(db: Queryable, key: string, windowSeconds: number): Promise<Hits> {
  const [row] = await db.query<{ hits: number; reset_in: number }>(
    `SELECT hits, ceil(extract(epoch FROM window_start + make_interval(secs => $2) - now()))::int AS reset_in
     FROM market.rate_limits WHERE key = $1 AND window_start > now() - make_interval(secs => $2)`,
    [key, windowSeconds],
  );
  return row ? { hits: row.hits, resetIn: Math.max(1, row.reset_in) } : { hits: 0, resetIn: 0 };
}

export async function clearHits(db: Queryable, key: string): Promise<void> {
  await db.query('DELETE FROM market.rate_limits WHERE key = $1', [key]);
}

/** Deletes the windows that ended more than `afterSeconds` ago (the scheduled job); how many went. */
export async function pruneHits(db: Queryable, afterSeconds: number): Promise<number> {
  const gone = await db.query(
    'DELETE FROM market.rate_limits WHERE window_start < now() - make_interval(secs => $1) RETURNING 1',
    [afterSeconds],
  );
  return gone.length;
}
