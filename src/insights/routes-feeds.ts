/**
 * `GET /healthz/feeds`: the change feeds' status, per registry the feeds cron follows (feeds/run.ts):
 * the cursor, when the feed was last read and when a change was last read from it, the backlog of stored
 * packages still to refresh (and since when the oldest waits), the counts so far and the last error.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../platform/env.ts';
import { enabledFeeds } from './feeds/run.ts';
import { FEED_LIST } from './feeds/list.ts';
import { feedStatus } from './queries-feeds.ts';

export const feedRoutes = new Hono<AppEnv>();

const iso = (d: Date | null) => (d === null ? null : new Date(d).toISOString());

feedRoutes.get('/healthz/feeds', async (c) => {
  const enabled = new Set(enabledFeeds(c.env).map((f) => f.registry));
  const rows = new Map((await feedStatus(c.get('db'))).map((r) => [r.registry, r]));
  const feeds = FEED_LIST.map((f) => {
    const r = rows.get(f.registry);
    return {
      registry: f.registry,
      system: f.system,
      enabled: enabled.has(f.registry),
      cursor: r?.cursor ?? null,
      lastReadAt: iso(r?.last_read_at ?? null),
      lastChangeAt: iso(r?.last_change_at ?? null),
      backlog: Number(r?.backlog ?? 0),
      oldestBacklogAt: iso(r?.oldest ?? null),
      changesRead: Number(r?.changes_read ?? 0),
      refreshed: Number(r?.refreshed ?? 0),
      deleted: Number(r?.deleted ?? 0),
      lastError: r?.last_error ?? null,
    };
  });
  return c.json({ feeds });
});
