/**
 * NuGet graphs through the endpoint on a cold service: packages read through a loopback NuGet v3 feed
 * (service index, registration indexes with inline pages), resolved for the default target (net8.0) and
 * for RESOLVE_NUGET_FRAMEWORK, then served from the cache. The .NET SDK cannot be installed here, so the
 * expected graph is written by hand from NuGet's documented rules (test/unit/resolve/nuget.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import insights from '../../../../functions/insights.ts';
import { testDb, testEnv, workerClient } from '../../../support/env.ts';
import { emptyInsights, graphSets } from '../../../../tools/universes/graphs.ts';
import { startRegistry, type RegistryServer } from '../../../../tools/registries/registry-server.ts';

type Groups = Record<string, [string, string][]>; // framework -> dependencies
const FEED: Record<string, Record<string, Groups>> = {
  'Contoso.App': {
    '1.0.0': {
      'net8.0': [
        ['Contoso.Http', '[1.0.0, )'],
        ['Contoso.Json', '2.0.0'],
      ],
      '.NETStandard2.0': [['Contoso.Legacy', '1.0.0']],
    },
  },
  'Contoso.Http': { '1.0.0': { '.NETStandard2.0': [['Contoso.Json', '[1.0.0, )']] }, '1.5.0': {} },
  'Contoso.Json': { '1.0.0': {}, '2.0.0': {}, '2.1.0': {} },
  'Contoso.Legacy': { '1.0.0': {} },
};

let feed: RegistryServer;

function registration(base: string, id: string): object | undefined {
  const name = Object.keys(FEED).find((n) => n.toLowerCase() === id);
  if (!name) return undefined;
  const items = Object.entries(FEED[name]!).map(([version, groups]) => ({
    catalogEntry: {
      id: name,
      version,
      published: '2024-01-01T00:00:00Z',
      listed: true,
      dependencyGroups: Object.entries(groups).map(([targetFramework, deps]) => ({
        targetFramework,
        dependencies: deps.map(([d, range]) => ({ id: d, range })),
      })),
    },
  }));
  return { items: [{ '@id': `${base}/reg/${id}/index.json#page`, items }] };
}

describe('nuget graphs through the endpoint', () => {
  beforeAll(async () => {
    feed = await startRegistry((p) => {
      if (p === '/index.json')
        return { resources: [{ '@id': `${feed.url}/reg/`, '@type': 'RegistrationsBaseUrl/3.6.0' }] };
      const m = /^\/reg\/([^/]+)\/index\.json$/.exec(p);
      return m ? registration(feed.url, m[1]!) : undefined;
    });
  });
  afterAll(async () => {
    await feed?.close();
    await emptyInsights(testDb());
  });

  it('reads the packages through, resolves for net8.0 and serves the cached graph', async () => {
    await emptyInsights(testDb());
    const api = workerClient(insights, testEnv({ NUGET_INDEX_URL: `${feed.url}/index.json`, OSV_API_URL: feed.url }));
    const res = await api.get('/v3/systems/nuget/packages/Contoso.App/versions/1.0.0:dependencies');
    const body = (await res.json()) as any;
    expect(res.status, JSON.stringify(body)).toBe(200);
    // Http 1.0.0 (lowest applicable) has only a netstandard2.0 group; its Json >= 1.0.0 is eclipsed by the app's Json 2.0.0
    expect(graphSets(body)).toEqual({
      nodes: ['contoso.app@1.0.0', 'contoso.http@1.0.0', 'contoso.json@2.0.0'],
      edges: [
        'contoso.app@1.0.0 -> contoso.http@1.0.0',
        'contoso.app@1.0.0 -> contoso.json@2.0.0',
        'contoso.http@1.0.0 -> contoso.json@2.0.0',
      ],
    });
    expect(body.error).toBe('');
    const rows = await testDb().query<{ n: number }>(
      "SELECT count(*)::int AS n FROM insights.dependency_graphs WHERE system = 'NUGET' AND name = 'contoso.app'",
    );
    expect(rows[0]!.n).toBe(1);
    const hits = feed.requests();
    expect(await (await api.get('/v3/systems/nuget/packages/contoso.app/versions/1.0.0:dependencies')).json()).toEqual(
      body,
    );
    expect(feed.requests()).toBe(hits);
  });

  it('RESOLVE_NUGET_FRAMEWORK picks another dependency group (netstandard2.0 for netcoreapp3.1)', async () => {
    const api = workerClient(
      insights,
      testEnv({
        NUGET_INDEX_URL: `${feed.url}/index.json`,
        OSV_API_URL: feed.url,
        RESOLVE_NUGET_FRAMEWORK: 'netcoreapp3.1',
      }),
    );
    const body = (await (
      await api.get('/v3/systems/nuget/packages/contoso.app/versions/1.0.0:dependencies')
    ).json()) as any;
    expect(graphSets(body).nodes).toEqual(['contoso.app@1.0.0', 'contoso.legacy@1.0.0']);
  });
});
