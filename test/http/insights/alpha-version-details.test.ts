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
import { startRegistry, type RegistryServer } from '../../support/registry-server.ts';

useFixtureUpstream();

describe('licenseDetails (fixture registries)', () => {
  it.each([
    ['npm', 'lodash', '4.17.21', [{ license: 'MIT', spdx: 'MIT' }]],
    ['pypi', 'django', '3.0', [{ license: 'BSD', spdx: 'non-standard' }]],
    ['cargo', 'openssl', '0.10.0', [{ license: 'Apache-2.0', spdx: 'Apache-2.0' }]],
    ['maven', 'org.apache.logging.log4j%3Alog4j-core', '2.14.1',
      [{ license: 'Apache License, Version 2.0', spdx: 'Apache-2.0' }]],
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
