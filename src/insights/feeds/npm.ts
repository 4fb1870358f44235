/**
 * npm's CouchDB replication feed, the form npm serves since 2025: `GET {NPM_REPLICATE_URL}/registry/`
 * answers `update_seq` (where a new follower starts) and `GET /registry/_changes?since=<seq>&limit=N`
 * answers `{results: [{seq, id, changes, deleted?}], last_seq}` without documents (`include_docs` is no
 * longer served). `id` is the package name; `deleted: true` means the package document was removed
 * (unpublished). Sequence numbers are kept as text: the feed's own spelling is what `since` takes.
 */
import * as z from 'zod';
import type { UpstreamEnv } from '../ingest/http.ts';
import { UpstreamError } from '../ingest/types.ts';
import { fetchDoc } from '../ingest/upstream-doc.ts';
import { insightsConfig } from '../config.ts';
import type { Feed, FeedChange } from './types.ts';

/** A sequence as the feed spells it: a number (older CouchDB) or an opaque text. */
const Seq = z.union([z.number(), z.string()]);
const DbInfo = z.looseObject({ update_seq: Seq });
/** `_changes`: an entry's id that is not a name (a design document, or none) is skipped, as before. */
export const ChangesAnswer = z.looseObject({
  results: z.array(z.looseObject({ seq: Seq.nullish(), id: z.unknown().optional(), deleted: z.unknown().optional() })),
  last_seq: Seq.nullish(),
});

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
    return seqText((await fetchDoc(url, DbInfo)).update_seq, url);
  },
  async read(env, cursor, limit) {
    const url = `${base(env)}/_changes?since=${encodeURIComponent(cursor)}&limit=${limit}`;
    const doc = await fetchDoc(url, ChangesAnswer);
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
