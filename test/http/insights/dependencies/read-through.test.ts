/**
 * The graph read-through's limits, through the insights endpoint and the queue: with a fetch limit
 * smaller than the graph, the first answer is 503 with Retry-After and a deps.dev-style error, nothing
 * is cached, the delivery function finishes the graph through QStash round by round, and every answer
 * on the way is either that 503 or the complete graph (never a partial one). An upstream failure is a
 * 503 too, and the graph is complete once the upstream answers again. Unknown roots and versions 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import delivery from '../../../../functions/delivery.ts';
import insights from '../../../../functions/insights.ts';
import { testDb, testEnv, workerClient } from '../../../support/env.ts';
import { emptyInsights, graphSets } from '../../../../tools/universes/graphs.ts';
import { startRegistry, type RegistryServer } from '../../../../tools/registries/registry-server.ts';
import { serveWorker, type Served } from '../../../support/serve.ts';
import { waitFor } from '../../../support/wait.ts';

const deps = (d: Record<string, string>) => ({ dependencies: d });
// root -> a, b, c; a -> d; b -> d, e; c -> f; f -> g: 8 packages
const UNIVERSE: Record<string, Record<string, { dependencies: Record<string, string> }>> = {
  'lt-root': { '1.0.0': deps({ 'lt-a': '^1.0.0', 'lt-b': '^1.0.0', 'lt-c': '^1.0.0' }) },
  'lt-a': { '1.0.0': deps({ 'lt-d': '^1.0.0' }), '1.2.0': deps({ 'lt-d': '^1.1.0' }) },
  'lt-b': { '1.0.0': deps({ 'lt-d': '^1.0.0', 'lt-e': '^2.0.0' }) },
  'lt-c': { '1.0.0': deps({ 'lt-f': '^1.0.0' }) },
  'lt-d': { '1.0.0': deps({}), '1.1.0': deps({}), '2.0.0': deps({}) },
  'lt-e': { '2.0.0': deps({}), '2.3.1': deps({}) },
  'lt-f': { '1.0.0': deps({ 'lt-g': '*' }) },
  'lt-g': { '0.1.0': deps({}) },
};
const WANT = {
  nodes: [
    'lt-a@1.2.0',
    'lt-b@1.0.0',
    'lt-c@1.0.0',
    'lt-d@1.1.0',
    'lt-e@2.3.1',
    'lt-f@1.0.0',
    'lt-g@0.1.0',
    'lt-root@1.0.0',
  ],
  edges: [
    'lt-a@1.2.0 -> lt-d@1.1.0',
    'lt-b@1.0.0 -> lt-d@1.1.0',
    'lt-b@1.0.0 -> lt-e@2.3.1',
    'lt-c@1.0.0 -> lt-f@1.0.0',
    'lt-f@1.0.0 -> lt-g@0.1.0',
    'lt-root@1.0.0 -> lt-a@1.2.0',
    'lt-root@1.0.0 -> lt-b@1.0.0',
    'lt-root@1.0.0 -> lt-c@1.0.0',
  ],
};
const packument = (name: string) => {
  const versions = UNIVERSE[name];
  if (!versions) return undefined;
  const latest = Object.keys(versions).at(-1)!;
  return {
    name,
    'dist-tags': { latest },
    versions: Object.fromEntries(Object.entries(versions).map(([v, m]) => [v, { name, version: v, ...m }])),
  };
};

let registry: RegistryServer;
let failing = new Set<string>();
let served: Served;
let api: ReturnType<typeof workerClient>;
const db = testDb();
const PATH = '/v3/systems/npm/packages/lt-root/versions/1.0.0:dependencies';

beforeAll(async () => {
  await emptyInsights(db);
  registry = await startRegistry((p) =>
    p === '/v1/query' ? {} : failing.has(p.slice(1)) ? 500 : packument(p.slice(1)),
  );
  const vars = {
    NPM_REGISTRY_URL: registry.url,
    INSIGHTS_NPM_TARBALLS: 'off',
    INSIGHTS_FETCH_LIMIT: '3',
    OSV_API_URL: registry.url,
  };
  served = await serveWorker(delivery, (url) => testEnv({ ...vars, DELIVERY_URL: url }));
  api = workerClient(insights, testEnv({ ...vars, DELIVERY_URL: served.url }));
});
afterAll(async () => {
  await served?.close();
  await registry?.close();
  await emptyInsights(db);
});

async function cachedGraphs(): Promise<number> {
  return (await db.query('SELECT 1 FROM insights.dependency_graphs WHERE name = $1', ['lt-root'])).length;
}

describe('a graph larger than the fetch limit', () => {
  it('answers 503 with Retry-After first, caches nothing, and is complete later; no answer is partial', async () => {
    const first = await api.get(PATH);
    expect(first.status).toBe(503);
    expect(first.headers.get('retry-after')).toBe('5');
    const body = (await first.json()) as { error: string };
    expect(body.error).toMatch(/being computed in the background .*fetch limit of 3 reached/);
    expect(Object.keys(body)).toEqual(['error']);
    expect(await cachedGraphs()).toBe(0);
    let unavailable = 1;
    const final = await waitFor(
      'the complete graph',
      async () => {
        const res = await api.get(PATH);
        if (res.status === 503) {
          unavailable++;
          return undefined;
        }
        expect(res.status).toBe(200);
        return res.json() as Promise<any>;
      },
      { timeoutMs: 30_000, intervalMs: 50 },
    );
    expect(unavailable).toBeGreaterThanOrEqual(1);
    expect(final.error).toBe('');
    expect(graphSets(final)).toEqual(WANT);
    // background rounds still under way may store packages (dropping the cached entry); once they
    // are done the graph stays cached, and every answer meanwhile is the complete graph
    await waitFor(
      'the cached graph',
      async () => {
        const res = await api.get(PATH);
        expect(res.status).toBe(200);
        expect(graphSets((await res.json()) as any)).toEqual(WANT);
        return (await cachedGraphs()) === 1;
      },
      { timeoutMs: 15_000, intervalMs: 100 },
    );
    // the OSV records of every package the read-through stored are fetched through the queue
    await waitFor('advisory lookups', () => (registry.hits.get('/v1/query') ?? 0) >= 8, { timeoutMs: 15_000 });
  });

  it('answers 503 while an upstream fails, and the complete graph once it answers again', async () => {
    await emptyInsights(db);
    failing = new Set(['lt-f']);
    const api2 = workerClient(
      insights,
      testEnv({ NPM_REGISTRY_URL: registry.url, INSIGHTS_NPM_TARBALLS: 'off', DELIVERY_URL: served.url }),
    );
    const res = await api2.get(PATH);
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: string }).error).toMatch(/upstream failed: .*lt-f: HTTP 500/);
    expect(await cachedGraphs()).toBe(0);
    failing = new Set();
    const ok = await waitFor(
      'the graph',
      async () => {
        const r = await api2.get(PATH);
        return r.status === 200 ? (r.json() as Promise<any>) : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    expect(graphSets(ok)).toEqual(WANT);
  });
});

describe('roots the upstream does not have', () => {
  it('404s an unknown package and an unknown version of a known one', async () => {
    const unknown = await api.get('/v3/systems/npm/packages/lt-nope/versions/1.0.0:dependencies');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'package NPM lt-nope not found' });
    const noVersion = await api.get('/v3/systems/npm/packages/lt-g/versions/9.9.9:dependencies');
    expect(noVersion.status).toBe(404);
    expect(await noVersion.json()).toEqual({ error: 'version NPM lt-g@9.9.9 not found' });
  });
});
