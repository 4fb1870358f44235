/**
 * The over-budget answer comes early: a graph whose registry answers slowly (a chain of packages, each
 * packument 600 ms away) cannot be resolved within a request's budget; the first request is answered
 * 503 with Retry-After within 5 s while the build goes on in the background, and the request sent
 * Retry-After seconds later gets the complete graph, each packument having been read once.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import insights from '../../../../functions/insights.ts';
import { testDb, testEnv } from '../../../support/env.ts';
import { emptyInsights, graphSets } from '../../../../tools/universes/graphs.ts';
import { callEarly } from './call-early.ts';

const DELAY_MS = 600;
const CHAIN = 11; // ea-0 -> ea-1 -> ... -> ea-10: at least 6.6 s of packuments one after another
const hits = new Map<string, number>();
let server: Server;
let url = '';
const db = testDb();

function packument(name: string) {
  const i = Number(/^ea-(\d+)$/.exec(name)?.[1] ?? Number.NaN);
  if (!(i >= 0 && i < CHAIN)) return undefined;
  const dependencies = i + 1 < CHAIN ? { [`ea-${i + 1}`]: '^1.0.0' } : {};
  return { name, 'dist-tags': { latest: '1.0.0' }, versions: { '1.0.0': { name, version: '1.0.0', dependencies } } };
}

beforeAll(async () => {
  await emptyInsights(db);
  server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    hits.set(path, (hits.get(path) ?? 0) + 1);
    setTimeout(() => {
      const body = path === '/v1/query' ? {} : packument(path.slice(1));
      res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(body ?? {}));
    }, DELAY_MS);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  await emptyInsights(db);
});

describe('a graph that takes longer than the request budget', () => {
  it('is answered 503 with Retry-After within 5 s, and complete when retried after that many seconds', async () => {
    const env = testEnv({ NPM_REGISTRY_URL: url, OSV_API_URL: url });
    const path = '/v3/systems/npm/packages/ea-0/versions/1.0.0:dependencies';
    const first = await callEarly(insights, env, path);
    expect(first.status).toBe(503);
    expect(first.ms).toBeLessThan(5000);
    const retryAfter = Number(first.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(JSON.parse(first.text)).toEqual({
      error: expect.stringMatching(/^the dependency graph of NPM ea-0@1\.0\.0 is being computed in the background/),
    });
    await new Promise((r) => setTimeout(r, retryAfter * 1000));
    const retry = await callEarly(insights, env, path);
    await Promise.all([first.settled(), retry.settled()]);
    expect(retry.status).toBe(200);
    expect([...graphSets(JSON.parse(retry.text)).nodes].sort()).toEqual(
      Array.from({ length: CHAIN }, (_, i) => `ea-${i}@1.0.0`).sort(),
    );
    const packuments = [...hits].filter(([p]) => p !== '/v1/query');
    expect(packuments).toHaveLength(CHAIN);
    expect(packuments.every(([, n]) => n === 1)).toBe(true);
  });
});
