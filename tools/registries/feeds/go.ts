/**
 * A Go module proxy (`/{path}/@v/list`, `.info`, `.mod`) with the module index
 * (`/index?since=<RFC 3339>&limit=N`: newline-delimited `{"Path","Version","Timestamp"}`, `since` inclusive).
 * Go has no deletions: `remove` retracts every version (a new version whose go.mod retracts the others).
 */
import { json, startFake } from '../../../test/support/fakes/http-fake.ts';
import { addVersion, type FeedRegistry, type Store } from './types.ts';

export async function startGoFeed(): Promise<FeedRegistry> {
  const store: Store = new Map();
  const index: { Path: string; Version: string; Timestamp: string }[] = [];
  const retracted = new Set<string>();
  const failing = new Set<string>();
  let last = 0;
  const stamp = () => {
    last = Math.max(Date.now(), last + 1); // strictly increasing, as the index's own order
    return new Date(last).toISOString().replace('Z', '000000Z'); // nanosecond spelling
  };
  const append = (Path: string, Version: string) => index.push({ Path, Version, Timestamp: stamp() });
  const fake = await startFake((req) => {
    if (req.method === 'POST' && req.path === '/v1/query') return json(200, {});
    if (req.path === '/index') {
      const since = req.query.get('since') ?? '';
      const limit = Number(req.query.get('limit') ?? '2000');
      const rows = index.filter((e) => !since || Date.parse(e.Timestamp) >= Date.parse(since)).slice(0, limit);
      return { status: 200, body: rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length ? '\n' : '') };
    }
    const m = /^\/(.+)\/@v\/(list|(.+)\.(info|mod))$/.exec(req.path);
    const versions = m ? store.get(m[1]!) : undefined;
    if (!m || !versions) return { status: 404, body: 'not found' };
    if (failing.has(m[1]!)) return { status: 500, body: 'error' };
    const list = [...versions.keys()];
    if (m[2] === 'list') return { status: 200, body: `${list.join('\n')}\n` };
    const v = versions.get(m[3]!);
    if (!v) return { status: 404, body: 'not found' };
    if (m[4] === 'info') return json(200, { Version: m[3], Time: v.time });
    const req2 = Object.entries(v.deps).map(([p, ver]) => `require ${p} ${ver}\n`);
    const retract = retracted.has(m[1]!) && m[3] === list.at(-1) ? list.map((x) => `retract ${x}\n`) : [];
    return { status: 200, body: `module ${m[1]}\n\ngo 1.17\n${req2.join('')}${retract.join('')}` };
  });
  return {
    registry: 'go',
    system: 'GO',
    fake,
    env: { GO_PROXY_URL: fake.url, GO_INDEX_URL: fake.url, OSV_API_URL: fake.url },
    failing,
    publish(name, version, deps) {
      addVersion(store, name, version, deps);
      append(name, version);
    },
    remove(name) {
      const list = [...(store.get(name)?.keys() ?? [])];
      const last = list.at(-1) ?? 'v0.0.0';
      const bumped = last.replace(/(\d+)$/, (d) => String(Number(d) + 1));
      addVersion(store, name, bumped);
      retracted.add(name);
      append(name, bumped);
    },
    touch(name) {
      append(name, [...(store.get(name)?.keys() ?? [])].at(-1) ?? 'v0.0.0');
    },
    close: () => fake.close(),
  };
}
