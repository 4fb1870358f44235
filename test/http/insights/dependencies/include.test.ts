/**
 * GetDependencies `?include=advisories,licenses` (beyond deps.dev, its #16, #134, #277): each node gains
 * its stored `licenses` and/or `advisoryKeys`, and `advisories` lists each advisory of the graph once as
 * GetAdvisory answers it; the graph itself is the same as without; without `include` nothing is added;
 * a bad `include` is a 400 before any work.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import insights from '../../../../functions/insights.ts';
import { testDb, testEnv, workerClient } from '../../../support/env.ts';
import { npmRoute, startRegistry, type RegistryServer } from '../../../../tools/registries/registry-server.ts';

/** incl-root -> incl-a -> incl-b, and incl-root -> incl-c, each with its own licence. */
const TREE: [string, string, Record<string, string>, string][] = [
  ['incl-root', '1.0.0', { 'incl-a': '^1.0.0', 'incl-c': '^3.0.0' }, 'MIT'],
  ['incl-a', '1.2.0', { 'incl-b': '^2.0.0' }, 'ISC'],
  ['incl-b', '2.0.1', {}, '(MIT OR Apache-2.0)'],
  ['incl-c', '3.0.0', {}, 'BSD-3-Clause'],
];
const packuments = Object.fromEntries(
  TREE.map(([name, version, dependencies, license]) => [
    name,
    {
      name,
      'dist-tags': { latest: version },
      time: { [version]: '2024-01-01T00:00:00.000Z' },
      versions: {
        [version]: { name, version, dependencies, license, dist: { tarball: `https://x.example/${name}.tgz` } },
      },
    },
  ]),
);

const PATH = '/v3/systems/npm/packages/incl-root/versions/1.0.0:dependencies';
let registry: RegistryServer;
let api: ReturnType<typeof workerClient>;
let plain: any;

async function json(path: string): Promise<any> {
  const res = await api.get(path);
  const body = await res.json();
  expect({ path, status: res.status }).toEqual({ path, status: 200 });
  return body;
}

beforeAll(async () => {
  const db = testDb();
  await db.query(`DELETE FROM insights.packages WHERE system = 'NPM' AND name LIKE 'incl-%'`);
  await db.query(`DELETE FROM insights.advisories WHERE id LIKE 'GHSA-incl-%'`);
  registry = await startRegistry((p) => (p.startsWith('/v1/') ? {} : npmRoute(packuments)(p)));
  api = workerClient(
    insights,
    testEnv({
      NPM_REGISTRY_URL: registry.url,
      OSV_API_URL: registry.url,
      INSIGHTS_NPM_TARBALLS: 'off',
      INSIGHTS_NPM_ATTESTATIONS: 'off',
    }),
  );
  plain = await json(PATH);
  expect(plain.nodes.map((n: any) => `${n.versionKey.name}@${n.versionKey.version}`).sort()).toEqual([
    'incl-a@1.2.0',
    'incl-b@2.0.1',
    'incl-c@3.0.0',
    'incl-root@1.0.0',
  ]);
  const adv = [
    ['GHSA-incl-0001', 'incl-b', '2.0.1'],
    ['GHSA-incl-0002', 'incl-b', '2.0.1'],
    ['GHSA-incl-0003', 'incl-c', '3.0.0'],
  ];
  for (const [id, name, version] of adv) {
    await db.query(
      `INSERT INTO insights.advisories (id, url, title, aliases, cvss3_score, cvss3_vector, osv)
      VALUES ($1, $2, $3, '["CVE-2099-0001"]', 7.5, '', '{}') ON CONFLICT DO NOTHING`,
      [id, `https://osv.dev/${id}`, `test ${id}`],
    );
    await db.query(
      `INSERT INTO insights.advisory_versions (advisory_id, system, name, version)
      VALUES ($1, 'NPM', $2, $3)`,
      [id, name, version],
    );
  }
});
afterAll(() => registry?.close());

const strip = (body: any) => ({
  ...body,
  nodes: body.nodes.map(({ licenses: _l, advisoryKeys: _a, ...n }: any) => n),
  advisories: undefined,
});

describe('GetDependencies ?include=', () => {
  it("advisories,licenses adds each node's licenses and advisoryKeys and the graph's advisories", async () => {
    const body = await json(`${PATH}?include=advisories,licenses`);
    expect(JSON.parse(JSON.stringify(strip(body)))).toEqual(plain);
    for (const n of body.nodes) {
      expect(Object.keys(n)).toEqual(['versionKey', 'bundled', 'relation', 'errors', 'licenses', 'advisoryKeys']);
    }
    const byName = Object.fromEntries(body.nodes.map((n: any) => [n.versionKey.name, n]));
    const own = await Promise.all(
      TREE.map(
        async ([name, version]) => (await json(`/v3/systems/npm/packages/${name}/versions/${version}`)).licenses,
      ),
    );
    expect(TREE.map(([name]) => byName[name].licenses)).toEqual(own); // as GetVersion answers each
    expect(own.slice(0, 2)).toEqual([['MIT'], ['ISC']]);
    expect(new Set(own.map((l) => JSON.stringify(l))).size).toBe(4);
    expect(TREE.map(([name]) => byName[name].advisoryKeys)).toEqual([
      [],
      [],
      [{ id: 'GHSA-incl-0001' }, { id: 'GHSA-incl-0002' }],
      [{ id: 'GHSA-incl-0003' }],
    ]);
    expect(body.advisories.map((a: any) => a.advisoryKey.id)).toEqual([
      'GHSA-incl-0001',
      'GHSA-incl-0002',
      'GHSA-incl-0003',
    ]);
    expect(body.advisories[0]).toEqual(await json('/v3/advisories/GHSA-incl-0001'));
    expect(Object.keys(body)).toEqual([...Object.keys(plain), 'advisories']);
  });

  it('each alone adds only its own fields', async () => {
    const lic = await json(`${PATH}?include=licenses`);
    expect(lic.advisories).toBeUndefined();
    expect(lic.nodes.every((n: any) => Array.isArray(n.licenses) && !('advisoryKeys' in n))).toBe(true);
    const adv = await json(`/v3alpha/systems/npm/packages/incl-root/versions/1.0.0:dependencies?include=advisories`);
    expect(adv.nodes.every((n: any) => Array.isArray(n.advisoryKeys) && !('licenses' in n))).toBe(true);
    expect(adv.advisories).toHaveLength(3);
  });

  it("without include the answer is deps.dev's graph, unchanged", async () => {
    const body = await json(PATH);
    expect(body).toEqual(plain);
    expect(body.nodes.some((n: any) => 'licenses' in n || 'advisoryKeys' in n)).toBe(false);
  });

  it.each(['include=vulns', 'include=', 'include=licenses,', 'include=licenses,licenses,advisories'])(
    'a bad %s is a 400',
    async (q) => {
      const res = await api.get(`${PATH}?${q}`);
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatch(/include/);
    },
  );
});
