/**
 * GetDependencies through the insights worker's fetch over rows written straight into the
 * insights tables (read-through off): npm/PyPI/Maven/Cargo graphs, deps.dev ordering and relations,
 * node errors, 404s, the cache (served again unchanged, dropped when a package changes).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import insights from '../../../../functions/insights.ts';
import { testDb, testEnv, workerClient } from '../../../support/env.ts';

const api = workerClient(insights, testEnv({ INSIGHTS_READ_THROUGH: 'off' }));
const db = testDb();

type Pkg = {
  system: string;
  name: string;
  tags?: Record<string, string>;
  versions: [string, Record<string, unknown>, unknown][];
};

async function put(p: Pkg) {
  await db.query(
    `INSERT INTO insights.packages (system, name, dist_tags) VALUES ($1, $2, $3::jsonb)
    ON CONFLICT (system, name) DO UPDATE SET dist_tags = EXCLUDED.dist_tags`,
    [p.system, p.name, JSON.stringify(p.tags ?? {})],
  );
  for (const [i, [v, meta, req]] of p.versions.entries()) {
    await db.query(
      `INSERT INTO insights.versions (system, name, version, upstream_version, ordinal, meta) VALUES ($1, $2, $3, $3, $4, $5::jsonb)
      ON CONFLICT (system, name, version) DO NOTHING`,
      [p.system, p.name, v, i, JSON.stringify(meta)],
    );
    await db.query(
      `INSERT INTO insights.requirements (system, name, version, requirements) VALUES ($1, $2, $3, $4::json)
      ON CONFLICT (system, name, version) DO NOTHING`,
      [p.system, p.name, v, JSON.stringify(req)],
    );
  }
}

const npmReq = (deps: Record<string, string>, extra: Record<string, unknown> = {}) => ({
  npm: {
    dependencies: {
      dependencies: Object.entries(deps).map(([name, requirement]) => ({ name, requirement })),
      ...extra,
    },
  },
});

beforeAll(async () => {
  await put({
    system: 'NPM',
    name: 'rz-app',
    versions: [['1.0.0', {}, npmReq({ 'rz-a': '^1.0.0', 'rz-b': '^1.0.0', 'rz-missing': '^9' })]],
  });
  await put({
    system: 'NPM',
    name: 'rz-a',
    versions: [
      ['1.0.0', {}, npmReq({ 'rz-c': '^1.0.0' })],
      ['1.1.0', {}, npmReq({ 'rz-c': '^2.0.0' })],
    ],
  });
  await put({
    system: 'NPM',
    name: 'rz-b',
    versions: [
      ['1.0.0', {}, npmReq({ 'rz-c': '^1.0.0' }, { optionalDependencies: [{ name: 'rz-mac', requirement: '*' }] })],
    ],
  });
  await put({
    system: 'NPM',
    name: 'rz-c',
    versions: [
      ['1.0.0', {}, npmReq({})],
      ['2.0.0', {}, npmReq({})],
    ],
  });
  await put({ system: 'NPM', name: 'rz-mac', versions: [['1.0.0', { os: ['darwin'] }, npmReq({})]] });
  await put({
    system: 'PYPI',
    name: 'rz-py',
    versions: [
      [
        '1.0.0',
        {},
        {
          pypi: {
            dependencies: [
              { projectName: 'RZ_Dep', extras: '', versionSpecifier: '>=1.0', environmentMarker: '' },
              { projectName: 'rz-win', extras: '', versionSpecifier: '', environmentMarker: 'sys_platform == "win32"' },
            ],
          },
        },
      ],
    ],
  });
  await put({
    system: 'PYPI',
    name: 'rz-dep',
    versions: [
      ['1.0.0', {}, { pypi: { dependencies: [] } }],
      ['2.0.0', { requiresPython: '>=3.8' }, { pypi: { dependencies: [] } }],
      ['2.5.0', { requiresPython: '>=3.13' }, { pypi: { dependencies: [] } }],
      ['3.0.0', { yanked: true }, { pypi: { dependencies: [] } }],
    ],
  });
  await put({
    system: 'MAVEN',
    name: 'rz:app',
    versions: [
      [
        '1',
        {},
        {
          maven: {
            dependencies: [
              { name: 'rz:lib', version: '1.0', scope: '' },
              { name: 'rz:test', version: '1.0', scope: 'test' },
            ],
          },
        },
      ],
    ],
  });
  await put({
    system: 'MAVEN',
    name: 'rz:lib',
    versions: [['1', {}, { maven: { dependencies: [{ name: 'rz:util', version: '[1.0,2.0)' }] } }]],
  });
  // versions are stored canonical (deps.dev spelling: Maven `1.0` -> `1`)
  await put({
    system: 'MAVEN',
    name: 'rz:util',
    versions: [
      ['1', {}, { maven: {} }],
      ['1.5', {}, { maven: {} }],
      ['2', {}, { maven: {} }],
    ],
  });
  await put({ system: 'MAVEN', name: 'rz:test', versions: [['1', {}, { maven: {} }]] });
  // Cargo rows as the crates sparse-index adapter stores them (src/insights/ingest/cargo.ts)
  const dep = (name: string, requirement: string, more: Record<string, unknown> = {}) => ({
    name,
    requirement,
    kind: 'normal',
    optional: false,
    packageAlias: '',
    usesDefaultFeatures: true,
    features: [],
    target: '',
    ...more,
  });
  await put({
    system: 'CARGO',
    name: 'rz-crate',
    versions: [
      [
        '1.0.0',
        { yanked: false },
        {
          cargo: {
            dependencies: [
              dep('rz-build', '^1', { kind: 'build' }),
              dep('rz-dev', '^1', { kind: 'dev' }),
              dep('rz-opt', '^1', { optional: true }),
              dep('rz-serde', '^1', { packageAlias: 'serde1', usesDefaultFeatures: false }),
              dep('rz-win', '^1', { target: 'cfg(windows)' }),
            ],
            features: [{ name: 'default', implies: ['serde1/derive'] }],
          },
        },
      ],
    ],
  });
  for (const n of ['rz-build', 'rz-dev', 'rz-opt', 'rz-win', 'rz-derive']) {
    await put({
      system: 'CARGO',
      name: n,
      versions: [['1.0.0', { yanked: false }, { cargo: { dependencies: [], features: [] } }]],
    });
  }
  await put({
    system: 'CARGO',
    name: 'rz-serde',
    versions: [
      [
        '1.0.0',
        { yanked: false },
        {
          cargo: {
            dependencies: [dep('rz-derive', '^1', { optional: true })],
            features: [{ name: 'derive', implies: ['dep:rz-derive'] }],
          },
        },
      ],
      ['1.1.0', { yanked: true }, { cargo: { dependencies: [], features: [{ name: 'derive', implies: [] }] } }],
    ],
  });
  await db.query('DELETE FROM insights.dependency_graphs WHERE name LIKE $1', ['rz%']);
});

const vk = (system: string, name: string, version: string) => ({ system, name, version });

describe('GetDependencies', () => {
  it('npm: hoisting, nesting on conflict, optional os mismatch dropped, unresolvable requirement', async () => {
    const res = await api.get('/v3/systems/npm/packages/rz-app/versions/1.0.0:dependencies');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      nodes: [
        {
          versionKey: vk('NPM', 'rz-app', '1.0.0'),
          bundled: false,
          relation: 'SELF',
          errors: ['could not find a version that satisfies requirement ^9 for package rz-missing'],
        },
        { versionKey: vk('NPM', 'rz-a', '1.1.0'), bundled: false, relation: 'DIRECT', errors: [] },
        { versionKey: vk('NPM', 'rz-b', '1.0.0'), bundled: false, relation: 'DIRECT', errors: [] },
        { versionKey: vk('NPM', 'rz-c', '1.0.0'), bundled: false, relation: 'INDIRECT', errors: [] },
        { versionKey: vk('NPM', 'rz-c', '2.0.0'), bundled: false, relation: 'INDIRECT', errors: [] },
      ],
      edges: [
        { fromNode: 0, toNode: 1, requirement: '^1.0.0' },
        { fromNode: 0, toNode: 2, requirement: '^1.0.0' },
        { fromNode: 1, toNode: 4, requirement: '^2.0.0' },
        { fromNode: 2, toNode: 3, requirement: '^1.0.0' },
      ],
      error: '',
    });
  });

  it('pypi: markers, normalised names, yanked and Requires-Python-excluded (CPython 3.12) versions skipped', async () => {
    const body = await (await api.get('/v3/systems/pypi/packages/rz-py/versions/1.0.0:dependencies')).json();
    expect(body).toEqual({
      nodes: [
        { versionKey: vk('PYPI', 'rz-py', '1.0.0'), bundled: false, relation: 'SELF', errors: [] },
        { versionKey: vk('PYPI', 'rz-dep', '2.0.0'), bundled: false, relation: 'DIRECT', errors: [] },
      ],
      edges: [{ fromNode: 0, toNode: 1, requirement: '>=1.0' }],
      error: '',
    });
  });

  it('maven: ranges pick the highest listed version in range', async () => {
    const body = await (await api.get('/v3/systems/maven/packages/rz%3Aapp/versions/1.0:dependencies')).json();
    expect(body.nodes.map((n: any) => `${n.versionKey.name}@${n.versionKey.version} ${n.relation}`)).toEqual([
      'rz:app@1 SELF',
      'rz:lib@1 DIRECT',
      'rz:test@1 DIRECT',
      'rz:util@1.5 INDIRECT',
    ]);
    expect(body.edges).toEqual([
      { fromNode: 0, toNode: 1, requirement: '1.0' },
      { fromNode: 0, toNode: 2, requirement: '1.0' },
      { fromNode: 1, toNode: 3, requirement: '[1.0,2.0)' },
    ]);
  });

  it('cargo: build deps kept, dev/optional/windows dropped, rename shown as the real crate, features enable an optional dep, yanked skipped', async () => {
    const body = await (await api.get('/v3/systems/cargo/packages/rz-crate/versions/1.0.0:dependencies')).json();
    expect(body).toEqual({
      nodes: [
        { versionKey: vk('CARGO', 'rz-crate', '1.0.0'), bundled: false, relation: 'SELF', errors: [] },
        { versionKey: vk('CARGO', 'rz-build', '1.0.0'), bundled: false, relation: 'DIRECT', errors: [] },
        { versionKey: vk('CARGO', 'rz-derive', '1.0.0'), bundled: false, relation: 'INDIRECT', errors: [] },
        { versionKey: vk('CARGO', 'rz-serde', '1.0.0'), bundled: false, relation: 'DIRECT', errors: [] },
      ],
      edges: [
        { fromNode: 0, toNode: 1, requirement: '^1' },
        { fromNode: 0, toNode: 3, requirement: '^1' },
        { fromNode: 3, toNode: 2, requirement: '^1' },
      ],
      error: '',
    });
  });

  it('serves the cached graph, and recomputes after the data changes', async () => {
    const path = '/v3/systems/npm/packages/rz-app/versions/1.0.0:dependencies';
    const first = await (await api.get(path)).text();
    const rows = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM insights.dependency_graphs WHERE system = 'NPM' AND name = 'rz-app'",
    );
    expect(rows[0]!.n).toBe(1);
    expect(await (await api.get(path)).text()).toBe(first);
    await put({ system: 'NPM', name: 'rz-b', versions: [['1.2.0', {}, npmReq({ 'rz-c': '^2.0.0' })]] });
    const after = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM insights.dependency_graphs WHERE system = 'NPM' AND name = 'rz-app'",
    );
    expect(after[0]!.n).toBe(0);
    const body = await (await api.get(path)).json();
    expect(body.nodes.map((n: any) => `${n.versionKey.name}@${n.versionKey.version}`)).toEqual([
      'rz-app@1.0.0',
      'rz-a@1.1.0',
      'rz-b@1.2.0',
      'rz-c@2.0.0',
    ]);
  });

  it.each([
    ['/v3/systems/go/packages/example.com%2Frz-x/versions/v1.0.0:dependencies', 404],
    ['/v3/systems/nuget/packages/rz-x/versions/1.0.0:dependencies', 404],
    ['/v3/systems/rubygems/packages/rz-x/versions/1.0.0:dependencies', 404],
    ['/v3/systems/npm/packages/rz-app/versions/9.9.9:dependencies', 404],
    ['/v3/systems/npm/packages/rz-nope/versions/1.0.0:dependencies', 404],
  ])('%s -> %i in the insights envelope', async (path, status) => {
    const res = await api.get(path);
    expect(res.status).toBe(status);
    expect(typeof (await res.json()).error).toBe('string');
  });
});
