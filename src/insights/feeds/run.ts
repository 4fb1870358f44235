/**
 * One run of the feeds cron (functions/insights.ts `scheduled`, every minute): for each feed named in
 * INSIGHTS_FEEDS, under a lease on its cursor row so two runs never follow one registry at once, read
 * the changes after the stored cursor (pages until the feed is caught up), record the stored packages
 * they name in the backlog and move the cursor in one transaction (queries-feeds.ts `recordPage`), then
 * refresh the backlog's due packages. The run keeps following for INSIGHTS_FEED_RUN_SECONDS, reading
 * again every INSIGHTS_FEED_POLL_SECONDS, so a change is read within seconds although Cron Triggers fire
 * once a minute.
 *
 * Bounds: every upstream request of the run (feed reads, refreshes, their OSV reads) counts against
 * INSIGHTS_FEED_FETCH_LIMIT, and at most INSIGHTS_FEED_NAMES_PER_RUN packages are refreshed; what is
 * left stays in the backlog for the next run. A feed that fails keeps its cursor (and says why in the
 * status): the next read resumes there, so an outage loses nothing.
 *
 * A refresh is the read-through's own `ingestPackage` (one transaction: versions, stored answers, and by
 * 0150's triggers the deletion of every cached graph that read the package, so the next graph request
 * resolves afresh and no answer mixes old and new data). A package the feed says is deleted and the
 * registry no longer serves is removed. Maven has no feed: its due packages are scheduled (maven.ts). A package stored only partially (by a graph read-through) is
 * removed too: the next graph that needs it reads it again, whole.
 */
import type { Db } from '../../platform/db.ts';
import type { Env } from '../../platform/env.ts';
import { warnLimited } from '../../platform/log-limit.ts';
import { insightsConfig } from '../config.ts';
import { FetchBudget, FetchLimitReached, withFetchBudget } from '../ingest/http.ts';
import { isUpstreamFailure, warnUpstream } from '../ingest/upstream-log.ts';
import { queueNpmPending } from '../npm-pending.ts';
import {
  backlogDone,
  backlogFailed,
  claimFeed,
  dueBacklog,
  forgetPackage,
  recordFeedError,
  recordPage,
  pruneRefreshes,
  releaseFeed,
  startCursor,
  type BacklogItem,
} from '../queries-feeds.ts';
import { ingestPackage } from '../read-through.ts';
import { FEED_LIST } from './list.ts';
import { mavenUnchanged } from './maven.ts';
import type { Feed } from './types.ts';

export interface RunReport {
  changes: number;
  queued: number;
  refreshed: number;
  failed: number;
}

interface RunState {
  env: Env;
  db: Db;
  names: number;
  report: RunReport;
  stopped: boolean;
}

/** The feeds the configuration turns on, in INSIGHTS_FEEDS order. */
export function enabledFeeds(env: Env): Feed[] {
  const wanted = insightsConfig(env).INSIGHTS_FEEDS;
  return FEED_LIST.filter((f) => wanted.includes(f.registry));
}

/** Follows the enabled feeds for one cron run. `until` (ms since the epoch) overrides the run's length. */
export async function runFeeds(env: Env, db: Db, opts: { until?: number } = {}): Promise<RunReport> {
  const cfg = insightsConfig(env);
  const feeds = enabledFeeds(env);
  const until = opts.until ?? Date.now() + cfg.INSIGHTS_FEED_RUN_SECONDS * 1000;
  const state: RunState = {
    env,
    db,
    names: 0,
    report: { changes: 0, queued: 0, refreshed: 0, failed: 0 },
    stopped: false,
  };
  const leaseSeconds = Math.ceil((until - Date.now()) / 1000) + 60;
  const held: Feed[] = [];
  for (const feed of feeds) if ((await claimFeed(db, feed.registry, leaseSeconds)) !== undefined) held.push(feed);
  const budget = new FetchBudget(cfg.INSIGHTS_FEED_FETCH_LIMIT, cfg.INSIGHTS_FETCH_CONCURRENCY);
  try {
    await withFetchBudget(budget, async () => {
      for (;;) {
        for (const feed of held) if (!state.stopped) await followOnce(state, feed);
        const wait = cfg.INSIGHTS_FEED_POLL_SECONDS * 1000;
        if (state.stopped || Date.now() + wait > until) break;
        await new Promise((r) => setTimeout(r, wait));
      }
    });
  } finally {
    for (const feed of held) await releaseFeed(db, feed.registry);
  }
  await pruneRefreshes(db);
  return state.report;
}

/** Reads the feed up to where it stands now, then refreshes the due backlog. */
async function followOnce(state: RunState, feed: Feed): Promise<void> {
  const cfg = insightsConfig(state.env);
  const rows = await state.db.query<{ cursor: string | null }>(
    'SELECT cursor FROM insights.feed_cursors WHERE registry = $1',
    [feed.registry],
  );
  let cursor = rows[0]?.cursor ?? null;
  try {
    if (cursor === null) {
      await startCursor(state.db, feed.registry, await feed.start(state.env));
    } else if (feed.due) {
      state.report.queued += await feed.due(state.db, cfg.INSIGHTS_FEED_NAMES_PER_RUN);
    } else {
      for (let more = true; more; ) {
        const page = await feed.read(state.env, cursor, cfg.INSIGHTS_FEED_PAGE);
        state.report.queued += await recordPage(state.db, feed.registry, feed.system, page.changes, page.cursor);
        state.report.changes += page.changes.length;
        more = page.more && page.cursor !== cursor;
        cursor = page.cursor;
      }
    }
  } catch (err) {
    if (err instanceof FetchLimitReached) state.stopped = true;
    else if (!isUpstreamFailure(err)) throw err;
    else warnUpstream(`${feed.registry} feed`, err);
    await recordFeedError(state.db, feed.registry, (err as Error).message);
  }
  if (!state.stopped) await drainBacklog(state, feed);
}

async function drainBacklog(state: RunState, feed: Feed): Promise<void> {
  const cfg = insightsConfig(state.env);
  const items = await dueBacklog(state.db, feed.registry, cfg.INSIGHTS_FEED_NAMES_PER_RUN - state.names);
  for (const item of items) {
    if (state.stopped) return;
    state.names++;
    await refreshOne(state, feed, item);
  }
}

async function refreshOne(state: RunState, feed: Feed, item: BacklogItem): Promise<void> {
  const { env, db } = state;
  try {
    if (!item.fetched) {
      await forgetPackage(db, item.system, item.name);
      await backlogDone(db, feed.registry, item, false);
      return;
    }
    if (feed.system === 'MAVEN' && (await mavenUnchanged(env as unknown as Record<string, unknown>, db, item.name))) {
      await backlogDone(db, feed.registry, item, false, false);
      return;
    }
    const name = await ingestPackage(env as unknown as Record<string, unknown>, db, feed.system, item.name);
    if (name === null && item.deleted) await forgetPackage(db, item.system, item.name);
    if (name !== null && feed.system === 'NPM')
      await queueNpmPending(env, [name]).catch((err) =>
        warnLimited('insights: queue publish failed', `npm pending reads of ${name}: ${(err as Error).message}`),
      );
    await backlogDone(db, feed.registry, item, name === null && item.deleted);
    state.report.refreshed++;
  } catch (err) {
    if (err instanceof FetchLimitReached) {
      state.stopped = true; // the row stays due: the next run takes it first
      return;
    }
    if (!isUpstreamFailure(err)) throw err;
    warnUpstream(feed.system, err, `feed refresh of ${item.system} ${item.name}`);
    await backlogFailed(db, item);
    state.report.failed++;
  }
}
