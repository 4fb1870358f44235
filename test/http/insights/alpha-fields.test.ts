/**
 * The v3alpha-only fields: `purl` on Package, Package.Version and Version (in proto declaration order),
 * Version.licenseDetails and upstreamIdentifiers (npm, PyPI; more in alpha-version-details.test.ts), Query
 * results' `artifacts`; every purl answered is taken back by
 * `GET /v3alpha/purl`; /v3 answers stay without them.
 */
import { describe, expect, it } from 'vitest';
import { json, useFixtureUpstream } from '../../fixtures/insights/harness.ts';
import { api } from '../../fixtures/insights/harness.ts';

useFixtureUpstream();

const V3_VERSION_KEYS = [
  'versionKey',
  'publishedAt',
  'isDefault',
  'isDeprecated',
  'deprecatedReason',
  'licenses',
  'advisoryKeys',
  'links',
  'slsaProvenances',
  'attestations',
  'registries',
  'relatedProjects',
];

describe('v3alpha Version', () => {
  it('adds purl after versionKey, licenseDetails after licenses, upstreamIdentifiers last', async () => {
    const v3 = await json('/v3/systems/npm/packages/lodash/versions/4.17.21');
    const alpha = await json('/v3alpha/systems/npm/packages/lodash/versions/4.17.21');
    expect(Object.keys(v3)).toEqual(V3_VERSION_KEYS);
    const at = V3_VERSION_KEYS.indexOf('licenses') + 1;
    expect(Object.keys(alpha)).toEqual([
      'versionKey',
      'purl',
      ...V3_VERSION_KEYS.slice(1, at),
      'licenseDetails',
      ...V3_VERSION_KEYS.slice(at),
      'upstreamIdentifiers',
    ]);
    expect(alpha.purl).toBe('pkg:npm/lodash@4.17.21');
    expect(alpha.upstreamIdentifiers).toEqual([
      { packageName: 'lodash', versionString: '4.17.21', source: 'NPM_NPMJS_ORG' },
    ]);
    const { purl: _p, upstreamIdentifiers: _u, licenseDetails: _l, ...rest } = alpha;
    expect(rest).toEqual(v3);
  });
  it('PyPI identifiers spell the version as published (3.0, not 3.0.0); projectStatus stays last', async () => {
    const body = await json('/v3alpha/systems/pypi/packages/django/versions/3.0');
    expect(body.purl).toBe('pkg:pypi/django@3.0.0');
    expect(body.upstreamIdentifiers).toEqual([
      { packageName: 'Django', versionString: '3.0', source: 'PYPI_RELEASE_FILENAME' },
      { packageName: 'Django', versionString: '3.0', source: 'PYPI_METADATA_FILE' },
    ]);
    expect(Object.keys(body).slice(-2)).toEqual(['upstreamIdentifiers', 'projectStatus']);
  });
  it.each([
    ['cargo', 'openssl', '0.10.0'],
    ['maven', 'org.apache.logging.log4j%3Alog4j-core', '2.14.1'],
    ['nuget', 'newtonsoft.json', '13.0.1'],
    ['rubygems', 'rack', '3.0.0'],
    ['go', 'github.com%2FBurntSushi%2Ftoml', 'v1.2.1'],
  ])('%s (deps.dev records upstream identifiers for npm and PyPI only): an empty list', async (system, name, v) => {
    expect((await json(`/v3alpha/systems/${system}/packages/${name}/versions/${v}`)).upstreamIdentifiers).toEqual([]);
  });
});

describe('v3alpha Package', () => {
  it('adds purl to the package and to each version, after their keys', async () => {
    const body = await json('/v3alpha/systems/npm/packages/%40colors%2Fcolors');
    expect(Object.keys(body)).toEqual(['packageKey', 'purl', 'versions']);
    expect(body.purl).toBe('pkg:npm/%40colors/colors');
    expect(body.versions.map((v: any) => v.purl)).toEqual([
      'pkg:npm/%40colors/colors@1.5.0',
      'pkg:npm/%40colors/colors@1.6.0',
    ]);
    expect(Object.keys(body.versions[0]).slice(0, 3)).toEqual(['versionKey', 'purl', 'publishedAt']);
    expect(Object.keys(await json('/v3/systems/npm/packages/%40colors%2Fcolors'))).toEqual(['packageKey', 'versions']);
  });
  it.each([
    ['npm', 'lodash', 'pkg:npm/lodash'],
    ['pypi', 'django', 'pkg:pypi/django'],
    ['cargo', 'openssl', 'pkg:cargo/openssl'],
    ['maven', 'org.apache.logging.log4j%3Alog4j-core', 'pkg:maven/org.apache.logging.log4j/log4j-core'],
    ['nuget', 'newtonsoft.json', 'pkg:nuget/newtonsoft.json'],
    ['rubygems', 'rack', 'pkg:gem/rack'],
    ['go', 'github.com%2FBurntSushi%2Ftoml', 'pkg:golang/github.com/BurntSushi/toml'],
  ])('%s %s: purl %s, and every version purl leads back to that version', async (system, name, purl) => {
    const body = await json(`/v3alpha/systems/${system}/packages/${name}`);
    expect(body.purl).toBe(purl);
    expect(body.versions.length).toBeGreaterThan(1);
    for (const v of body.versions) {
      expect(v.purl.startsWith(`${purl}@`)).toBe(true);
      const back = await json(`/v3alpha/purl/${encodeURIComponent(v.purl)}`);
      expect(back.version.versionKey).toEqual(v.versionKey);
      expect(back.version.purl).toBe(v.purl);
    }
    const pkg = await json(`/v3alpha/purl/${encodeURIComponent(purl)}`);
    expect(pkg.package.purl).toBe(purl);
  });
});

describe('v3alpha Query and batches', () => {
  it('Query results carry the artifacts matching the hash ([] without a hash); v3 has no artifacts', async () => {
    await json('/v3/systems/npm/packages/lodash');
    const sha1 = encodeURIComponent(Buffer.from('b44a9b6297bcb698f1c51a3545a2b3b368d59c52', 'hex').toString('base64'));
    const byHash = await json(`/v3alpha/query?hash.type=SHA1&hash.value=${sha1}`);
    expect(byHash.results).toHaveLength(1);
    expect(Object.keys(byHash.results[0])).toEqual(['version', 'artifacts']);
    expect(byHash.results[0].artifacts).toHaveLength(1);
    expect(byHash.results[0].artifacts[0].url).toMatch(/lodash-4\.17\.20\.tgz$/);
    expect(byHash.results[0].version.purl).toBe('pkg:npm/lodash@4.17.20');
    const byKey = await json('/v3alpha/query?versionKey.system=NPM&versionKey.name=lodash&versionKey.version=4.17.21');
    expect(byKey.results.map((r: any) => r.artifacts)).toEqual([[]]);
    const v3 = await json(`/v3/query?hash.type=SHA1&hash.value=${sha1}`);
    expect(Object.keys(v3.results[0])).toEqual(['version']);
  });
  it('versionbatch answers v3alpha Versions', async () => {
    await json('/v3/systems/npm/packages/lodash');
    const requests = [{ versionKey: { system: 'NPM', name: 'lodash', version: '4.17.21' } }];
    const res = await api.post('/v3alpha/versionbatch', { requests });
    const body: any = await res.json();
    expect(body.responses[0].version.purl).toBe('pkg:npm/lodash@4.17.21');
  });
});
