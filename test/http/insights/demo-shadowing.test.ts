/**
 * Demo data never shadows real data: the insights seed (what `npm start` runs) is pointed at a loopback
 * "real" npm registry that has `lodash` (a demo package) with versions the fixture lacks. What the seed
 * stores names that registry, never the fixture server that existed only while seeding; then the first
 * GetVersion of a version only the registry has answers it, and GetPackage lists exactly the registry's
 * versions. A demo package the registry fails for is answered from the demo copy with a Warning saying
 * it is data as of 1970 (the seed's time), never as if read from the registry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import insights from '../../../functions/insights.ts';
import { seed } from '../../../tools/seed/insights.ts';
import { stackInfo, testDb, testEnv, workerClient } from '../../support/env.ts';
import { json as reply, startFake, type Fake, type FakeReply } from '../../support/fakes/http-fake.ts';

const REAL_VERSIONS = ['4.17.15', '4.17.20', '4.17.21', '4.17.22'];
let registry: Fake;
let api: ReturnType<typeof workerClient>;
let fixtureUrls: string[] = [];

async function clear() {
  const names = ['lodash', 'pino', '@colors/colors'];
  await testDb().query(`DELETE FROM insights.packages WHERE system = 'NPM' AND name = ANY($1)`, [names]);
  await testDb().query(`DELETE FROM insights.source_reads WHERE system = 'NPM' AND name = ANY($1)`, [names]);
}

beforeAll(async () => {
  await clear();
  registry = await startFake((r): FakeReply => {
    if (r.path === '/v1/query') return reply(200, {});
    if (decodeURIComponent(r.path) === '/@colors/colors') return reply(503, {}); // the registry failing for it
    if (r.path !== '/lodash') return reply(404, {});
    const versions = Object.fromEntries(
      REAL_VERSIONS.map((v) => [v, { name: 'lodash', version: v, license: 'MIT', dist: {} }]),
    );
    const time = Object.fromEntries(REAL_VERSIONS.map((v) => [v, '2021-02-20T15:42:16.891Z']));
    return reply(200, { name: 'lodash', 'dist-tags': { latest: '4.17.22' }, versions, time });
  });
  const env = {
    NPM_REGISTRY_URL: registry.url,
    OSV_API_URL: registry.url,
    INSIGHTS_NPM_TARBALLS: 'off',
    INSIGHTS_NPM_ATTESTATIONS: 'off',
  };
  // the fixture server's address while seeding: every request the seed's fetches were sent to
  const realFetch = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    fixtureUrls.push(new URL(input instanceof Request ? input.url : String(input)).origin);
    return realFetch(input, init);
  };
  try {
    await seed({ databaseUrl: stackInfo().databaseUrl, env });
  } finally {
    globalThis.fetch = realFetch;
  }
  fixtureUrls = [...new Set(fixtureUrls)];
  api = workerClient(insights, testEnv(env));
}, 120_000);
afterAll(async () => {
  await clear(); // the other suites read lodash from the fixture upstream
  await registry?.close();
});

describe('demo data', () => {
  it('stores the configured registry, never the fixture server that existed only while seeding', async () => {
    expect(fixtureUrls.length).toBe(1); // the seed read every demo document from the fixture server
    const rows = await testDb().query<{ registries: unknown; links: unknown }>(
      `SELECT registries, links FROM insights.versions WHERE system = 'NPM' AND name IN ('lodash', 'pino')`,
    );
    expect(rows.length).toBeGreaterThan(0);
    const text = JSON.stringify(rows);
    expect(text).not.toContain(fixtureUrls[0]);
    expect(text).toContain(`${registry.url}/`);
  });
  it('does not shadow the registry: a version only the registry has answers at the first read', async () => {
    const res = await api.get('/v3/systems/npm/packages/lodash/versions/4.17.15');
    expect(res.status).toBe(200);
    expect(((await res.json()) as { registries: string[] }).registries).toEqual([`${registry.url}/`]);
    const pkg = (await (await api.get('/v3/systems/npm/packages/lodash')).json()) as {
      versions: { versionKey: { version: string } }[];
    };
    expect(pkg.versions.map((v) => v.versionKey.version)).toEqual(REAL_VERSIONS);
  });
  it('a demo package the registry does not have keeps answering from the demo data', async () => {
    const res = await api.get('/v3/systems/npm/packages/pino');
    expect(res.status).toBe(200);
    expect(((await res.json()) as { versions: unknown[] }).versions.length).toBeGreaterThan(0);
  });
  it('a demo package the registry fails for: the demo copy, with a 110 Warning naming its time', async () => {
    const res = await api.get('/v3/systems/npm/packages/%40colors%2Fcolors');
    expect(res.status).toBe(200);
    expect(res.headers.get('warning')).toMatch(
      /^110 insights "package data of NPM @colors\/colors as of 1970-01-01T00:00:00\.000Z \(\d+ s old; registry: HTTP 503 at /,
    );
  });
});
