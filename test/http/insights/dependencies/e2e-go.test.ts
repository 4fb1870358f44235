/**
 * GetDependencies end to end for Go: seeded random universes (tools/registries/go-proxy.ts) served as a
 * GOPROXY on loopback, the insights worker on an emptied schema reading every module through, and each
 * root's graph compared as sets with what `go mod graph` and `go list -m all` give for a main module at
 * go 1.17 that requires only the root (selected versions; edges from selected versions), over the same
 * proxy, offline (the selection checked against `go list -m all` where that succeeds). A universe with a
 * requirement the proxy lacks (an unpruned root, so its go.mod is read) must fail on both sides. A graph
 * recomputed from the stored modules (cache dropped) is the same and reads nothing from the proxy (pseudo-versions
 * included), and so is a graph recomputed from the isolate's memory of go.mod files with the store emptied.
 * Needs Debian's golang-go; without it the suite is skipped, saying so.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import insights from '../../../../functions/insights.ts';
import { differentialSeeds } from '../../../../tools/universes/differential-seeds.ts';
import { testDb, testEnv, workerClient } from '../../../support/env.ts';
import { emptyInsights, graphSets } from '../../../../tools/universes/graphs.ts';
import {
  GO_VERSION,
  HAS_GO,
  goModGraph,
  proxyRoutes,
  randomGoUniverse,
} from '../../../../tools/registries/go-proxy.ts';
import { startRegistry, type RegistryServer } from '../../../../tools/registries/registry-server.ts';
import { prunes } from '../../../../src/resolve/go.ts';

const { seeds, withHand } = differentialSeeds(2000, 24);
const UNIVERSES = [
  ...seeds.map((seed) => ({ label: `random universe ${seed}`, ...randomGoUniverse(seed) })),
  ...(withHand ? [2100, 2101] : []).map((seed) => ({
    label: `random universe ${seed}, a requirement missing from the proxy`,
    ...randomGoUniverse(seed, true),
  })),
];
const ROUTES = new Map<string, string>();
for (const { u } of UNIVERSES) proxyRoutes(u, ROUTES);

if (!HAS_GO) console.warn('go end to end: SKIPPED, `go` is not installed (apt-get install golang-go)');

let proxy: RegistryServer;
let home: string;

describe.runIf(HAS_GO)('go graphs through the endpoint on a cold service equal go mod graph', () => {
  beforeAll(async () => {
    proxy = await startRegistry((p) => ROUTES.get(p));
    home = mkdtempSync(join(tmpdir(), 'go-home-'));
    const pruned = UNIVERSES.filter(({ u, root }) => prunes(u[root]!['v1.0.0']!.go)).length;
    console.log(
      `go end to end: ${UNIVERSES.length} universes (${pruned} with a pruned root) compared with ` +
        GO_VERSION.stdout.trim(),
    );
  });
  afterAll(async () => {
    await proxy?.close();
    if (home) rmSync(home, { recursive: true, force: true });
    await emptyInsights(testDb()); // generated modules: leave no trace for other suites
  });

  test.each(UNIVERSES.map((x, i) => [x.label, i] as const))('%s', async (_l, i) => {
    const { root } = UNIVERSES[i]!;
    await emptyInsights(testDb());
    const api = workerClient(insights, testEnv({ GO_PROXY_URL: proxy.url, OSV_API_URL: proxy.url }));
    const res = await api.get(`/v3/systems/go/packages/${encodeURIComponent(root)}/versions/v1.0.0:dependencies`);
    const body = (await res.json()) as any;
    const go = await goModGraph(proxy.url, root, 'v1.0.0', home);
    expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(200);
    const failed = body.error !== '' || body.nodes.some((n: any) => n.errors.length > 0);
    if (UNIVERSES[i]!.label.includes('missing')) expect(go.ok, 'go reads the missing go.mod').toBe(false);
    if (!go.ok) {
      const why = go.stderr.trim().split('\n').pop();
      expect(failed, `go failed (${why}); ours: ${JSON.stringify(body).slice(0, 300)}`).toBe(true);
      return;
    }
    expect(failed, JSON.stringify(body).slice(0, 500)).toBe(false);
    expect(graphSets(body)).toEqual({ nodes: go.nodes, edges: go.edges });
    if (go.listed) expect(go.nodes).toEqual(go.listed); // the selection is the build list `go list -m all` prints
    // served again from the cache, unchanged
    const again = await api.get(`/v3/systems/go/packages/${encodeURIComponent(root)}/versions/v1.0.0:dependencies`);
    expect(await again.json()).toEqual(body);
    // recomputed by a new isolate (an empty go.mod memory) from the stored modules alone (cache dropped):
    // the same graph, no request to the proxy
    await testDb().query("DELETE FROM insights.dependency_graphs WHERE system = 'GO'");
    const before = proxy.requests();
    const isolate = workerClient(insights, testEnv({ GO_PROXY_URL: proxy.url, OSV_API_URL: proxy.url }));
    const warm = await isolate.get(`/v3/systems/go/packages/${encodeURIComponent(root)}/versions/v1.0.0:dependencies`);
    expect(await warm.json()).toEqual(body);
    expect(proxy.requests() - before, 'proxy requests of the warm graph').toBe(0);
    // recomputed from the first isolate's memory of go.mod files: nothing stored is read (the store is
    // emptied), nothing is asked of the proxy, the same graph
    await emptyInsights(testDb());
    const memory = await api.get(`/v3/systems/go/packages/${encodeURIComponent(root)}/versions/v1.0.0:dependencies`);
    expect(memory.status).toBe(200);
    expect(await memory.json()).toEqual(body);
    expect(proxy.requests() - before, 'proxy requests of the graph from memory').toBe(0);
  });
});
