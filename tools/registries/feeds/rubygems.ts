/**
 * RubyGems: the API documents the adapter reads (`/api/v1/versions/<name>.json`, only versions not
 * yanked, 404 when none is left; `/api/v2/rubygems/<name>/versions/<v>.json`) and the append-only
 * compact index file `/versions` with byte ranges (`Range: bytes=N-` -> 206, or 416 with
 * `Content-Range: bytes *\/<length>` when nothing follows; HEAD gives the length). Each push appends
 * `name version md5`, a yank `name -version md5`; `remove` yanks every version.
 */
import { createHash } from 'node:crypto';
import { json, startFake } from '../../../test/support/fakes/http-fake.ts';
import { addVersion, type FeedRegistry, type Store } from './types.ts';

export async function startRubygemsFeed(): Promise<FeedRegistry> {
  const store: Store = new Map();
  const yanked = new Set<string>(); // name@version
  const failing = new Set<string>();
  let file = 'created_at: 2024-01-01T00:00:00Z\n---\n';
  const append = (name: string, versions: string) => {
    file += `${name} ${versions} ${createHash('md5').update(file).digest('hex')}\n`;
  };
  const live = (name: string) => [...(store.get(name) ?? new Map())].filter(([v]) => !yanked.has(`${name}@${v}`));
  const fake = await startFake((req) => {
    if (req.method === 'POST' && req.path === '/v1/query') return json(200, {});
    if (req.path === '/versions') {
      const bytes = Buffer.from(file);
      const from = Number(/^bytes=(\d+)-$/.exec(String(req.headers.range ?? ''))?.[1] ?? 'NaN');
      if (req.method === 'HEAD' || Number.isNaN(from))
        return {
          status: 200,
          headers: { 'content-length': String(bytes.length) },
          body: req.method === 'HEAD' ? '' : file,
        };
      if (from >= bytes.length) return { status: 416, headers: { 'content-range': `bytes */${bytes.length}` } };
      return {
        status: 206,
        headers: { 'content-range': `bytes ${from}-${bytes.length - 1}/${bytes.length}` },
        body: bytes.subarray(from).toString('utf8'),
      };
    }
    let m = /^\/api\/v1\/versions\/([^/]+)\.json$/.exec(req.path);
    if (m && failing.has(m[1]!)) return json(500, { error: 'error' });
    if (m) {
      const vs = live(m[1]!);
      if (vs.length === 0) return { status: 404, body: 'This rubygem could not be found.' };
      return json(
        200,
        vs.reverse().map(([number, v]) => ({ number, platform: 'ruby', created_at: v.time, licenses: ['MIT'] })),
      );
    }
    m = /^\/api\/v2\/rubygems\/([^/]+)\/versions\/([^/]+)\.json$/.exec(req.path);
    const v = m ? store.get(m[1]!)?.get(m[2]!) : undefined;
    if (!m || !v) return json(404, { error: 'not found' });
    const runtime = Object.entries(v.deps).map(([name, requirements]) => ({ name, requirements }));
    return json(200, { name: m[1], number: m[2], platform: 'ruby', dependencies: { runtime, development: [] } });
  });
  return {
    registry: 'rubygems',
    system: 'RUBYGEMS',
    fake,
    env: { RUBYGEMS_URL: fake.url, OSV_API_URL: fake.url },
    failing,
    publish(name, version, deps) {
      addVersion(store, name, version, deps);
      append(name, version);
    },
    remove(name) {
      const vs = live(name).map(([v]) => v);
      for (const v of vs) yanked.add(`${name}@${v}`);
      append(name, vs.map((v) => `-${v}`).join(','));
    },
    touch(name) {
      append(name, [...(store.get(name)?.keys() ?? [])].at(-1) ?? '0');
    },
    close: () => fake.close(),
  };
}
