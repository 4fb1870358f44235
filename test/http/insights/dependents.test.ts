/**
 * GetDependents (`/v3alpha/...versions/{v}:dependents`) over a small stored universe: direct dependents
 * from requirements rows whose requirement the version satisfies, direct and indirect ones from stored
 * graphs (which override the rows of their root), dev dependencies and the package itself never counted,
 * counts per distinct package; the paged `?list=true` extension; unknown versions, v3 and bad queries.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, json, useFixtureUpstream } from '../../fixtures/insights/harness.ts';
import { testDb } from '../../support/env.ts';

useFixtureUpstream();

const T = 'dpt-target';
const npm = (deps: [string, string][], dev: [string, string][] = [], peer: [string, string][] = []) =>
  JSON.stringify({
    npm: {
      dependencies: {
        dependencies: deps.map(([name, requirement]) => ({ name, requirement })),
        devDependencies: dev.map(([name, requirement]) => ({ name, requirement })),
        optionalDependencies: [],
        peerDependencies: peer.map(([name, requirement]) => ({ name, requirement })),
        bundleDependencies: [],
        peerDependencyMetadata: [],
      },
      bundled: [],
      os: [],
      cpu: [],
    },
  });
const node = (name: string, version: string, relation: string) => ({
  versionKey: { system: 'NPM', name, version },
  bundled: false,
  relation,
  errors: [],
});

beforeAll(async () => {
  const db = testDb();
  await db.query(`DELETE FROM insights.packages WHERE system = 'NPM' AND name LIKE 'dpt-%'`);
  const versions: [string, string, number][] = [
    [T, '1.0.0', 0],
    [T, '1.5.0', 1],
    [T, '2.0.0', 2],
    ['dpt-a', '1.0.0', 0],
    ['dpt-a', '2.0.0', 1],
    ['dpt-b', '1.0.0', 0],
    ['dpt-c', '1.0.0', 0],
    ['dpt-d', '1.0.0', 0],
    ['dpt-e', '1.0.0', 0],
    ['dpt-f', '1.0.0', 0],
    ['dpt-f', '1.1.0', 1],
  ];
  for (const name of new Set(versions.map((v) => v[0]))) {
    await db.query(`INSERT INTO insights.packages (system, name) VALUES ('NPM', $1)`, [name]);
  }
  for (const [name, version, ordinal] of versions) {
    await db.query(
      `INSERT INTO insights.versions (system, name, version, upstream_version, ordinal)
      VALUES ('NPM', $1, $2, $2, $3)`,
      [name, version, ordinal],
    );
  }
  const reqs: [string, string, string][] = [
    [T, '2.0.0', npm([[T, '^1.0.0']])], // the package itself: never its own dependent
    ['dpt-a', '1.0.0', npm([[T, '^1.0.0']])], // direct, from the row
    ['dpt-a', '2.0.0', npm([[T, '^2.0.0']])], // does not take 1.0.0
    ['dpt-b', '1.0.0', npm([], [[T, '*']])], // dev dependency only
    ['dpt-c', '1.0.0', npm([['dpt-a', '1.0.0']])], // indirect, through its stored graph
    ['dpt-d', '1.0.0', npm([[T, '1.0.0']])], // direct, per its graph
    ['dpt-e', '1.0.0', npm([[T, '^1.0.0']])], // its graph resolved 1.5.0: not a dependent of 1.0.0
    ['dpt-f', '1.0.0', npm([[T, '>=1.0.0 <1.5.0']], [], [[T, '1.x']])], // declared twice, counted once
    ['dpt-f', '1.1.0', npm([['dpt-a', '^1.0.0']], [], [[T, '1.x']])], // a peer dependency
  ];
  for (const [name, version, r] of reqs) {
    await db.query(
      `INSERT INTO insights.requirements (system, name, version, requirements)
      VALUES ('NPM', $1, $2, $3::json)`,
      [name, version, r],
    );
  }
  const graphs: [string, string[], unknown[]][] = [
    [
      'dpt-c',
      ['dpt-c', 'dpt-a', T],
      [node('dpt-c', '1.0.0', 'SELF'), node('dpt-a', '1.0.0', 'DIRECT'), node(T, '1.0.0', 'INDIRECT')],
    ],
    ['dpt-d', ['dpt-d', T], [node('dpt-d', '1.0.0', 'SELF'), node(T, '1.0.0', 'DIRECT')]],
    ['dpt-e', ['dpt-e', T], [node('dpt-e', '1.0.0', 'SELF'), node(T, '1.5.0', 'DIRECT')]],
  ];
  for (const [name, packages, nodes] of graphs) {
    await db.query(
      `INSERT INTO insights.dependency_graphs (system, name, version, packages, body)
      VALUES ('NPM', $1, '1.0.0', $2, $3::json)`,
      [name, packages, JSON.stringify({ nodes, edges: [], error: '' })],
    );
  }
});

describe('GetDependents', () => {
  it('counts distinct dependent packages over stored requirements and graphs, deps.dev fields only', async () => {
    const body = await json(`/v3alpha/systems/npm/packages/${T}/versions/1.0.0:dependents`);
    // direct: dpt-a (row), dpt-d (graph), dpt-f (rows, both versions); indirect: dpt-c (graph)
    expect(body).toEqual({ dependentCount: 4, directDependentCount: 3, indirectDependentCount: 1 });
    expect(Object.keys(body)).toEqual(['dependentCount', 'directDependentCount', 'indirectDependentCount']);
  });
  it('another version of the same package has its own dependents', async () => {
    expect(await json(`/v3alpha/systems/NPM/packages/${T}/versions/2.0.0:dependents`)).toEqual({
      dependentCount: 1,
      directDependentCount: 1,
      indirectDependentCount: 0,
    });
    // dpt-a@1.0.0 (^1.0.0), dpt-e (its graph), dpt-f (its peer range 1.x, though its dependencies range is not)
    expect(await json(`/v3alpha/systems/npm/packages/${T}/versions/1.5.0:dependents`)).toEqual({
      dependentCount: 3,
      directDependentCount: 3,
      indirectDependentCount: 0,
    });
  });
  it('a version nothing stored depends on answers zeros', async () => {
    expect(await json('/v3alpha/systems/npm/packages/dpt-b/versions/1.0.0:dependents')).toEqual({
      dependentCount: 0,
      directDependentCount: 0,
      indirectDependentCount: 0,
    });
  });
  it('?list=true (beyond deps.dev) lists dependent versions by name and version order, paged', async () => {
    const path = `/v3alpha/systems/npm/packages/${T}/versions/1.0.0:dependents?list=true`;
    const all = await json(path);
    expect(all.dependents.map((d: any) => `${d.versionKey.name}@${d.versionKey.version} ${d.relation}`)).toEqual([
      'dpt-a@1.0.0 DIRECT',
      'dpt-c@1.0.0 INDIRECT',
      'dpt-d@1.0.0 DIRECT',
      'dpt-f@1.0.0 DIRECT',
      'dpt-f@1.1.0 DIRECT',
    ]);
    expect(all.nextPageToken).toBe('');
    expect(all.dependentCount).toBe(4);
    const seen: string[] = [];
    let token = '';
    let pages = 0;
    do {
      const page = await json(`${path}&pageSize=2${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`);
      expect(page.dependentCount).toBe(4);
      seen.push(...page.dependents.map((d: any) => `${d.versionKey.name}@${d.versionKey.version}`));
      token = page.nextPageToken;
      pages++;
    } while (token);
    expect([pages, seen]).toEqual([3, all.dependents.map((d: any) => `${d.versionKey.name}@${d.versionKey.version}`)]);
  });
  it.each([
    ['?list=true&pageToken=%21%21', 'invalid pageToken'],
    [`?list=true&pageToken=${btoa('5')}`, 'invalid pageToken'],
    [`?list=true&pageToken=${btoa('x')}`, 'invalid pageToken'],
    ['?list=true&pageSize=0', null],
    ['?list=true&pageSize=1001', null],
    ['?list=yes', null],
  ])('%s -> 400', async (query, message) => {
    const res = await api.get(`/v3alpha/systems/npm/packages/${T}/versions/1.0.0:dependents${query}`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string };
    expect(Object.keys(body)).toEqual(['error']);
    if (message) expect(body.error).toBe(message);
  });
  it.each([
    [`/v3alpha/systems/npm/packages/${T}/versions/9.9.9:dependents`, 404, /version NPM dpt-target@9.9.9 not found/],
    ['/v3alpha/systems/npm/packages/dpt-none/versions/1.0.0:dependents', 404, /not found/],
    [
      `/v3/systems/npm/packages/${T}/versions/1.0.0:dependents`,
      404,
      /no such method ":dependents" on a version \(this service serves :requirements, :dependencies under \/v3/,
    ],
    [`/v3alpha/systems/npm/packages/${T}/versions/1.0.0:dependentz`, 404, /no such method ":dependentz"/],
    ['/v3alpha/systems/cobol/packages/x/versions/1:dependents', 400, /invalid system/],
  ])('%s -> %i', async (path, status, message) => {
    const res = await api.get(path);
    expect(res.status).toBe(status);
    expect(((await res.json()) as { error: string }).error).toMatch(message);
  });
  it('finds declaring rows through the requirement-names index, not a scan (5,000 generated rows)', async () => {
    const db = testDb();
    await db.query(`INSERT INTO insights.packages (system, name)
      SELECT 'NPM', 'dpt-gen-' || i FROM generate_series(1, 5000) i`);
    await db.query(`INSERT INTO insights.versions (system, name, version, upstream_version, ordinal)
      SELECT 'NPM', 'dpt-gen-' || i, '1.0.0', '1.0.0', 0 FROM generate_series(1, 5000) i`);
    await db.query(`INSERT INTO insights.requirements (system, name, version, requirements)
      SELECT 'NPM', 'dpt-gen-' || i, '1.0.0', json_build_object('npm', json_build_object(
        'dependencies', json_build_object(
        'dependencies', json_build_array(json_build_object('name', 'dpt-lib-' || (i % 500), 'requirement', '^1.0.0')))))
      FROM generate_series(1, 5000) i`);
    await db.query('ANALYZE insights.requirements');
    const plan = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN SELECT r.name FROM insights.requirements r
      WHERE r.system = 'NPM' AND insights.requirement_names(r.system, r.requirements) @> ARRAY['dpt-lib-7']`);
    expect(plan.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/Bitmap Index Scan on requirements_names/);
    expect(await json('/v3alpha/systems/npm/packages/dpt-gen-1/versions/1.0.0:dependents')).toEqual({
      dependentCount: 0,
      directDependentCount: 0,
      indirectDependentCount: 0,
    });
    await db.query(`DELETE FROM insights.packages WHERE system = 'NPM' AND name LIKE 'dpt-gen-%'`);
  });
  it('the requirement edges of each layout: runtime dependencies only, names canonical', async () => {
    const rows = await testDb().query<{ dep: string; requirement: string }>(
      `SELECT dep, requirement
      FROM insights.requirement_edges($1, $2::json) ORDER BY dep`,
      [
        'PYPI',
        JSON.stringify({
          pypi: {
            dependencies: [
              { projectName: 'Zope.Interface', extras: '', versionSpecifier: '>=5', environmentMarker: '' },
              { projectName: 'bcrypt', extras: '', versionSpecifier: '', environmentMarker: "extra == 'bcrypt'" },
            ],
          },
        }),
      ],
    );
    expect(rows).toEqual([{ dep: 'zope-interface', requirement: '>=5' }]);
    const cargo = await testDb().query<{ dep: string }>(
      `SELECT dep FROM insights.requirement_edges('CARGO', $1::json)`,
      [
        JSON.stringify({
          cargo: {
            dependencies: [
              { name: 'libc', requirement: '0.2', kind: 'normal' },
              { name: 'tempdir', requirement: '0.3', kind: 'dev' },
            ],
          },
        }),
      ],
    );
    expect(cargo).toEqual([{ dep: 'libc' }]);
    // a member that is not a list (a foreign or malformed row) reads as no dependency, never an error
    const odd = await testDb().query(`SELECT * FROM insights.requirement_edges('NPM', $1::json)`, [
      JSON.stringify({ npm: { dependencies: { dependencies: { lodash: '^4' }, peerDependencies: 'x' } } }),
    ]);
    expect(odd).toEqual([]);
  });
});
