/**
 * The v3alpha Version fields completed in version-alpha.ts: `licenseDetails` (each licence as the registry
 * publishes it, with its SPDX reading, stored at ingestion) for every system, PyPI's `upstreamIdentifiers`
 * (release file names and METADATA), and `cooldown` (computed at request time, agreeing with the COOLDOWN
 * finding); the same Version from GetVersion, PurlLookup, versionbatch, purlbatch and Query.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import insights from '../../../functions/insights.ts';
import { json, useFixtureUpstream } from '../../fixtures/insights/harness.ts';
import { testDb, testEnv, workerClient } from '../../support/env.ts';
import { startRegistry, type RegistryServer } from '../../../tools/registries/registry-server.ts';

useFixtureUpstream();

describe('licenseDetails (fixture registries)', () => {
  it.each([
    ['npm', 'lodash', '4.17.21', [{ license: 'MIT', spdx: 'MIT' }]],
    ['pypi', 'django', '3.0', [{ license: 'BSD', spdx: 'non-standard' }]],
    ['cargo', 'openssl', '0.10.0', [{ license: 'Apache-2.0', spdx: 'Apache-2.0' }]],
    [
      'maven',
      'org.apache.logging.log4j%3Alog4j-core',
      '2.14.1',
      [{ license: 'Apache License, Version 2.0', spdx: 'Apache-2.0' }],
    ],
    ['nuget', 'newtonsoft.json', '13.0.1', [{ license: 'MIT', spdx: 'MIT' }]],
    ['rubygems', 'rack', '3.0.0', [{ license: 'MIT', spdx: 'MIT' }]],
    ['go', 'github.com%2FBurntSushi%2Ftoml', 'v1.2.1', []],
  ])('%s %s@%s: %j, right after licenses, whose readings they are', async (system, name, version, details) => {
    const body = await json(`/v3alpha/systems/${system}/packages/${name}/versions/${version}`);
    expect(body.licenseDetails).toEqual(details);
    const keys = Object.keys(body);
    expect(keys[keys.indexOf('licenses') + 1]).toBe('licenseDetails');
    expect(new Set(body.licenseDetails.map((d: any) => d.spdx))).toEqual(new Set(body.licenses));
    const v3 = await json(`/v3/systems/${system}/packages/${name}/versions/${version}`);
    expect(v3.licenseDetails).toBeUndefined();
  });
  it('is stored at ingestion (insights.version_details), not derived per request', async () => {
    await json('/v3alpha/systems/npm/packages/lodash/versions/4.17.21');
    const rows = await testDb().query<{ license_details: unknown }>(`SELECT license_details
      FROM insights.version_details WHERE system = 'NPM' AND name = 'lodash' AND version = '4.17.21'`);
    expect(rows).toEqual([{ license_details: [{ license: 'MIT', spdx: 'MIT' }] }]);
  });
});

const DAY = 86_400_000;
const recent = new Date(Date.now() - 2 * DAY);
recent.setUTCMilliseconds(0);
const iso = (d: Date) => d.toISOString().replace('.000Z', 'Z');

function pypiDoc(name: string, version: string, info: Record<string, unknown>, filenames: string[]) {
  const files = filenames.map((filename) => ({
    filename,
    url: `https://files.example/${filename}`,
    upload_time_iso_8601: '2025-12-24T19:21:34Z',
    requires_python: null,
    yanked: false,
    digests: {},
  }));
  return {
    info: { name, version, requires_dist: null, project_urls: null, ...info },
    releases: { [version]: files },
    urls: files,
  };
}

/** PyPI projects (by normalised name) and one npm package, as a loopback registry serves them. */
const PYPI: Record<string, object> = {
  'avd-jaraco-context': pypiDoc('Avd.Jaraco.Context', '6.0', { license_expression: 'mit' }, [
    'avd_jaraco_context-6.0-py3-none-any.whl',
    'avd_jaraco_context-6.0.tar.gz',
    'Avd.Jaraco.Context-6.0.zip',
  ]),
  'avd-classified': pypiDoc(
    'avd-classified',
    '1.0',
    {
      license: '',
      classifiers: ['License :: OSI Approved :: MIT License', 'License :: Other/Proprietary License'],
    },
    ['avd_classified-1.0-py3-none-any.whl'],
  ),
};
const NPM = {
  name: 'avd-cool',
  'dist-tags': { latest: '1.1.0' },
  time: { '1.0.0': '2020-01-01T00:00:00.000Z', '1.1.0': recent.toISOString() },
  versions: {
    '1.0.0': { name: 'avd-cool', version: '1.0.0', license: 'Apache-2.0' },
    '1.1.0': { name: 'avd-cool', version: '1.1.0', license: '(MIT OR GPL-3.0+)' },
  },
};

let registry: RegistryServer;
let api: ReturnType<typeof workerClient>;
const get = async (path: string, client = api) => {
  const res = await client.get(path);
  expect({ path, status: res.status }).toEqual({ path, status: 200 });
  return (await res.json()) as any;
};

beforeAll(async () => {
  const db = testDb();
  await db.query(`DELETE FROM insights.packages WHERE name LIKE 'avd-%'`);
  registry = await startRegistry((p) => {
    if (p.startsWith('/v1/')) return {};
    const m = /^\/pypi\/([^/]+)\/(?:[^/]+\/)?json$/.exec(p);
    if (m) return PYPI[m[1]!];
    return p === '/avd-cool' ? NPM : undefined;
  });
  api = workerClient(
    insights,
    testEnv({
      PYPI_URL: registry.url,
      NPM_REGISTRY_URL: registry.url,
      OSV_API_URL: registry.url,
      INSIGHTS_PYPI_ATTESTATIONS: 'off',
    }),
  );
});
afterAll(() => registry?.close());

