/**
 * SQL of the change feeds (migrations/0191_registry_feeds.sql): the per-registry cursor with its lease,
 * the backlog of stored packages a feed named, and the status the health route shows. The cursor moves
 * only in `recordPage`, in the transaction that puts the page's stored names into the backlog, so a read
 * is either wholly recorded or read again by the next run.
 */
import type { Db, Queryable } from '../platform/db.ts';
import type { FeedChange } from './feeds/types.ts';

/** Takes the registry's lease for `seconds`; the cursor (null: never started), or undefined when another run holds it. */
export async function claimFeed(db: Queryable, registry: string, seconds: number): Promise<string | null | undefined> {
  await db.query('INSERT INTO insights.feed_cursors (registry) VALUES ($1) ON CONFLICT (registry) DO NOTHING', [
    registry,
  ]);
  const rows = await db.query<{ cursor: string | null }>(
    `UPDATE insights.feed_cursors SET lease_until = now() + make_interval(secs => $2)
     WHERE registry = $1 AND (lease_until IS NULL OR lease_until < now()) RETURNING cursor`,
    [registry, seconds],
  );
  return rows.length === 0 ? undefined : rows[0]!.cursor;
}

export async function releaseFeed(db: Queryable, registry: string): Promise<void> {
  await db.query('UPDATE insights.feed_cursors SET lease_until = NULL WHERE registry = $1', [registry]);
}

/** Forgets refreshes older than an hour (no graph resolution runs that long). */
export async function pruneRefreshes(db: Queryable): Promise<void> {
  await db.query("DELETE FROM insights.feed_refreshes WHERE refreshed_at < now() - interval '1 hour'");
}

/** A first cursor: where the feed stands now (no changes recorded). */
export async function startCursor(db: Queryable, registry: string, cursor: string): Promise<void> {
  await db.query(
    'UPDATE insights.feed_cursors SET cursor = $2, last_read_at = now(), last_error = NULL WHERE registry = $1',
    [registry, cursor],
  );
}

/**
 * Records one page read: its changes to stored packages join the backlog (one row per package; a later
 * change bumps `changes` and keeps the first `seen_at`) and the cursor moves past the page. Names the
 * service has not stored are not its business (the feed is not a crawler). Returns the names queued.
 */
export async function recordPage(
  db: Db,
  registry: string,
  system: string,
  changes: readonly FeedChange[],
  cursor: string,
): Promise<number> {
  return db.transaction(async (tx) => {
    const queued = changes.length
      ? await tx.query<{ n: string }>(
          `WITH c AS (SELECT DISTINCT ON (name) name, deleted
              FROM unnest($3::text[], $4::boolean[]) WITH ORDINALITY AS c(name, deleted, i) ORDER BY name, i DESC),
            w AS (INSERT INTO insights.feed_backlog (system, name, registry, deleted)
              SELECT $2, c.name, $1, c.deleted FROM c JOIN insights.packages p ON p.system = $2 AND p.name = c.name
              ON CONFLICT (system, name) DO UPDATE SET deleted = EXCLUDED.deleted,
                changes = insights.feed_backlog.changes + 1, next_try_at = now()
              RETURNING 1)
           SELECT count(*) AS n FROM w`,
          [registry, system, changes.map((c) => c.name), changes.map((c) => c.deleted === true)],
        )
      : [{ n: '0' }];
    await tx.query(
      `UPDATE insights.feed_cursors SET cursor = $2, last_read_at = now(), last_error = NULL,
        last_change_at = CASE WHEN $3 > 0 THEN now() ELSE last_change_at END, changes_read = changes_read + $3
       WHERE registry = $1`,
      [registry, cursor, changes.length],
    );
    return Number(queued[0]!.n);
  });
}

export async function recordFeedError(db: Queryable, registry: string, message: string): Promise<void> {
  await db.query('UPDATE insights.feed_cursors SET last_error = $2, last_read_at = now() WHERE registry = $1', [
    registry,
    message.slice(0, 500),
  ]);
}

export interface BacklogItem {
  system: string;
  name: string;
  deleted: boolean;
  changes: number;
  fetched: boolean;
}

/** Backlog rows of a registry that are due, oldest first. */
export async function dueBacklog(db: Queryable, registry: string, limit: number): Promise<BacklogItem[]> {
  if (limit <= 0) return [];
  return db.query<BacklogItem>(
    `SELECT b.system, b.name, b.deleted, b.changes, (p.fetched_at IS NOT NULL) AS fetched
     FROM insights.feed_backlog b LEFT JOIN insights.packages p ON p.system = b.system AND p.name = b.name
     WHERE b.registry = $1 AND b.next_try_at <= now() ORDER BY b.seen_at, b.name LIMIT $2`,
    [registry, limit],
  );
}

/**
 * The refresh of `item` is done: its row goes unless another change arrived meanwhile. (The store itself
 * noted the replacement in insights.feed_refreshes, by 0191's triggers.)
 */
export async function backlogDone(
  db: Queryable,
  registry: string,
  item: BacklogItem,
  deleted: boolean,
  changed = true,
): Promise<void> {
  await db.query('DELETE FROM insights.feed_backlog WHERE system = $1 AND name = $2 AND changes = $3', [
    item.system,
    item.name,
    item.changes,
  ]);
  await db.query(
    `UPDATE insights.feed_cursors SET refreshed = refreshed + ${deleted || !changed ? 0 : 1},
       deleted = deleted + ${deleted ? 1 : 0} WHERE registry = $1`,
    [registry],
  );
}

/** A failed refresh: tried again after 10 s, doubling per attempt up to an hour. */
export async function backlogFailed(db: Queryable, item: BacklogItem): Promise<void> {
  await db.query(
    `UPDATE insights.feed_backlog SET attempts = attempts + 1,
       next_try_at = now() + make_interval(secs => least(3600, 10 * power(2, attempts)))
     WHERE system = $1 AND name = $2`,
    [item.system, item.name],
  );
}

/** A package the registry no longer has: removed with everything stored of it (cached graphs by 0150's trigger). */
export async function forgetPackage(db: Queryable, system: string, name: string): Promise<void> {
  await db.query('DELETE FROM insights.packages WHERE system = $1 AND name = $2', [system, name]);
}

export interface FeedStatusRow {
  registry: string;
  cursor: string | null;
  last_read_at: Date | null;
  last_change_at: Date | null;
  changes_read: string;
  refreshed: string;
  deleted: string;
  last_error: string | null;
  backlog: string;
  oldest: Date | null;
}

export async function feedStatus(db: Queryable): Promise<FeedStatusRow[]> {
  return db.query<FeedStatusRow>(
    `SELECT c.registry, c.cursor, c.last_read_at, c.last_change_at, c.changes_read, c.refreshed, c.deleted, c.last_error,
       (SELECT count(*) FROM insights.feed_backlog b WHERE b.registry = c.registry) AS backlog,
       (SELECT min(seen_at) FROM insights.feed_backlog b WHERE b.registry = c.registry) AS oldest
     FROM insights.feed_cursors c ORDER BY c.registry`,
  );
}
