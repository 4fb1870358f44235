/**
 * Unknown is not empty: with the OSV upstream on loopback answering 503, then timing out, then
 * recovering, the security answers (`:findings`, findingsbatch, `:dependencies?include=advisories`)
 * are 503 with Retry-After while a package's advisories were never read and the right advisories as
 * soon as OSV answers (no wait for the daily refresh); GetVersion keeps deps.dev's body and carries a
 * Warning header during the outage and not after; last known good data is served while OSV is down
 * again (stale-if-error), with a 110 Warning saying how old it is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import insights from '../../../functions/insights.ts';
import { testDb, testEnv, workerClient } from '../../support/env.ts';
import { json as reply, startFake, type Fake, type FakeReply } from '../../support/fakes/http-fake.ts';
import { ingestPackage } from '../../../src/insights/read-through.ts';

const NAME = 'outage-pkg';
const DEP = 'outage-dep';
const packument = (name: string, deps: Record<string, string>) => ({
  name,
  'dist-tags': { latest: '1.0.0' },
  time: { '1.0.0': '2020-01-01T00:00:00.000Z', '1.1.0': '2020-02-01T00:00:00.000Z' },
  versions: Object.fromEntries(
    ['1.0.0', '1.1.0'].map((v) => [v, { name, version: v, dependencies: deps, license: 'MIT', dist: {} }]),
  ),
});
const RECORD = {
  id: 'GHSA-outg-outg-outg',
  summary: 'outage-pkg before 1.1.0 is vulnerable',
  modified: '2024-01-01T00:00:00Z',
  affected: [
    {
      package: { ecosystem: 'npm', name: NAME },
      ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '1.1.0' }] }],
    },
  ],
  severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H' }],
};

/** OSV: `mode` says how it answers `POST /v1/query`. */
let mode: 'down' | 'hang' | 'up' = 'down';
let registry: Fake;
let osv: Fake;
let api: ReturnType<typeof workerClient>;
let env: Record<string, string>;
const osvQueries = () => osv.requests.filter((r) => r.path === '/v1/query').length;

beforeAll(async () => {
  const db = testDb();
  await db.query(`DELETE FROM insights.packages WHERE system = 'NPM' AND name LIKE 'outage-%'`);
  await db.query(`DELETE FROM insights.source_reads WHERE system = 'NPM' AND name LIKE 'outage-%'`);
  await db.query(`DELETE FROM insights.advisories WHERE id = $1`, [RECORD.id]);
  registry = await startFake((r): FakeReply => {
    const name = r.path.slice(1);
    if (name === NAME) return reply(200, packument(NAME, { [DEP]: '^1.0.0' }));
    if (name === DEP) return reply(200, packument(DEP, {}));
    return reply(404, { error: 'not found' });
  });
  osv = await startFake(async (r): Promise<FakeReply> => {
    if (mode === 'down') return reply(503, { error: 'unavailable' });
    if (mode === 'hang') await new Promise((res) => setTimeout(res, 3000));
    const q = JSON.parse(r.body || '{}');
    return reply(200, q.package?.name === NAME ? { vulns: [RECORD] } : {});
  });
  env = testEnv({
    NPM_REGISTRY_URL: registry.url,
    OSV_API_URL: osv.url,
    INSIGHTS_NPM_TARBALLS: 'off',
    INSIGHTS_NPM_ATTESTATIONS: 'off',
    INSIGHTS_SOURCE_RETRY_SECONDS: '0',
    INSIGHTS_OSV_TIMEOUT_MS: '500',
  }) as unknown as Record<string, string>;
  api = workerClient(insights, env as never);
});
afterAll(async () => {
  await registry?.close();
  await osv?.close();
});

const FINDINGS = `/v3alpha/systems/npm/packages/${NAME}/versions/1.0.0:findings`;
const VERSION = `/v3/systems/npm/packages/${NAME}/versions/1.0.0`;
const GRAPH = `/v3/systems/npm/packages/${NAME}/versions/1.0.0:dependencies?include=advisories`;
const BATCH = { requests: [{ versionKey: { system: 'NPM', name: NAME, version: '1.0.0' } }] };

/** The types of the requested version's findings, then of its recommended versions' (deps.dev's Findings message). */
function versionFindings(body: any): string[] {
  const of = (v: any) => (v?.findings ?? []).map((f: any) => f.type);
  return [...of(body.requestedVersion), ...(body.recommendedVersions ?? []).flatMap(of)];
}

async function unavailable(res: Response) {
  const body = (await res.json()) as { error: string };
  expect({ status: res.status, retryAfter: res.headers.get('retry-after') }).toEqual({ status: 503, retryAfter: '1' });
  expect(body.error).toMatch(/advisories of NPM outage-pkg are unknown \(OSV (HTTP 503|timeout)\)/);
}

