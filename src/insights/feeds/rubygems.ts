/**
 * RubyGems: the append-only compact index file `GET {RUBYGEMS_URL}/versions`, read by byte range from
 * the cursor (`Range: bytes=<offset>-`). Every push and yank appends a line `name v1,v2,-v3 md5` (`-`: a
 * yanked version), so the file is a lossless feed; `/api/v1/activity/just_updated.json` lists only the
 * last 50 pushes and no yanks, so it is not needed. Only whole lines are consumed (the cursor stops after
 * the last newline read). A `416` is "nothing new"; when the file became shorter than the cursor, RubyGems
 * rewrote it (a compaction) and the follower starts again at its end.
 */
import { fetchUpstream } from '../ingest/http.ts';
import { UpstreamError } from '../ingest/types.ts';
import { insightsConfig } from '../config.ts';
import type { Feed, FeedChange } from './types.ts';

const fileUrl = (env: Record<string, unknown>) => `${insightsConfig(env).RUBYGEMS_URL}/versions`;

export const rubygemsFeed: Feed = {
  registry: 'rubygems',
  system: 'RUBYGEMS',
  async start(env) {
    const res = await fetchUpstream(fileUrl(env), { method: 'HEAD' });
    const length = Number(res.headers.get('content-length'));
    if (!Number.isInteger(length)) throw new UpstreamError(`${fileUrl(env)}: no content-length`);
    return String(length);
  },
  async read(env, cursor) {
    const url = fileUrl(env);
    const offset = Number(cursor);
    let res: Response;
    try {
      res = await fetchUpstream(url, { headers: { range: `bytes=${offset}-` } });
    } catch (err) {
      if (!(err instanceof UpstreamError && err.status === 416)) throw err;
      const total = Number(await this.start(env)); // nothing after the cursor; a shorter file was rewritten
      return { changes: [], cursor: total < offset ? String(total) : cursor, more: false };
    }
    if (res.status !== 206) {
      await res.body?.cancel();
      throw new UpstreamError(`${url}: HTTP ${res.status} to a range request`, res.status);
    }
    const bytes = new Uint8Array(await res.arrayBuffer());
    const end = bytes.lastIndexOf(10) + 1; // after the last whole line
    const changes: FeedChange[] = [];
    for (const line of new TextDecoder().decode(bytes.subarray(0, end)).split('\n')) {
      const [name, versions] = line.split(' ');
      if (!name || versions === undefined) continue;
      // a yank (`-1.0.1`) may leave the gem without versions: the refresh removes it when the registry has none
      changes.push(versions.split(',').some((v) => v.startsWith('-')) ? { name, deleted: true } : { name });
    }
    return { changes, cursor: String(offset + end), more: false };
  },
};
