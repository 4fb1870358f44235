/**
 * Unknown is not empty beyond advisories: with the npm attestations document, PyPI's integrity API,
 * the Scorecard API, a project host and the registry itself on loopback, each failing and recovering,
 * the answers keep deps.dev's bodies and say in a `Warning` header what they show without a successful
 * read (199 never read, 110 the last good data with its age): GetVersion, Query, the purl lookup,
 * VersionBatch, PurlBatch, GetPackage, GetProject and ProjectBatch. Once the source answers again the
 * stored answer is rewritten (the next answer has the data and no header), not a day later.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import insights from '../../../functions/insights.ts';
import { ingestPackage } from '../../../src/insights/read-through.ts';
import { testDb, testEnv, workerClient } from '../../support/env.ts';
import { json as reply, startFake, type Fake, type FakeReply } from '../../support/fakes/http-fake.ts';

const FIXTURES = 'test/fixtures/insights/upstream';
const read = (path: string) => readFileSync(`${FIXTURES}/${path}`, 'utf8');
/** A fixture under another name, so no other suite's rows are touched. */
const renamed = (text: string, from: string, to: string) => JSON.parse(text.replaceAll(from, to));

const ATT = 'srcout-att'; // npm, attested
const REG = 'srcout-reg'; // npm, registry failing after a good read
const PY = 'srcout-py'; // PyPI, provenance through the integrity API
const PROJECT = 'github.com/srcout/repo';

/** Which upstreams answer 503. */
const down = { attestations: false, provenance: false, scorecard: false, host: false, registry: false, pypi: false };
/** Every line the service printed (console), to show that no expected failure printed a stack trace. */
const printed: string[] = [];
let fake: Fake;
let api: ReturnType<typeof workerClient>;
let env: Record<string, string>;

function npmPackument(name: string): unknown {
  const doc = renamed(read('npm/gundam-visor.json'), 'gundam-visor', name) as any;
  if (name !== ATT) for (const v of Object.values(doc.versions) as any[]) delete v.dist.attestations;
  return doc;
}

function upstream(path: string): FakeReply {
  const unavailable = reply(503, { error: 'unavailable' });
  if (path.startsWith('/osv/')) return reply(200, {});
  if (path.startsWith('/npm/-/npm/v1/attestations/'))
    return down.attestations
      ? unavailable
      : reply(200, JSON.parse(read('npm/-/npm/v1/attestations/gundam-visor@1.0.1.json')));
  if (path === `/npm/${ATT}` || path === `/npm/${REG}`)
    return down.registry && path === `/npm/${REG}` ? unavailable : reply(200, npmPackument(path.slice(5)));
  if (path.startsWith('/pypi/integrity/'))
    return down.provenance
      ? unavailable
      : reply(200, JSON.parse(read('pypi/integrity/attest-demo/1.0.0/attest_demo-1.0.0-py3-none-any.whl/provenance')));
  const pypi = /^\/pypi\/pypi\/srcout-py\/(?:(\d[\d.]*)\/)?json$/.exec(path);
  if (pypi && down.pypi) return unavailable;
  if (pypi) {
    const doc = read(`pypi/pypi/attest-demo/${pypi[1] ? `${pypi[1]}/` : ''}json`);
    return reply(200, JSON.parse(doc.replaceAll('attest-demo', PY).replaceAll('attest_demo', 'srcout_py')));
  }
  if (path === '/gh/repos/srcout/repo')
    return down.host
      ? unavailable
      : reply(200, { open_issues_count: 3, stargazers_count: 7, forks_count: 1, description: 'outages', homepage: '' });
  if (path === '/sc/projects/github.com/srcout/repo')
    return down.scorecard
      ? unavailable
      : reply(200, { date: '2026-11-01', repo: { name: PROJECT, commit: 'c0ffee' }, score: 5.5, checks: [] });
  return reply(404, {});
}

beforeAll(async () => {
  const db = testDb();
  await db.query(`DELETE FROM insights.packages WHERE name IN ($1, $2, $3)`, [ATT, REG, PY]);
  await db.query(`DELETE FROM insights.source_reads WHERE name IN ($1, $2, $3, $4)`, [ATT, REG, PY, PROJECT]);
  await db.query(`DELETE FROM insights.projects WHERE id = $1`, [PROJECT]);
  fake = await startFake((r) => upstream(r.path));
  env = testEnv({
    NPM_REGISTRY_URL: `${fake.url}/npm`,
    PYPI_URL: `${fake.url}/pypi`,
    OSV_API_URL: `${fake.url}/osv`,
    GITHUB_API_URL: `${fake.url}/gh`,
    SCORECARD_API_URL: `${fake.url}/sc`,
    INSIGHTS_NPM_TARBALLS: 'off',
    INSIGHTS_SOURCE_RETRY_SECONDS: '0',
  }) as unknown as Record<string, string>;
  api = workerClient(insights, env as never);
  for (const level of ['log', 'warn', 'error'] as const)
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      printed.push(...args.map((a) => (a instanceof Error ? (a.stack ?? a.message) : String(a))));
    });
});
afterAll(async () => {
  vi.restoreAllMocks();
  await fake?.close();
  // its packages are other suites' fixtures renamed (their repositories and hashes): gone, they cannot show there
  await testDb().query(`DELETE FROM insights.packages WHERE name IN ($1, $2, $3)`, [ATT, REG, PY]);
});

