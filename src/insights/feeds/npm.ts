/**
 * npm's CouchDB replication feed, the form npm serves since 2025: `GET {NPM_REPLICATE_URL}/registry/`
 * answers `update_seq` (where a new follower starts) and `GET /registry/_changes?since=<seq>&limit=N`
 * answers `{results: [{seq, id, changes, deleted?}], last_seq}` without documents (`include_docs` is no
 * longer served). `id` is the package name; `deleted: true` means the package document was removed
 * (unpublished). Sequence numbers are kept as text: the feed's own spelling is what `since` takes.
 */
import { fetchJson, type UpstreamEnv } from '../ingest/http.ts';
import { UpstreamError } from '../ingest/types.ts';
import { insightsConfig } from '../config.ts';
import type { Feed, FeedChange } from './types.ts';

interface ChangesAnswer {
  results?: { seq?: unknown; id?: unknown; deleted?: unknown }[];
  last_seq?: unknown;
}

const base = (env: UpstreamEnv) => `${insightsConfig(env).NPM_REPLICATE_URL}/registry`;

function seqText(seq: unknown, url: string): string {
  if (typeof seq === 'number' || (typeof seq === 'string' && seq !== '')) return String(seq);
  throw new UpstreamError(`${url}: no sequence in the answer`);
}

export const npmFeed: Feed = {
  registry: 'npm',
  system: 'NPM',
  async start(env) {
    const url = `${base(env)}/`;
    return seqText((await fetchJson<{ update_seq?: unknown }>(url)).update_seq, url);
  },
  async read(env, cursor, limit) {
    const url = `${base(env)}/_changes?since=${encodeURIComponent(cursor)}&limit=${limit}`;
    const doc = await fetchJson<ChangesAnswer>(url);
    if (!Array.isArray(doc.results)) throw new UpstreamError(`${url}: no results in the answer`);
    const changes: FeedChange[] = [];
    for (const r of doc.results) {
      // design documents (`_design/...`) are the database's, not packages
      if (typeof r.id !== 'string' || r.id === '' || r.id.startsWith('_design/')) continue;
      changes.push(r.deleted === true ? { name: r.id, deleted: true } : { name: r.id });
    }
    const last = doc.results.at(-1)?.seq ?? doc.last_seq;
    const next = doc.results.length === 0 ? cursor : seqText(last, url);
    return { changes, cursor: next, more: doc.results.length >= limit };
  },
};