describe('OSV answering 503', () => {
  it('findings: 503 with Retry-After, not an empty list (the package itself read through)', async () => {
    mode = 'down';
    await unavailable(await api.get(FINDINGS));
    expect(osvQueries()).toBeGreaterThan(0);
  });
  it('findingsbatch: 503 with Retry-After for a stored package whose advisories are unknown', async () => {
    await unavailable(await api.post('/v3alpha/findingsbatch', BATCH));
  });
  it(':dependencies?include=advisories: 503; without include the graph is served', async () => {
    expect((await api.get(GRAPH.replace('?include=advisories', ''))).status).toBe(200);
    const res = await api.get(GRAPH);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
  });
  it('GetVersion: deps.dev body (advisoryKeys []) with a 199 Warning naming what is missing', async () => {
    const res = await api.get(VERSION);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { advisoryKeys: unknown[] }).advisoryKeys).toEqual([]);
    expect(res.headers.get('warning')).toMatch(
      /^199 insights "advisories unknown for NPM outage-pkg \(OSV: HTTP 503 at /,
    );
  });
});

describe('OSV timing out', () => {
  it('findings: 503 naming the timeout', async () => {
    mode = 'hang';
    await unavailable(await api.get(FINDINGS));
    const res = await api.get(FINDINGS);
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: string }).error).toMatch(/OSV timeout/);
  });
  it(':dependencies?include=advisories: 503 with Retry-After; GetVersion keeps its 199 Warning', async () => {
    const graph = await api.get(GRAPH);
    expect({ status: graph.status, retryAfter: graph.headers.get('retry-after') }).toEqual({
      status: 503,
      retryAfter: '1',
    });
    expect(((await graph.json()) as { error: string }).error).toMatch(/advisories of .* are unknown \(OSV timeout\)/);
    const version = await api.get(VERSION);
    expect(version.status).toBe(200);
    expect(version.headers.get('warning')).toMatch(
      /^199 insights "advisories unknown for NPM outage-pkg \(OSV: timeout at /,
    );
  });
});

describe('OSV recovered', () => {
  it('findings: the advisory at once (read inline, no daily refresh)', async () => {
    mode = 'up';
    const res = await api.get(FINDINGS);
    expect(res.status).toBe(200);
    expect(res.headers.get('warning')).toBeNull();
    const body = (await res.json()) as any;
    expect(body.requestedVersion.findings).toEqual([{ type: 'VULNERABLE', risk: 'RISK_CRITICAL' }]);
    expect(body.recommendedVersions).toEqual([
      {
        versionKey: { system: 'NPM', name: NAME, version: '1.1.0' },
        isDefault: false,
        findings: [{ type: 'REMEDIATION', risk: 'RISK_INFORMATIONAL' }],
      },
    ]);
  });
  it('GetVersion: the stored answer is rewritten with the advisory, and the Warning is gone', async () => {
    const res = await api.get(VERSION);
    expect(res.headers.get('warning')).toBeNull();
    expect(((await res.json()) as { advisoryKeys: unknown[] }).advisoryKeys).toEqual([{ id: RECORD.id }]);
  });
  it(':dependencies?include=advisories and findingsbatch answer (the dependency read inline)', async () => {
    const graph = await api.get(GRAPH);
    expect(graph.status).toBe(200);
    expect(
      ((await graph.json()) as { advisories: { advisoryKey: { id: string } }[] }).advisories.map(
        (a) => a.advisoryKey.id,
      ),
    ).toEqual([RECORD.id]);
    const batch = await api.post('/v3alpha/findingsbatch', BATCH);
    expect(batch.status).toBe(200);
    expect(versionFindings(((await batch.json()) as any).responses[0].findings)).toEqual(['VULNERABLE', 'REMEDIATION']);
  });
});

describe('OSV down again after a good read (stale-if-error)', () => {
  it('findings: the last known good advisories, with a 110 Warning saying how old they are', async () => {
    mode = 'down';
    // the daily refresh (the /insights/refresh job's body) runs while OSV is down: the failure is recorded
    await ingestPackage(env, testDb(), 'NPM', NAME);
    const res = await api.get(FINDINGS);
    expect(res.status).toBe(200);
    expect(res.headers.get('warning')).toMatch(
      /^110 insights "advisories of NPM outage-pkg as of \d{4}-\d\d-\d\dT[\d:.]+Z \(\d+ s old; OSV: HTTP 503 at /,
    );
    expect(versionFindings(await res.json())).toEqual(['VULNERABLE', 'REMEDIATION']);
    const version = await api.get(VERSION);
    expect(version.headers.get('warning')).toMatch(/^110 insights "advisories of NPM outage-pkg as of /);
    expect(((await version.json()) as { advisoryKeys: unknown[] }).advisoryKeys).toEqual([{ id: RECORD.id }]);
  });
});