async function get(path: string): Promise<{ status: number; warning: string | null; body: any }> {
  const res = await api.get(path);
  return { status: res.status, warning: res.headers.get('warning'), body: await res.json() };
}
async function post(path: string, body: unknown): Promise<{ status: number; warning: string | null; body: any }> {
  const res = await api.post(path, body);
  return { status: res.status, warning: res.headers.get('warning'), body: await res.json() };
}

const ATT_VERSION = `/v3/systems/npm/packages/${ATT}/versions/1.0.1`;
const ATT_MISSING =
  /199 insights "attestations unknown for NPM srcout-att@1\.0\.1 \(npm attestations: HTTP 503 at \d{4}-/;

describe('npm attestations document answering 503', () => {
  it('GetVersion: 200 with deps.dev body, empty lists and a 199 Warning (not a 502)', async () => {
    down.attestations = true;
    const v = await get(ATT_VERSION);
    expect(v.status).toBe(200);
    expect([v.body.attestations, v.body.slsaProvenances]).toEqual([[], []]);
    expect(v.warning).toMatch(new RegExp(`^${ATT_MISSING.source}`));
  });
  it('Query, the purl lookup, VersionBatch and PurlBatch carry the same header', async () => {
    const query = await get(`/v3/query?versionKey.system=NPM&versionKey.name=${ATT}&versionKey.version=1.0.1`);
    const purl = await get(`/v3alpha/purl/${encodeURIComponent(`pkg:npm/${ATT}@1.0.1`)}`);
    const batch = await post('/v3alpha/versionbatch', {
      requests: [{ versionKey: { system: 'NPM', name: ATT, version: '1.0.1' } }],
    });
    const purls = await post('/v3alpha/purlbatch', { requests: [{ purl: `pkg:npm/${ATT}@1.0.1` }] });
    for (const r of [query, purl, batch, purls]) {
      expect(r.status).toBe(200);
      expect(r.warning).toMatch(ATT_MISSING);
    }
    expect(query.body.results[0].version.attestations).toEqual([]);
    expect(batch.body.responses[0].version.attestations).toEqual([]);
  });
  it('recovered: the next GetVersion reads the document; it and Query answer it without a header', async () => {
    down.attestations = false;
    const v = await get(ATT_VERSION);
    expect(v.warning).toBeNull();
    expect(v.body.attestations.map((a: { type: string }) => a.type)).toEqual(['https://slsa.dev/provenance/v1']);
    const query = await get(`/v3/query?versionKey.system=NPM&versionKey.name=${ATT}&versionKey.version=1.0.1`);
    expect(query.warning).toBeNull();
    expect(query.body.results[0].version.attestations).toEqual(v.body.attestations);
  });
});

const PY_VERSION = `/v3/systems/pypi/packages/${PY}/versions/1.0.0`;

describe('PyPI integrity API answering 503', () => {
  it('GetVersion: attestations [] with a 199 Warning, not a clean empty list', async () => {
    down.provenance = true;
    const v = await get(PY_VERSION);
    expect(v.status).toBe(200);
    expect(v.body.attestations).toEqual([]);
    expect(v.warning).toMatch(
      /^199 insights "attestations unknown for PYPI srcout-py@1\.0\.0 \(PYPI attestations: HTTP 503 at /,
    );
  });
  it('recovered: the answer that sees the failure reads it again, and the next one has the attestation', async () => {
    down.provenance = false;
    await get(PY_VERSION); // answered from the store; the read it starts stores the package again
    const v = await get(PY_VERSION);
    expect(v.warning).toBeNull();
    // one per file (wheel and sdist), each naming the Trusted Publisher of the served provenance
    expect(v.body.attestations.map((a: { sourceRepository: string }) => a.sourceRepository)).toEqual([
      'https://github.com/example/attest-demo',
      'https://github.com/example/attest-demo',
    ]);
  });
  it('failing again at a refresh: the last good attestations, with a 110 Warning saying how old', async () => {
    down.provenance = true;
    await ingestPackage(env, testDb(), 'PYPI', PY); // the /insights/refresh job's body
    const v = await get(PY_VERSION);
    expect(v.body.attestations.length).toBe(2);
    expect(v.warning).toMatch(
      /^110 insights "attestations of PYPI srcout-py@1\.0\.0 as of \d{4}-[\d-]+T[\d:.]+Z \(\d+ s old; PYPI attestations: HTTP 503 at /,
    );
  });
  it('the registry failing too: the read the answer starts fails quietly, and the next answer names both', async () => {
    down.pypi = true;
    expect((await get(PY_VERSION)).status).toBe(200); // its background read of the package fails (503)
    const v = await get(PY_VERSION);
    expect(v.body.attestations.length).toBe(2);
    expect(v.warning).toMatch(
      /^110 insights "attestations of PYPI srcout-py@1\.0\.0 as of .*, 110 insights "package data of PYPI srcout-py as of /,
    );
    down.pypi = false;
    down.provenance = false;
  });
});

