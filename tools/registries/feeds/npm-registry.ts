/**
 * A loopback npm registry with its replication feed, for the change-feed tests and `npm run bench:freshness`:
 * packuments at `/<name>` (NPM_REGISTRY_URL), CouchDB's `GET /registry/` (`update_seq`) and
 * `GET /registry/_changes?since=<seq>&limit=N` (`{results: [{seq, id, changes: [{rev}], deleted?}], last_seq}`,
 * the 2025 form without documents) (NPM_REPLICATE_URL), and an empty OSV (`POST /v1/query` -> `{}`).
 * `publish` adds a version and appends a change; `unpublish` removes the package and appends a deleted change;
 * `touch` appends a change without changing anything (a duplicate). `fake.down` makes every request a 503,
 * `failing` names packages whose packument answers 500.
 */
import { json, startFake, type Fake } from '../../../test/support/fakes/http-fake.ts';

type Manifest = { dependencies?: Record<string, string> };

export interface NpmFeedRegistry {
  fake: Fake;
  url: string;
  /** Names whose packument answers 500 (a registry failing for one package). */
  failing: Set<string>;
  /** Every `since` the feed was asked from, in order. */
  sinces: string[];
  seq(): number;
  publish(name: string, version: string, manifest?: Manifest): number;
  unpublish(name: string): number;
  touch(name: string): number;
  close(): Promise<void>;
}

export async function startNpmFeedRegistry(): Promise<NpmFeedRegistry> {
  const packages = new Map<string, Map<string, { manifest: Manifest; time: string }>>();
  const changes: { seq: number; id: string; deleted?: boolean }[] = [];
  const sinces: string[] = [];
  const failing = new Set<string>();
  let seq = 1000;
  const append = (id: string, deleted?: boolean) => {
    seq++;
    changes.push(deleted ? { seq, id, deleted } : { seq, id });
    return seq;
  };
  const packument = (name: string) => {
    const versions = packages.get(name)!;
    const list = [...versions.keys()];
    return {
      name,
      'dist-tags': { latest: list.at(-1) },
      versions: Object.fromEntries(list.map((v) => [v, { name, version: v, ...versions.get(v)!.manifest }])),
      time: Object.fromEntries(list.map((v) => [v, versions.get(v)!.time])),
    };
  };
  const fake = await startFake((req) => {
    if (req.method === 'POST' && req.path === '/v1/query') return json(200, {});
    if (req.path === '/registry/' || req.path === '/registry')
      return json(200, { db_name: 'registry', update_seq: seq });
    if (req.path === '/registry/_changes') {
      const since = req.query.get('since') ?? '0';
      sinces.push(since);
      const limit = Number(req.query.get('limit') ?? '1000');
      const results = changes
        .filter((c) => c.seq > Number(since))
        .slice(0, limit)
        .map((c) => ({ ...c, changes: [{ rev: `${c.seq}-x` }] }));
      return json(200, { results, last_seq: results.at(-1)?.seq ?? Number(since) });
    }
    const name = req.path.slice(1);
    if (failing.has(name)) return json(500, { error: 'Internal Server Error' });
    return packages.has(name) ? json(200, packument(name)) : json(404, { error: 'Not found' });
  });
  return {
    fake,
    url: fake.url,
    failing,
    sinces,
    seq: () => seq,
    publish(name, version, manifest = {}) {
      if (!packages.has(name)) packages.set(name, new Map());
      packages.get(name)!.set(version, { manifest, time: new Date().toISOString() });
      return append(name);
    },
    unpublish(name) {
      packages.delete(name);
      return append(name, true);
    },
    touch: (name) => append(name),
    close: () => fake.close(),
  };
}
