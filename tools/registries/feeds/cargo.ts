/**
 * crates.io: the sparse index (`/index/config.json`, `/index/<path>`: one JSON line per version, as
 * cargo-registry.ts writes them), the API's crate document (`/api/v1/crates/<name>`) and its summary
 * (`/api/v1/summary`: the 10 crates updated last in `just_updated`, newest first, with `updated_at`).
 * `remove` yanks every version (the index lines say `yanked: true`; the crate's `updated_at` moves).
 */
import { json, startFake } from '../../../test/support/fakes/http-fake.ts';
import { indexLine, indexPath } from '../cargo-registry.ts';
import { addVersion, type FeedRegistry, type Store } from './types.ts';

export async function startCargoFeed(): Promise<FeedRegistry> {
  const store: Store = new Map();
  const yanked = new Set<string>();
  const updated = new Map<string, string>();
  const failing = new Set<string>();
  let last = 0;
  const bump = (name: string) => {
    last = Math.max(Date.now(), last + 1);
    updated.set(name, new Date(last).toISOString());
  };
  const fake = await startFake((req) => {
    if (req.method === 'POST' && req.path === '/v1/query') return json(200, {});
    if (req.path === '/index/config.json') return json(200, { dl: `${fake.url}/dl` });
    if (req.path === '/api/v1/summary') {
      const just = [...updated]
        .sort((a, b) => (a[1] < b[1] ? 1 : -1))
        .slice(0, 10)
        .map(([name, updated_at]) => ({ name, updated_at, max_version: [...store.get(name)!.keys()].at(-1) }));
      return json(200, { just_updated: just, new_crates: [], most_downloaded: [] });
    }
    const api = /^\/api\/v1\/crates\/([^/]+)$/.exec(req.path)?.[1];
    const name = api ?? [...store.keys()].find((n) => req.path === `/index/${indexPath(n)}`);
    if (!name || !store.has(name)) return json(404, { errors: [{ detail: 'Not Found' }] });
    if (failing.has(name)) return json(500, { errors: [{ detail: 'error' }] });
    const versions = [...store.get(name)!];
    if (api) return json(200, { crate: { name }, versions: versions.map(([num, v]) => ({ num, created_at: v.time })) });
    const lines = versions.map(([vers, v]) =>
      indexLine(name, vers, {
        deps: Object.entries(v.deps).map(([d, r]) => [d, r] as const),
        yanked: yanked.has(name),
      }),
    );
    return { status: 200, body: `${lines.join('\n')}\n` };
  });
  return {
    registry: 'cargo',
    system: 'CARGO',
    fake,
    env: { CRATES_INDEX_URL: `${fake.url}/index`, CRATES_API_URL: fake.url, OSV_API_URL: fake.url },
    failing,
    publish(name, version, deps) {
      addVersion(store, name, version, deps);
      bump(name);
    },
    remove(name) {
      yanked.add(name);
      bump(name);
    },
    touch: (name) => bump(name),
    close: () => fake.close(),
  };
}
