/**
 * The Go module index: `GET {GO_INDEX_URL}/index?since=<RFC 3339 nano>&limit=N` answers newline-delimited
 * JSON `{"Path", "Version", "Timestamp"}` in timestamp order, starting at `since` inclusive. The cursor is
 * the last Timestamp read. `since` is inclusive, so the entry at the cursor's own instant comes again on
 * the next read and is skipped (timestamps compared at nanosecond precision: a second module at that
 * very nanosecond would be missed, the price of not refreshing the last module on every poll). A
 * follower starts at the clock's now.
 * The index has no deletions: a retraction is a new version whose go.mod says so.
 */
import * as z from 'zod';
import { UpstreamError } from '../ingest/types.ts';
import { fetchJsonLines } from '../ingest/upstream-doc.ts';
import { insightsConfig } from '../config.ts';
import type { Feed, FeedChange } from './types.ts';

/** One line of the index: the parts read. */
export const IndexEntry = z.looseObject({ Path: z.string(), Timestamp: z.string() });

/** RFC 3339 UTC with 9 fraction digits (Go trims trailing zeros), so text order is time order. */
function nanoTime(t: string, url: string): string {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?Z$/.exec(t);
  if (!m) throw new UpstreamError(`${url}: malformed Timestamp`);
  return `${m[1]}.${(m[2] ?? '').padEnd(9, '0')}Z`;
}

export const goFeed: Feed = {
  registry: 'go',
  system: 'GO',
  async start() {
    return new Date().toISOString();
  },
  async read(env, cursor, limit) {
    const url = `${insightsConfig(env).GO_INDEX_URL}/index?since=${encodeURIComponent(cursor)}&limit=${limit}`;
    const lines = await fetchJsonLines(url, IndexEntry);
    const changes: FeedChange[] = [];
    const after = nanoTime(cursor, url);
    let next = cursor;
    for (const e of lines) {
      if (nanoTime(e.Timestamp, url) <= after) continue;
      changes.push({ name: e.Path });
      next = e.Timestamp;
    }
    // a full page that did not move the cursor (more than `limit` entries at one instant) cannot page on
    return { changes, cursor: next, more: lines.length >= limit && next !== cursor };
  },
};
