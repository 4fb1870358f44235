/**
 * GetDependencies end to end for npm: the insights worker on an emptied insights schema, its
 * NPM_REGISTRY_URL pointed at a loopback registry serving the recorded corpus packuments
 * (tools/universes/npm-corpus, recorded with npm's own client), and every root's graph read
 * through on the first request. The answer must hold exactly the packages and package-to-package
 * edges of the tree npm installs, taken from npm's own `--package-lock-only` lockfile for that root
 * (npm version in roots.json) minus the optional sets npm drops on linux x64.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import insights from '../../../../functions/insights.ts';
import { DEFAULT_NPM_ENV } from '../../../../src/resolve/npm-pick.ts';
import { testDb, testEnv, workerClient } from '../../../support/env.ts';
import { emptyInsights, graphSets } from '../../../../tools/universes/graphs.ts';
import { npmRoute, startRegistry, type RegistryServer } from '../../../../tools/registries/registry-server.ts';
import { loadCorpus, lockInstalled } from '../../../../tools/universes/npm-corpus.ts';

const { meta, client, lockfiles, packuments } = loadCorpus();
const nodeVersion = meta.nodeVersion.replace(/^v/, '');
const env = { ...DEFAULT_NPM_ENV, nodeVersion, npmVersion: meta.npmVersion };
let registry: RegistryServer;
let api: ReturnType<typeof workerClient>;

beforeAll(async () => {
  await emptyInsights(testDb());
  registry = await startRegistry(npmRoute(packuments));
  api = workerClient(
    insights,
    testEnv({
      NPM_REGISTRY_URL: registry.url,
      INSIGHTS_NPM_TARBALLS: 'off',
      INSIGHTS_FETCH_LIMIT: '5000',
      RESOLVE_NODE_VERSION: nodeVersion,
    }),
  );
  console.log(
    `npm end to end: ${meta.roots.length} roots compared with npm ${meta.npmVersion} lockfiles (node ${nodeVersion})`,
  );
});
afterAll(async () => {
  await registry?.close();
  await emptyInsights(testDb()); // the corpus packages are trimmed: leave no trace for other suites
});

const path = (name: string, version: string) =>
  `/v3/systems/npm/packages/${encodeURIComponent(name)}/versions/${version}:dependencies`;

describe('npm graphs through the endpoint on a cold service equal what npm installs', () => {
  test.each(meta.roots.map((r) => [`${r.manifest.name}@${r.manifest.version}`, r] as const))(
    '%s',
    async (_n, r) => {
      const { name, version } = r.manifest;
      const res = await api.get(path(name, version));
      const body = (await res.json()) as any;
      expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(200);
      expect(body.error).toBe('');
      const want = await lockInstalled(client, env, lockfiles[name]!, name, version);
      expect(graphSets(body)).toEqual(want);
    },
    240_000,
  ); // the largest roots read ~1,500 packuments cold: a limit for a loaded machine, not a speed check

  test('a second request is served from the cache with the same body', async () => {
    const r = meta.roots[0]!.manifest;
    const before = registry.requests();
    const [a, b] = [await api.get(path(r.name, r.version)), await api.get(path(r.name, r.version))];
    expect(await a.text()).toEqual(await b.text());
    expect(registry.requests()).toBe(before);
  });
});
