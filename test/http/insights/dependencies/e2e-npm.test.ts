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
import { npmInstallLock } from '../../../../tools/registries/npm-oracle.ts';
import { loadCorpus, lockInstalled, servablePackuments } from '../../../../tools/universes/npm-corpus.ts';

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

// Roots whose tree as a dependency (`npm install react-scripts@5.0.1` in an empty project) differs from
// the recorded one with the root as the project: npm 11.19.1 places typescript 4.9.5 at the top for
// the first (react-scripts' optional peer on typescript is then a dependency's, which npm loads with its
// set) and typescript 7.0.2 only nested for the second. Their expectation is npm's own lockfile of the
// install, made in the test by npm over a loopback registry serving the same recorded packuments.
const AS_DEPENDENCY = new Set(['react-scripts']);

async function installedByNpm(name: string, version: string) {
  const full = await startRegistry(npmRoute(servablePackuments(packuments)));
  try {
    const answer = await npmInstallLock(full.url, name, version);
    if (!answer.ok) throw new Error(`npm install ${name}@${version}: ${answer.error}`);
    return await lockInstalled(client, env, answer.lock, name, version, `node_modules/${name}`);
  } finally {
    await full.close();
  }
}

const path = (name: string, version: string) =>
  `/v3/systems/npm/packages/${encodeURIComponent(name)}/versions/${version}:dependencies`;

describe('npm graphs through the endpoint on a cold service equal what npm installs', () => {
  test.each(meta.roots.map((r) => [`${r.manifest.name}@${r.manifest.version}`, r] as const))(
    '%s',
    async (_n, r) => {
      const { name, version } = r.manifest;
      // a graph slower than the answer budget (a loaded machine) is a 503 with Retry-After, then complete
      let res = await api.get(path(name, version));
      for (let i = 0; i < 20 && res.status === 503 && res.headers.get('retry-after'); i++) {
        await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after')) * 1000));
        res = await api.get(path(name, version));
      }
      const body = (await res.json()) as any;
      expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(200);
      expect(body.error).toBe('');
      const want = AS_DEPENDENCY.has(name)
        ? await installedByNpm(name, version)
        : await lockInstalled(client, env, lockfiles[name]!, name, version);
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
