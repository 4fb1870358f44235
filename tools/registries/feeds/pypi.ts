/**
 * PyPI's JSON API (tools/registries/pypi-json.ts over the fake's packages) with the XML-RPC changelog at
 * `POST /pypi`: `changelog_last_serial()` and `changelog_since_serial(n)` ->
 * `[[name, version, timestamp, action, serial], ...]`, actions as PyPI writes them (`new release`,
 * `remove project`).
 */
import { json, startFake } from '../../../test/support/fakes/http-fake.ts';
import type { PipUniverse } from '../pip-index.ts';
import { pypiJsonRoute } from '../pypi-json.ts';
import { addVersion, type FeedRegistry, type Store } from './types.ts';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const answer = (value: string) =>
  `<?xml version='1.0'?>\n<methodResponse>\n<params>\n<param>\n<value>${value}</value>\n</param>\n</params>\n</methodResponse>\n`;

export async function startPypiFeed(): Promise<FeedRegistry> {
  const store: Store = new Map();
  const log: [string, string, number, string, number][] = [];
  const failing = new Set<string>();
  let serial = 5000;
  const append = (name: string, version: string, action: string) =>
    log.push([name, version, Math.floor(Date.now() / 1000), action, ++serial]);
  const universe = (): PipUniverse =>
    Object.fromEntries(
      [...store].map(([n, vs]) => [
        n,
        Object.fromEntries(
          [...vs].map(([v, s]) => [v, { deps: Object.entries(s.deps).map(([d, r]) => [d, r] as const) }]),
        ),
      ]),
    );
  const fake = await startFake((req) => {
    if (req.method === 'POST' && req.path === '/v1/query') return json(200, {});
    if (req.method === 'POST' && req.path === '/pypi') {
      const method = /<methodName>([^<]+)<\/methodName>/.exec(req.body)?.[1];
      if (method === 'changelog_last_serial') return { status: 200, body: answer(`<int>${serial}</int>`) };
      const since = Number(/<int>(-?\d+)<\/int>/.exec(req.body)?.[1] ?? 'NaN');
      if (method !== 'changelog_since_serial' || Number.isNaN(since)) return { status: 400, body: 'bad call' };
      const rows = log
        .filter((e) => e[4] > since)
        .map(
          ([n, v, t, a, s]) =>
            `<value><array><data><value><string>${esc(n)}</string></value><value><string>${esc(v)}</string></value><value><int>${t}</int></value><value><string>${a}</string></value><value><int>${s}</int></value></data></array></value>`,
        );
      return { status: 200, body: answer(`<array><data>${rows.join('')}</data></array>`) };
    }
    const name = /^\/pypi\/([^/]+)\//.exec(req.path)?.[1];
    if (name && failing.has(name)) return { status: 500, body: 'error' };
    const doc = pypiJsonRoute(universe())(req.path);
    return doc ? json(200, doc) : json(404, { message: 'Not Found' });
  });
  return {
    registry: 'pypi',
    system: 'PYPI',
    fake,
    env: { PYPI_URL: fake.url, OSV_API_URL: fake.url, INSIGHTS_PYPI_ATTESTATIONS: 'off' },
    failing,
    publish(name, version, deps) {
      addVersion(store, name, version, deps);
      append(name, version, 'new release');
    },
    remove(name) {
      store.delete(name);
      append(name, '', 'remove project');
    },
    touch: (name) => append(name, '', 'add source file'),
    close: () => fake.close(),
  };
}
