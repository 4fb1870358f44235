/**
 * PEP 639 `License-Expression` (deps.dev's #267): a PyPI release's `licenses` come from the JSON API's
 * `info.license_expression` when it is set, ahead of the legacy `license` field and the license
 * classifiers (even when they disagree, and for a LicenseRef- expression), case-normalised to SPDX; the
 * older fields are read only for a release without one. Served by a loopback PyPI (and OSV) server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import insights from '../../../functions/insights.ts';
import { testDb, testEnv, workerClient } from '../../support/env.ts';
import { startRegistry, type RegistryServer } from '../../../tools/registries/registry-server.ts';

interface Meta {
  license_expression?: string | null;
  license?: string | null;
  classifiers?: string[];
}

const PROJECTS: Record<string, Meta> = {
  'pep639-compound': {
    license_expression: 'MIT AND (Apache-2.0 OR BSD-2-Clause)',
    license: 'GPL',
    classifiers: ['License :: OSI Approved :: GNU General Public License v3 (GPLv3)'],
  },
  'pep639-lower': { license_expression: 'mit', license: null, classifiers: [] },
  'pep639-ref': {
    license_expression: 'LicenseRef-Acme-Proprietary',
    classifiers: ['License :: OSI Approved :: MIT License'],
  },
  'pep639-legacy': { license_expression: null, license: '', classifiers: ['License :: OSI Approved :: MIT License'] },
};

function doc(name: string, m: Meta) {
  const file = {
    filename: `${name.replace(/-/g, '_')}-1.0-py3-none-any.whl`,
    url: `https://files.example/${name}-1.0.whl`,
    packagetype: 'bdist_wheel',
    upload_time_iso_8601: '2024-09-01T00:00:00Z',
    requires_python: null,
    yanked: false,
    digests: {},
  };
  return {
    info: { name, version: '1.0', requires_dist: null, project_urls: null, ...m },
    releases: { '1.0': [file] },
    urls: [file],
  };
}

let registry: RegistryServer;
let api: ReturnType<typeof workerClient>;

beforeAll(async () => {
  await testDb().query(`DELETE FROM insights.packages WHERE system = 'PYPI' AND name LIKE 'pep639-%'`);
  registry = await startRegistry((p) => {
    if (p.startsWith('/v1/')) return {};
    const m = /^\/pypi\/([^/]+)\/(?:1\.0\/)?json$/.exec(p);
    return m && PROJECTS[m[1]!] ? doc(m[1]!, PROJECTS[m[1]!]!) : undefined;
  });
  api = workerClient(
    insights,
    testEnv({
      PYPI_URL: registry.url,
      OSV_API_URL: registry.url,
      INSIGHTS_PYPI_ATTESTATIONS: 'off',
    }),
  );
});
afterAll(() => registry?.close());

const licensesOf = async (name: string) => {
  const res = await api.get(`/v3/systems/pypi/packages/${name}/versions/1.0`);
  expect(res.status).toBe(200);
  return ((await res.json()) as any).licenses;
};

describe('PEP 639 License-Expression', () => {
  it('license_expression wins over a disagreeing license field and classifiers', async () => {
    expect(await licensesOf('pep639-compound')).toEqual(['MIT AND (Apache-2.0 OR BSD-2-Clause)']);
    expect(registry.hits.get('/pypi/pep639-compound/json')).toBeGreaterThan(0); // read from the loopback PyPI
  });
  it('is case-normalised to SPDX, and a LicenseRef- expression is kept over a classifier', async () => {
    expect(await licensesOf('pep639-lower')).toEqual(['MIT']);
    expect(await licensesOf('pep639-ref')).toEqual(['LicenseRef-Acme-Proprietary']);
  });
  it('a release without one falls back to the classifiers', async () => {
    expect(await licensesOf('pep639-legacy')).toEqual(['MIT']);
  });
});
