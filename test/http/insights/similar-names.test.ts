/**
 * GetSimilarlyNamedPackages (`/v3alpha/systems/{s}/packages/{p}:similarlyNamedPackages`): separator, case
 * and homoglyph variants first, then names one edit away, nothing further, nothing from another system;
 * the request's canonical name; unknown packages and suffixes; the plan over a generated set of names.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, json, useFixtureUpstream } from '../../fixtures/insights/harness.ts';
import { osaDistance, similarlyNamed } from '../../../src/insights/similar-names.ts';
import { testDb } from '../../support/env.ts';

useFixtureUpstream();

const NAMES: [string, string][] = [
  ['NPM', 'snpcolors'],
  ['NPM', 'snp-colors'],
  ['NPM', 'snpco1ors'],
  ['NPM', 'SNPColors'],
  ['NPM', 'snpc\u043elors'],
  ['NPM', 'snpcolor'],
  ['NPM', 'snpcolorss'],
  ['NPM', 'snpcolprs'],
  ['NPM', 'snpcloors'],
  ['NPM', 'snpcolorsxx'],
  ['NPM', 'xsnpcolor'],
  ['NPM', 'snp'],
  ['CARGO', 'snpcolors'],
  ['CARGO', 'snp_colors'],
  ['NPM', 'snpmodule'],
  ['NPM', 'snprnodule'],
  ['PYPI', 'snp-req'],
  ['PYPI', 'snp-reqs'],
  ['MAVEN', 'org.snp:snp-core'],
  ['MAVEN', 'org.snp:snpcore'],
];

beforeAll(async () => {
  const db = testDb();
  await db.query(`DELETE FROM insights.packages WHERE name ILIKE '%snp%'`);
  for (const [system, name] of NAMES) {
    await db.query('INSERT INTO insights.packages (system, name) VALUES ($1, $2)', [system, name]);
    await db.query(
      `INSERT INTO insights.versions (system, name, version, upstream_version, ordinal)
      VALUES ($1, $2, '1.0.0', '1.0.0', 0)`,
      [system, name],
    );
  }
});

const similar = async (path: string) =>
  (await json(path)).packages.map((p: any) => `${p.packageKey.system} ${p.packageKey.name}`);

describe('GetSimilarlyNamedPackages', () => {
  it('ranks collisions (separator, case, homoglyph) before one-edit names, drops the rest', async () => {
    const body = await json('/v3alpha/systems/npm/packages/snpcolors:similarlyNamedPackages');
    expect(Object.keys(body)).toEqual(['packageKey', 'packages']);
    expect(body.packageKey).toEqual({ system: 'NPM', name: 'snpcolors' });
    expect(body.packages.map((p: any) => p.packageKey.name)).toEqual([
      'SNPColors',
      'snp-colors',
      'snpco1ors',
      'snpc\u043elors', // same skeleton; by spelled distance, then bytes
      'snpcloors',
      'snpcolor',
      'snpcolorss',
      'snpcolprs', // one edit (transposition, deletion, insertion, substitution)
    ]);
    expect(body.packages[0]).toEqual({ packageKey: { system: 'NPM', name: 'SNPColors' } });
  });
  it('rn reads as m; other systems answer their own names only', async () => {
    expect(await similar('/v3alpha/systems/npm/packages/snpmodule:similarlyNamedPackages')).toEqual(['NPM snprnodule']);
    expect(await similar('/v3alpha/systems/CARGO/packages/snpcolors:similarlyNamedPackages')).toEqual([
      'CARGO snp_colors',
    ]);
  });
  it('canonicalises the requested name (PyPI PEP 503) and reads a Maven name with its colon', async () => {
    const body = await json('/v3alpha/systems/pypi/packages/SNP_Req:similarlyNamedPackages');
    expect(body.packageKey).toEqual({ system: 'PYPI', name: 'snp-req' });
    expect(body.packages).toEqual([{ packageKey: { system: 'PYPI', name: 'snp-reqs' } }]);
    expect(await similar('/v3alpha/systems/maven/packages/org.snp%3Asnpcore%3AsimilarlyNamedPackages')).toEqual([
      'MAVEN org.snp:snp-core',
    ]);
  });
  it('a short name matches its collisions only, not every name one letter away', async () => {
    expect(await similar('/v3alpha/systems/npm/packages/snp:similarlyNamedPackages')).toEqual([]);
  });
  it.each([
    ['/v3alpha/systems/npm/packages/snp-unknown-name:similarlyNamedPackages', 404, /not found/],
    [
      '/v3/systems/npm/packages/snpcolors:similarlyNamedPackages',
      404,
      /no such method ":similarlyNamedPackages" on a package/,
    ],
    ['/v3alpha/systems/npm/packages/snpcolors:similarNames', 404, /no such method ":similarNames" on a package/],
    ['/v3alpha/systems/cobol/packages/snpcolors:similarlyNamedPackages', 400, /invalid system/],
    // one colon: a Maven name (group snpcore, artifact similarlyNamedPackages), not a method
    [
      '/v3alpha/systems/maven/packages/snpcore%3AsimilarlyNamedPackages',
      404,
      /package MAVEN snpcore:similarlyNamedPackages not found/,
    ],
    ['/v3alpha/systems/maven/packages/snpcore:similarlyNamedPackages:similarlyNamedPackages', 404, /not found/],
  ])('%s -> %i', async (path, status, message) => {
    const res = await api.get(path);
    expect(res.status).toBe(status);
    expect(((await res.json()) as { error: string }).error).toMatch(message);
  });
  it('optimal string alignment distance', () => {
    const pairs = [
      ['lodash', 'lodash'],
      ['lodash', 'lodahs'],
      ['lodash', 'lodas'],
      ['lodash', 'l0dash'],
      ['xab', 'abx'],
      ['', 'ab'],
    ];
    expect(pairs.map(([a, b]) => osaDistance(a!, b!))).toEqual([0, 1, 1, 1, 2, 2]);
  });
});

describe('GetSimilarlyNamedPackages over a generated set', () => {
  const N = Number(process.env.SIMILAR_NAMES_N ?? 10_000);
  it(`probes the name-key btree over ${N} generated names (EXPLAIN), no scan`, async () => {
    const db = testDb();
    await db.query(`DELETE FROM insights.packages WHERE system = 'RUBYGEMS' AND name LIKE 'snpgen%'`);
    const t0 = Date.now();
    await db.query(
      `INSERT INTO insights.packages (system, name)
      SELECT 'RUBYGEMS', 'snpgen' || substr(md5(i::text), 1, 8) FROM generate_series(1, $1) i`,
      [N],
    );
    const loadMs = Date.now() - t0;
    await db.query('ANALYZE insights.package_name_keys');
    const name = `snpgen${(await db.query<{ h: string }>(`SELECT substr(md5('7'), 1, 8) AS h`))[0]!.h}`;
    let stmt: { sql: string; params: readonly unknown[] } | undefined; // the route's own statement
    const capture = {
      query: async (sql: string, params: readonly unknown[] = []) => {
        stmt = { sql, params };
        return [];
      },
    };
    await similarlyNamed(capture as never, 'RUBYGEMS', name);
    const plan = (await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ANALYZE ${stmt!.sql}`, stmt!.params))
      .map((r) => r['QUERY PLAN'])
      .join('\n');
    console.log(`similar names: ${N} names loaded in ${loadMs} ms; plan:\n${plan}`);
    expect(plan).toMatch(/Index (Only )?Scan using package_name_keys_pkey/);
    expect(plan).not.toMatch(/Seq Scan on package_name_keys/);
    const typo = `${name.slice(0, 7)}${name[8]}${name[7]}${name.slice(9)}`; // two characters swapped
    await db.query(
      `INSERT INTO insights.packages (system, name) VALUES ('RUBYGEMS', $1)
      ON CONFLICT DO NOTHING`,
      [typo],
    );
    await db.query(
      `INSERT INTO insights.versions (system, name, version, upstream_version, ordinal)
      VALUES ('RUBYGEMS', $1, '1.0.0', '1.0.0', 0) ON CONFLICT DO NOTHING`,
      [name],
    );
    const got = await similar(`/v3alpha/systems/rubygems/packages/${name}:similarlyNamedPackages`);
    expect(got).toContain(`RUBYGEMS ${typo}`);
    await db.query(`DELETE FROM insights.packages WHERE system = 'RUBYGEMS' AND name LIKE 'snpgen%'`);
  }, 120_000);
});
