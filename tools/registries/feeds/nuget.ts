/**
 * NuGet: the service index (`/index.json` naming `RegistrationsBaseUrl/3.6.0`), registration indexes
 * (`/reg/<id>/index.json`, one inline page; 404 when no version is left) and the catalog
 * (`/catalog/index.json`: pages with their newest `commitTimeStamp`; `/catalog/page<N>.json`: leaves
 * `{@type: nuget:PackageDetails | nuget:PackageDelete, nuget:id, nuget:version, commitTimeStamp}`, three per
 * page). Ids keep their case in the catalog; the registration is by lower-cased id.
 */
import { json, startFake } from '../../../test/support/fakes/http-fake.ts';
import { addVersion, type FeedRegistry, type Store } from './types.ts';

type Leaf = { '@type': string; 'nuget:id': string; 'nuget:version': string; commitTimeStamp: string };
const PER_PAGE = 3;

export async function startNugetFeed(): Promise<FeedRegistry> {
  const store: Store = new Map(); // by lower-cased id
  const leaves: Leaf[] = [];
  const failing = new Set<string>();
  let last = Date.parse('2024-01-01T00:00:00Z');
  const stamp = () => {
    last = Math.max(Date.now(), last + 1);
    return new Date(last).toISOString().replace('Z', '1234Z'); // 7 fraction digits, as the catalog writes
  };
  const append = (type: string, id: string, version: string) =>
    leaves.push({ '@type': type, 'nuget:id': id, 'nuget:version': version, commitTimeStamp: stamp() });
  const pages = () => {
    const out: Leaf[][] = [];
    for (let i = 0; i < leaves.length; i += PER_PAGE) out.push(leaves.slice(i, i + PER_PAGE));
    return out;
  };
  const fake = await startFake((req) => {
    if (req.method === 'POST' && req.path === '/v1/query') return json(200, {});
    if (req.path === '/index.json')
      return json(200, {
        version: '3.0.0',
        resources: [{ '@id': `${fake.url}/reg/`, '@type': 'RegistrationsBaseUrl/3.6.0' }],
      });
    if (req.path === '/catalog/index.json') {
      const ps = pages();
      return json(200, {
        commitTimeStamp: leaves.at(-1)?.commitTimeStamp ?? '2024-01-01T00:00:00Z',
        items: ps.map((p, i) => ({
          '@id': `${fake.url}/catalog/page${i}.json`,
          commitTimeStamp: p.at(-1)!.commitTimeStamp,
        })),
      });
    }
    const page = /^\/catalog\/page(\d+)\.json$/.exec(req.path);
    if (page) return json(200, { items: pages()[Number(page[1])] ?? [] });
    const id = /^\/reg\/([^/]+)\/index\.json$/.exec(req.path)?.[1];
    const versions = id ? store.get(id) : undefined;
    if (!id || !versions || versions.size === 0) return json(404, { error: 'not found' });
    if (failing.has(id)) return json(500, { error: 'error' });
    const items = [...versions].map(([version, v]) => ({
      catalogEntry: { id, version, published: v.time, listed: true, dependencyGroups: [] },
    }));
    return json(200, { count: 1, items: [{ count: items.length, items }] });
  });
  return {
    registry: 'nuget',
    system: 'NUGET',
    fake,
    env: {
      NUGET_INDEX_URL: `${fake.url}/index.json`,
      NUGET_CATALOG_URL: `${fake.url}/catalog/index.json`,
      OSV_API_URL: fake.url,
    },
    failing,
    publish(name, version, deps) {
      addVersion(store, name.toLowerCase(), version, deps);
      append('nuget:PackageDetails', name, version);
    },
    remove(name) {
      for (const v of store.get(name.toLowerCase())?.keys() ?? []) append('nuget:PackageDelete', name, v);
      store.delete(name.toLowerCase());
    },
    touch(name) {
      append('nuget:PackageDetails', name, [...(store.get(name.toLowerCase())?.keys() ?? [])].at(-1) ?? '0.0.0');
    },
    close: () => fake.close(),
  };
}
