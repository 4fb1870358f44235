/**
 * issue 34: Go licences from the module's source. GetVersion of a Go module version read through from the
 * fixture Go proxy answers `licenses` (v3) and `licenseDetails` (v3alpha) detected in the root licence
 * files of its source zip, as does PurlLookup (example.com/licdemo: v1.0.0 has MIT in LICENSE and BSD-3-Clause in COPYING.md,
 * an Apache notice in sub/ that is not the module's, v1.1.0 an unknown text, v1.2.0 no zip, v1.3.0 a zip
 * the proxy fails on); read once per version, kept through a re-ingestion of the module, and read by
 * GetCapabilities when it fetched the zip first.
 */
import { describe, expect, it } from 'vitest';
import { api, json, upstream, useFixtureUpstream } from '../../fixtures/insights/harness.ts';
import { testDb } from '../../support/env.ts';
import { storePackage } from '../../../src/insights/queries-write.ts';
import { fetchGo } from '../../../src/insights/ingest/go.ts';

useFixtureUpstream();

const MODULE = 'example.com/licdemo';
const version = (api: 'v3' | 'v3alpha', v: string) =>
  `/${api}/systems/go/packages/${encodeURIComponent(MODULE)}/versions/${v}`;
const zip = (v: string) => `/go/${MODULE}/@v/${v}.zip`;

describe('Go licences (GetVersion)', () => {
  it('starts from a fresh module', async () => {
    await testDb().query(`DELETE FROM insights.packages WHERE system = 'GO' AND name = $1`, [MODULE]);
    await testDb().query('DELETE FROM insights.go_licenses WHERE name = $1', [MODULE]);
    await testDb().query(`DELETE FROM insights.go_capabilities WHERE name = 'example.com/capdemo'`);
    await testDb().query('DELETE FROM insights.go_licenses WHERE name = $1', ['example.com/capdemo']);
    expect(await testDb().query('SELECT 1 FROM insights.go_licenses WHERE name = $1', [MODULE])).toEqual([]);
  });

  it('v3: the SPDX ids of the root licence files, sorted; the zip read once', async () => {
    const body = await json(version('v3', 'v1.0.0'));
    expect(body.licenses).toEqual(['BSD-3-Clause', 'MIT']);
    expect(upstream.hits.get(zip('v1.0.0'))).toBe(1);
    expect((await json(version('v3', 'v1.0.0'))).licenses).toEqual(['BSD-3-Clause', 'MIT']);
    expect(upstream.hits.get(zip('v1.0.0'))).toBe(1);
  });

  it('v3alpha: licenseDetails after licenses, one per id', async () => {
    const body = await json(version('v3alpha', 'v1.0.0'));
    expect(body.licenses).toEqual(['BSD-3-Clause', 'MIT']);
    expect(body.licenseDetails).toEqual([
      { license: 'BSD-3-Clause', spdx: 'BSD-3-Clause' },
      { license: 'MIT', spdx: 'MIT' },
    ]);
    const keys = Object.keys(body);
    expect(keys.indexOf('licenseDetails')).toBe(keys.indexOf('licenses') + 1);
  });

  it('an unknown licence text is non-standard (first shown by a purl lookup)', async () => {
    const body = (await json(`/v3alpha/purl/${encodeURIComponent(`pkg:golang/${MODULE}@v1.1.0`)}`)).version;
    expect(upstream.hits.get(zip('v1.1.0'))).toBe(1);
    expect(body.licenses).toEqual(['non-standard']);
    expect(body.licenseDetails).toEqual([{ license: 'non-standard', spdx: 'non-standard' }]);
  });

  it('a version whose zip the proxy does not have has no licences (kept: not asked again)', async () => {
    const res = await api.get(version('v3', 'v1.2.0'));
    expect(res.status).toBe(200);
    expect(res.headers.get('warning')).toBeNull();
    expect((await res.json()).licenses).toEqual([]);
    await json(version('v3', 'v1.2.0'));
    expect(upstream.hits.get(zip('v1.2.0'))).toBe(1);
  });

  it('a failing proxy: [] with a 199 Warning naming the failure, and the next answer tries again', async () => {
    const res = await api.get(version('v3', 'v1.3.0'));
    expect(res.status).toBe(200);
    expect((await res.json()).licenses).toEqual([]);
    expect(res.headers.get('warning')).toMatch(
      /^199 insights "licenses unknown for GO example.com\/licdemo@v1.3.0 \(Go proxy source zip: .*HTTP 500\)"/,
    );
    const again = await api.get(version('v3', 'v1.3.0'));
    expect(again.headers.get('warning')).toMatch(/^199 insights "licenses unknown/);
    expect(upstream.hits.get(zip('v1.3.0'))).toBe(2);
    expect(await testDb().query(`SELECT 1 FROM insights.go_licenses WHERE version = 'v1.3.0'`)).toEqual([]);
  });

  it('a re-ingestion of the module keeps the licences read from source', async () => {
    await storePackage(testDb(), await fetchGo(upstream.env, MODULE));
    const hits = upstream.hits.get(zip('v1.0.0'));
    expect((await json(version('v3', 'v1.0.0'))).licenses).toEqual(['BSD-3-Clause', 'MIT']);
    expect((await json(version('v3alpha', 'v1.0.0'))).licenseDetails).toHaveLength(2);
    expect(upstream.hits.get(zip('v1.0.0'))).toBe(hits);
  });

  it('GetCapabilities keeps the licences of the zip it read; GetVersion then reads no zip', async () => {
    const capdemo = '/v3alpha/systems/go/packages/example.com%2Fcapdemo/versions/v1.0.0';
    await json(`${capdemo}:capabilities`);
    const hits = upstream.hits.get('/go/example.com/capdemo/@v/v1.0.0.zip');
    const body = await json(capdemo);
    expect(body.licenses).toEqual(['MIT']);
    expect(upstream.hits.get('/go/example.com/capdemo/@v/v1.0.0.zip')).toBe(hits);
  });
});