describe('PyPI upstreamIdentifiers and licenseDetails (loopback PyPI)', () => {
  it('each release file name spelling, then the METADATA name and version, as published', async () => {
    const body = await get('/v3alpha/systems/pypi/packages/avd.jaraco.context/versions/6.0');
    expect(body.versionKey).toEqual({ system: 'PYPI', name: 'avd-jaraco-context', version: '6.0.0' });
    expect(body.upstreamIdentifiers).toEqual([
      { packageName: 'avd_jaraco_context', versionString: '6.0', source: 'PYPI_RELEASE_FILENAME' },
      { packageName: 'Avd.Jaraco.Context', versionString: '6.0', source: 'PYPI_RELEASE_FILENAME' },
      { packageName: 'Avd.Jaraco.Context', versionString: '6.0', source: 'PYPI_METADATA_FILE' },
    ]);
    expect(body.licenseDetails).toEqual([{ license: 'mit', spdx: 'MIT' }]);
    expect(body.licenses).toEqual(['MIT']);
  });
  it('without a licence field, the classifiers that name a licence, as written', async () => {
    const body = await get('/v3alpha/systems/pypi/packages/avd-classified/versions/1.0');
    expect(body.licenseDetails).toEqual([{ license: 'License :: OSI Approved :: MIT License', spdx: 'MIT' }]);
    expect(body.upstreamIdentifiers.map((u: any) => `${u.source} ${u.packageName}`)).toEqual([
      'PYPI_RELEASE_FILENAME avd_classified',
      'PYPI_METADATA_FILE avd-classified',
    ]);
  });
  it('the same Version from PurlLookup, versionbatch, purlbatch and Query', async () => {
    const path = '/v3alpha/systems/pypi/packages/avd-jaraco-context/versions/6.0.0';
    const version = await get(path);
    expect((await get(`/v3alpha/purl/${encodeURIComponent('pkg:pypi/avd-jaraco-context@6.0.0')}`)).version).toEqual(
      version,
    );
    const vb = await api.post('/v3alpha/versionbatch', { requests: [{ versionKey: version.versionKey }] });
    expect(((await vb.json()) as any).responses[0].version).toEqual(version);
    const pb = await api.post('/v3alpha/purlbatch', { requests: [{ purl: 'pkg:pypi/avd-jaraco-context@6.0' }] });
    expect(((await pb.json()) as any).responses[0].result.version).toEqual(version);
    const q = await get('/v3alpha/query?versionKey.system=PYPI&versionKey.name=avd-jaraco-context');
    expect(q.results).toEqual([{ version, artifacts: [] }]);
  });
});

describe('Version.cooldown (loopback npm)', () => {
  it('while in the window: {end, description} after upstreamIdentifiers, the end of the COOLDOWN finding', async () => {
    const body = await get('/v3alpha/systems/npm/packages/avd-cool/versions/1.1.0');
    const end = iso(new Date(recent.getTime() + 7 * DAY));
    expect(body.cooldown.end).toBe(end);
    expect(body.cooldown.description).toContain(`published ${iso(recent)}`);
    expect(Object.keys(body).slice(-2)).toEqual(['upstreamIdentifiers', 'cooldown']);
    const findings = await get('/v3alpha/systems/npm/packages/avd-cool/versions/1.1.0:findings');
    expect(findings.requestedVersion.findings).toEqual([
      { type: 'COOLDOWN', risk: 'RISK_LOW', cooldownContext: { end } },
    ]);
    expect(findings.requestedVersion.cooldownEnd).toBe(end);
    expect(body.licenseDetails).toEqual([{ license: '(MIT OR GPL-3.0+)', spdx: '(MIT OR GPL-3.0+)' }]);
    expect(body.upstreamIdentifiers).toEqual([
      { packageName: 'avd-cool', versionString: '1.1.0', source: 'NPM_NPMJS_ORG' },
    ]);
  });
  it('absent outside the window, under /v3, and with INSIGHTS_COOLDOWN_DAYS=1 for a 2-day-old version', async () => {
    expect(Object.keys(await get('/v3alpha/systems/npm/packages/avd-cool/versions/1.0.0'))).not.toContain('cooldown');
    expect(Object.keys(await get('/v3/systems/npm/packages/avd-cool/versions/1.1.0'))).not.toContain('cooldown');
    const short = workerClient(insights, testEnv({ ...(api.env as any), INSIGHTS_COOLDOWN_DAYS: '1' }));
    expect(await get('/v3alpha/systems/npm/packages/avd-cool/versions/1.1.0', short)).not.toHaveProperty('cooldown');
    const long = workerClient(insights, testEnv({ ...(api.env as any), INSIGHTS_COOLDOWN_DAYS: '30' }));
    const both = await long.post('/v3alpha/versionbatch', {
      requests: ['1.0.0', '1.1.0'].map((version) => ({ versionKey: { system: 'NPM', name: 'avd-cool', version } })),
    });
    const responses = ((await both.json()) as any).responses;
    expect(responses.map((r: any) => r.version.cooldown?.end ?? null)).toEqual([
      null,
      iso(new Date(recent.getTime() + 30 * DAY)),
    ]);
  });
});
