/**
 * crates.io: the `just_updated` (and `new_crates`) lists of `GET {CRATES_API_URL}/api/v1/summary`, by
 * `updated_at`. Chosen over the git index's commits (which need a git client or GitHub's API); the
 * summary lists only the last 10 updated crates, so a poll must come before 10 more updates: crates.io
 * sees a few publications a minute and the cron reads every INSIGHTS_FEED_POLL_SECONDS (5 s). The
 * cursor is the newest `updated_at` read; entries at or before it are not changes. A yank moves a
 * crate's `updated_at` and comes through here like a publication (the refresh stores the yanked flag).
 */
import * as z from 'zod';
import { UpstreamError } from '../ingest/types.ts';
import { fetchDoc } from '../ingest/upstream-doc.ts';
import { insightsConfig } from '../config.ts';
import type { Feed, FeedChange } from './types.ts';

const Entry = z.looseObject({ name: z.string(), updated_at: z.string() });
export const Summary = z.looseObject({ just_updated: z.array(Entry), new_crates: z.array(Entry).nullish() });

async function entries(env: Record<string, unknown>): Promise<{ name: string; at: number }[]> {
  const url = `${insightsConfig(env).CRATES_API_URL}/api/v1/summary`;
  const doc = await fetchDoc(url, Summary);
  const out: { name: string; at: number }[] = [];
  for (const e of [...doc.just_updated, ...(doc.new_crates ?? [])]) {
    const at = Date.parse(e.updated_at);
    if (Number.isNaN(at)) throw new UpstreamError(`${url}: malformed document: updated_at ${e.updated_at} is no time`);
    out.push({ name: e.name, at });
  }
  return out.sort((a, b) => a.at - b.at);
}

export const cargoFeed: Feed = {
  registry: 'cargo',
  system: 'CARGO',
  async start(env) {
    const list = await entries(env);
    return new Date(Math.max(Date.now(), ...list.map((e) => e.at))).toISOString();
  },
  async read(env, cursor) {
    const since = Date.parse(cursor);
    const fresh = (await entries(env)).filter((e) => e.at > since);
    const changes: FeedChange[] = fresh.map((e) => ({ name: e.name }));
    const next = fresh.length ? new Date(fresh.at(-1)!.at).toISOString() : cursor;
    return { changes, cursor: next, more: false };
  },
};