const GET_PROJECT = `/v3/projects/${encodeURIComponent(PROJECT)}`;
const PROJECT_BATCH = { requests: [{ projectKey: { id: PROJECT } }] };

describe('Scorecard and the project host failing', () => {
  it('Scorecard 503 at the first read: the project without scorecard and a 199 Warning', async () => {
    down.scorecard = true;
    const p = await get(GET_PROJECT);
    expect(p.status).toBe(200);
    expect(p.body.starsCount).toBe(7);
    expect(p.body.scorecard).toBeUndefined();
    const scorecardMissing = /^199 insights "scorecard unknown for github\.com\/srcout\/repo \(Scorecard: HTTP 503 at /;
    expect(p.warning).toMatch(scorecardMissing);
    const batch = await post('/v3alpha/projectbatch', PROJECT_BATCH);
    expect(batch.body.responses[0].project.projectKey).toEqual({ id: PROJECT });
    expect(batch.warning).toMatch(scorecardMissing);
  });
  it('Scorecard recovered: read again by the next answer, then served without a header', async () => {
    down.scorecard = false;
    await get(GET_PROJECT);
    const p = await get(GET_PROJECT);
    expect(p.warning).toBeNull();
    expect(p.body.scorecard.overallScore).toBe(5.5);
    expect((await post('/v3alpha/projectbatch', PROJECT_BATCH)).warning).toBeNull();
  });
  it('host and Scorecard down when the stored project is due a refresh: the last good project, 110', async () => {
    down.host = true;
    down.scorecard = true;
    await testDb().query(`UPDATE insights.projects SET fetched_at = now() - interval '2 days' WHERE id = $1`, [
      PROJECT,
    ]);
    await get(GET_PROJECT); // stale: served, and read again in the background (which fails)
    const p = await get(GET_PROJECT);
    expect(p.status).toBe(200);
    expect(p.body.scorecard.overallScore).toBe(5.5);
    expect(p.warning).toMatch(
      /^110 insights "project data of github\.com\/srcout\/repo as of \d{4}-[\d-]+T[\d:.]+Z \((1728\d\d|1729\d\d) s old; host API: HTTP 503 at /,
    );
  });
  it('both back: the project is read again and the header is gone', async () => {
    down.host = false;
    down.scorecard = false;
    await get(GET_PROJECT);
    const p = await get(GET_PROJECT);
    expect(p.warning).toBeNull();
    expect(p.body.scorecard.overallScore).toBe(5.5);
  });
});

describe('the registry failing after a good read (stale-if-error)', () => {
  const PACKAGE = `/v3/systems/npm/packages/${REG}`;
  it('a refresh during the outage fails; GetPackage and GetVersion serve the stored copy with a 110', async () => {
    expect((await get(PACKAGE)).warning).toBeNull();
    down.registry = true;
    await expect(ingestPackage(env, testDb(), 'NPM', REG)).rejects.toThrow(/HTTP 503/);
    const stale =
      /110 insights "package data of NPM srcout-reg as of \d{4}-[\d-]+T[\d:.]+Z \(\d+ s old; registry: HTTP 503 at /;
    const pkg = await get(PACKAGE);
    expect(pkg.status).toBe(200);
    expect(pkg.body.versions.map((v: any) => v.versionKey.version)).toEqual(['1.0.1']);
    expect(pkg.warning).toMatch(new RegExp(`^${stale.source}`));
    expect((await get(`${PACKAGE}/versions/1.0.1`)).warning).toMatch(stale);
  });
  it('a refresh after the outage clears it', async () => {
    down.registry = false;
    await ingestPackage(env, testDb(), 'NPM', REG);
    expect((await get(PACKAGE)).warning).toBeNull();
    expect((await get(`${PACKAGE}/versions/1.0.1`)).warning).toBeNull();
  });
});

describe('the log of all these failures', () => {
  it('holds no stack trace: every failure above was an expected one', () => {
    expect(printed.length).toBeGreaterThan(0);
    expect(printed.filter((l) => /\n\s+at /.test(l))).toEqual([]);
  });
});
