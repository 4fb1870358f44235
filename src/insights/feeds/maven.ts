/**
 * Maven Central has no feed of changes, so its stored packages are re-read on a schedule proportional to
 * how recently they changed: a package is due when it was read longer ago than a 24th of the age of its
 * newest version (published an hour ago: every 5 minutes, the floor; a day ago: hourly; a month ago or
 * unknown: daily, the ceiling). A due package's `maven-metadata.xml` is read first (one request); only when
 * its version list differs from the stored one is the package ingested again (every POM), otherwise it is
 * marked read. Packages stored partially by a graph read-through (no read time) are not scheduled.
 */
import type { Db, Queryable } from '../../platform/db.ts';
import { fetchMavenForResolve } from '../ingest/maven.ts';
import type { UpstreamEnv } from '../ingest/http.ts';
import type { Feed } from './types.ts';

export const mavenSchedule: Feed = {
  registry: 'maven',
  system: 'MAVEN',
  async start() {
    return 'schedule';
  },
  async read(_env, cursor) {
    return { changes: [], cursor, more: false };
  },
  async due(db, limit) {
    const rows = await db.query<{ n: string }>(
      `WITH due AS (
         SELECT p.name FROM insights.packages p
         CROSS JOIN LATERAL (SELECT max(v.published_at) AS newest FROM insights.versions v
           WHERE v.system = p.system AND v.name = p.name) n
         WHERE p.system = 'MAVEN' AND p.fetched_at IS NOT NULL
           AND p.fetched_at < now() - least(interval '1 day',
             greatest(interval '5 minutes', coalesce((now() - n.newest) / 24, interval '1 day')))
         ORDER BY p.fetched_at LIMIT $1),
       w AS (INSERT INTO insights.feed_backlog (system, name, registry)
         SELECT 'MAVEN', name, 'maven' FROM due ON CONFLICT (system, name) DO NOTHING RETURNING 1)
       SELECT count(*) AS n FROM w`,
      [limit],
    );
    return Number(rows[0]!.n);
  },
};

/** Whether the registry lists exactly the stored versions; when it does, the package is marked read now. */
export async function mavenUnchanged(env: UpstreamEnv, db: Db, name: string): Promise<boolean> {
  const listed = (await fetchMavenForResolve(env, name)).versions.map((v) => v.version).sort();
  const stored = (await storedVersions(db, name)).sort();
  if (listed.length !== stored.length || listed.some((v, i) => v !== stored[i])) return false;
  await db.query(`UPDATE insights.packages SET fetched_at = now() WHERE system = 'MAVEN' AND name = $1`, [name]);
  return true;
}

async function storedVersions(db: Queryable, name: string): Promise<string[]> {
  const rows = await db.query<{ v: string }>(
    `SELECT coalesce(upstream_version, version) AS v FROM insights.versions WHERE system = 'MAVEN' AND name = $1`,
    [name],
  );
  return rows.map((r) => r.v);
}
