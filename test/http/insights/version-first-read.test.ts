/**
 * GetVersion of a package the store lacks is answered from the fetched document (version-first-read.ts; Go
 * excepted, whose licences are read from the module zip and kept with the stored version),
 * without waiting for the package to be stored, and that text is byte for byte the answer the store gives afterwards
 * (stored answers) and builds on read: every system, v3 and v3alpha, with advisories, links and related
 * projects, deprecations, licence details and npm attestations (fixture upstream). The first read fetches
 * the document and the OSV records once each; a failing OSV makes the first read wait for the store,
 * which records the failure and names it in the Warning header (never an answer that looks whole).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import insights from '../../../functions/insights.ts';
import { executionContext, testDb, testEnv, workerClient } from '../../support/env.ts';
import { startFixtureServer, type FixtureServer } from '../../../tools/insights-upstream/server.ts';
import { startRegistry, type RegistryServer } from '../../../tools/registries/registry-server.ts';

const CASES: [system: string, name: string, version: string][] = [
  ['NPM', 'lodash', '4.17.21'],
  ['NPM', 'lodash', '4.17.20'],
  ['NPM', 'gundam-visor', '1.0.1'],
  ['NPM', 'pino', '6.14.0'],
  ['NPM', '@colors/colors', '1.5.0'],
  ['NPM', 'bundle-demo', '1.0.0'],
  ['PYPI', 'django', '3.0.1'],
  ['PYPI', 'attest-demo', '1.0.0'],
  ['CARGO', 'openssl', '0.10.1'],
  ['MAVEN', 'org.apache.logging.log4j:log4j-core', '2.14.1'],
  ['NUGET', 'newtonsoft.json', '12.0.3'],
  ['RUBYGEMS', 'rack', '2.2.4'],
  ['GO', 'github.com/BurntSushi/toml', 'v1.2.1'],
  ['GO', 'example.com/capdemo', 'v1.0.0'],
];

let upstream: FixtureServer;
let env: ReturnType<typeof testEnv>;
const db = testDb();

async function forget(system: string, name: string): Promise<void> {
  await db.query('DELETE FROM insights.packages WHERE system = $1 AND name = $2', [system, name]);
  await db.query('DELETE FROM insights.source_reads WHERE system = $1 AND name = $2', [system, name]);
  await db.query('DELETE FROM insights.attestation_checks WHERE system = $1 AND name = $2', [system, name]);
}

async function versionsStored(system: string, name: string): Promise<number> {
  const rows = await db.query('SELECT 1 FROM insights.versions WHERE system = $1 AND name = $2', [system, name]);
  return rows.length;
}

const path = (api: string, system: string, name: string, version: string) =>
  `/${api}/systems/${system.toLowerCase()}/packages/${encodeURIComponent(name)}/versions/${encodeURIComponent(version)}`;

beforeAll(async () => {
  upstream = await startFixtureServer();
  env = testEnv(upstream.env);
});
afterAll(() => upstream.close());

describe('the first GetVersion of a package', () => {
  for (const [system, name, version] of CASES)
    for (const api of ['v3', 'v3alpha'])
      it(`${api} ${system} ${name}@${version}: answered from the document, the text the store answers after it`, async () => {
        await forget(system, name);
        const { ctx, settle } = executionContext();
        const first = await insights.fetch(
          new Request(`http://localhost${path(api, system, name, version)}`),
          env,
          ctx as never,
        );
        const text = await first.text();
        expect({ status: first.status, warning: first.headers.get('warning') }).toEqual({ status: 200, warning: null });
        // Answered from the document: the store runs beside the OSV read this answer waits for, so whether its
        // rows are in when the answer arrives depends on timing alone (CI once saw them in first) and is not
        // asserted here; `npm run bench:cold` measures first reads, and the OSV-failure case below shows the
        // other path (waiting for the store, named in the Warning header).
        await settle();
        expect(await versionsStored(system, name)).toBeGreaterThan(0);
        const api2 = workerClient(insights, env);
        const after = await api2.get(path(api, system, name, version));
        expect(after.headers.get('warning')).toBeNull();
        expect(await after.text()).toBe(text);
        // and built on read, nothing stored
        await db.query('DELETE FROM insights.version_answers WHERE system = $1 AND name = $2', [system, name]);
        expect(await (await api2.get(path(api, system, name, version))).text()).toBe(text);
      });

  it('shows what a first read of npm attestations and advisories shows, fetching each document once', async () => {
    await forget('NPM', 'gundam-visor');
    await forget('NPM', 'lodash');
    upstream.hits.clear();
    const { ctx, settle } = executionContext();
    const res = await insights.fetch(
      new Request(`http://localhost${path('v3', 'NPM', 'gundam-visor', '1.0.1')}`),
      env,
      ctx as never,
    );
    const v = (await res.json()) as any;
    expect(v.attestations.map((a: any) => [a.type, a.verified])).toEqual([['https://slsa.dev/provenance/v1', false]]);
    expect(v.relatedProjects[0].relationProvenance).toBe('SLSA_ATTESTATION');
    await settle();
    expect(upstream.hits.get('/npm/gundam-visor')).toBe(1);
    expect(upstream.hits.get('/npm/-/npm/v1/attestations/gundam-visor@1.0.1')).toBe(1);
    const lodash = (await (
      await workerClient(insights, env).get(path('v3', 'NPM', 'lodash', '4.17.20'))
    ).json()) as any;
    expect(lodash.advisoryKeys.length).toBeGreaterThan(0);
  });
});

describe('a first GetVersion while OSV fails', () => {
  let osv: RegistryServer;
  beforeAll(async () => {
    osv = await startRegistry(() => 503);
  });
  afterAll(() => osv?.close());

  it('waits for the store, and its Warning names the advisories not read', async () => {
    await forget('NPM', 'pino');
    const { ctx, settle } = executionContext();
    const failing = testEnv({ ...upstream.env, OSV_API_URL: osv.url });
    const res = await insights.fetch(
      new Request(`http://localhost${path('v3', 'NPM', 'pino', '6.14.0')}`),
      failing,
      ctx as never,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('warning')).toMatch(/^199 .*advisories/);
    expect(((await res.json()) as any).advisoryKeys).toEqual([]);
    await settle();
  });
});
