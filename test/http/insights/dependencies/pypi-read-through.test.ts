/**
 * PyPI read-through for graphs fetches only what pip would read: each project's JSON document (every
 * release with its files' Requires-Python and yanked flags, and the latest release's metadata), then
 * the metadata of exactly the other releases the resolver considers. Such a project is stored for
 * resolution only: the package routes read it through in full before answering, and Query never
 * answers a release whose metadata was not read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import insights from '../../../../functions/insights.ts';
import { testDb, testEnv, workerClient } from '../../../support/env.ts';
import { emptyInsights, graphSets } from '../../../../tools/universes/graphs.ts';
import { pypiJsonRoute } from '../../../../tools/registries/pypi-json.ts';
import { startRegistry, type RegistryServer } from '../../../../tools/registries/registry-server.ts';
import type { PipUniverse } from '../../../../tools/registries/pip-index.ts';

const lib = Object.fromEntries(
  ['0.9', '1.0', '1.1', '1.2', '1.3', '1.4', '1.5', '1.6', '1.7', '1.8'].map((v) => [v, {}]),
);
const U: PipUniverse = {
  'lz-root': {
    '1.0.0': {
      deps: [
        ['lz-lib', '>=1.0'],
        ['lz-new', ''],
      ],
    },
  },
  'lz-lib': { ...lib, '1.9': { requiresPython: '>=3.99' } }, // pip skips 1.9 on any real Python: 1.8 is read
  'lz-new': { '2.0': { deps: [['lz-lib', '<1.9']] }, '1.0': {} },
};
let registry: RegistryServer;
let api: ReturnType<typeof workerClient>;
const hits = (p: string) => registry.hits.get(p) ?? 0;

beforeAll(async () => {
  await emptyInsights(testDb());
  registry = await startRegistry((p) => (p === '/v1/query' ? {} : pypiJsonRoute(U)(p)));
  api = workerClient(
    insights,
    testEnv({ PYPI_URL: registry.url, OSV_API_URL: registry.url, RESOLVE_PYTHON_VERSION: '3.12.4' }),
  );
});
afterAll(async () => {
  await registry?.close();
  await emptyInsights(testDb());
});

describe('pypi graph read-through', () => {
  it('reads each project once and only the release metadata the resolver needs', async () => {
    const res = await api.get('/v3/systems/pypi/packages/lz-root/versions/1.0.0:dependencies');
    expect(res.status).toBe(200);
    expect(graphSets((await res.json()) as any).nodes).toEqual(['lz-lib@1.8', 'lz-new@2.0', 'lz-root@1.0.0']);
    expect([hits('/pypi/lz-root/json'), hits('/pypi/lz-lib/json'), hits('/pypi/lz-new/json')]).toEqual([1, 1, 1]);
    const perVersion = [...registry.hits.keys()].filter((p) => /^\/pypi\/[^/]+\/[^/]+\/json$/.test(p)).sort();
    expect(perVersion).toEqual(['/pypi/lz-lib/1.8/json']); // root 1.0.0, lz-new 2.0 and lz-lib 1.9 come with their project document
  });

  it('answers the package routes only after reading the project in full', async () => {
    const before = hits('/pypi/lz-lib/1.2/json');
    const res = await api.get('/v3/systems/pypi/packages/lz-lib/versions/1.2');
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect([body.versionKey.name, body.publishedAt]).toEqual(['lz-lib', '2020-01-01T00:00:00Z']);
    expect(hits('/pypi/lz-lib/1.2/json')).toBe(before + 1);
  });

  it('Query skips releases whose metadata was never read', async () => {
    const q = (v: string) => api.get(`/v3/query?versionKey.system=PYPI&versionKey.name=lz-new&versionKey.version=${v}`);
    expect(((await (await q('1.0')).json()) as any).results).toEqual([]);
    expect(((await (await q('2.0')).json()) as any).results).toHaveLength(1);
  });
});
