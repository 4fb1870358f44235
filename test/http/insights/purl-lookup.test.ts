/**
 * Purl lookups beyond deps.dev (its #299, #93): qualifiers and a subpath are accepted and do not change the
 * answer, except a `repository_url` naming a registry this service does not read (not found, saying so);
 * Go module paths match ignoring case (exact stored path first, a case-only collision is not guessed) and
 * in Go's `!x` case-encoding; purlbatch answers the same; the case fold is an index lookup (EXPLAIN).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, json, useFixtureUpstream } from '../../fixtures/insights/harness.ts';
import { goPathsFolded } from '../../../src/insights/purl-target.ts';
import { testDb } from '../../support/env.ts';

useFixtureUpstream();

const GO = ['github.com/Fold/Mod', 'github.com/Twin/x', 'github.com/twin/x'];

beforeAll(async () => {
  const db = testDb();
  await db.query(`DELETE FROM insights.packages WHERE system = 'GO' AND (name ILIKE 'github.com/fold/%'
    OR name ILIKE 'github.com/twin/%' OR name LIKE 'example.com/gen%')`);
  for (const name of GO) {
    await db.query(`INSERT INTO insights.packages (system, name) VALUES ('GO', $1)`, [name]);
    await db.query(
      `INSERT INTO insights.versions (system, name, version, upstream_version, ordinal)
      VALUES ('GO', $1, 'v1.0.0', 'v1.0.0', 0)`,
      [name],
    );
  }
});

const purl = (p: string) => `/v3alpha/purl/${encodeURIComponent(p)}`;
const nameOf = async (p: string) => (await json(purl(p))).version.versionKey.name;

describe('purl qualifiers and subpath', () => {
  it('are accepted and ignored: the answer is the version without them', async () => {
    const plain = await json(purl('pkg:npm/lodash@4.17.21'));
    for (const q of [
      '?foo=bar',
      '?checksum=sha1:abc&download_url=https%3A%2F%2Fx.example%2Fa.tgz',
      '#lib/index.js',
      '?repository_url=https%3A%2F%2Fregistry.npmjs.org',
    ]) {
      expect(await json(purl(`pkg:npm/lodash@4.17.21${q}`))).toEqual(plain);
    }
    const maven = 'pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1';
    expect(await json(purl(`${maven}?type=pom&classifier=sources`))).toEqual(await json(purl(maven)));
  });

  it('a repository_url of another registry is not this package: 404 saying so', async () => {
    const res = await api.get(purl('pkg:npm/lodash@4.17.21?repository_url=https://npm.internal.example'));
    expect(res.status).toBe(404);
    expect((await res.json()).error).toMatch(/repository_url https:\/\/npm\.internal\.example is not a registry/);
  });

  it('a malformed qualifier is a 400', async () => {
    const res = await api.get(purl('pkg:npm/lodash@4.17.21?=x'));
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/invalid purl qualifier/);
  });
});

describe('Go module paths ignoring case', () => {
  it('a lower-cased (or upper-cased) path finds the stored module', async () => {
    expect(await nameOf('pkg:golang/github.com/fold/mod@v1.0.0')).toBe('github.com/Fold/Mod');
    expect(await nameOf('pkg:golang/GITHUB.COM/FOLD/MOD@v1.0.0')).toBe('github.com/Fold/Mod');
    const pkg = await json(purl('pkg:golang/github.com/fold/mod'));
    expect(pkg.package.packageKey).toEqual({ system: 'GO', name: 'github.com/Fold/Mod' });
  });

  it('a module read through from the Go proxy is found by its lower-cased purl, with a qualifier', async () => {
    await json('/v3/systems/go/packages/github.com%2FBurntSushi%2Ftoml');
    expect(await nameOf('pkg:golang/github.com/burntsushi/toml@v1.2.1?vcs_url=x')).toBe('github.com/BurntSushi/toml');
  });

  it("Go's !x case-encoding is read back, in purls and in package paths", async () => {
    expect(await nameOf('pkg:golang/github.com/!fold/!mod@v1.0.0')).toBe('github.com/Fold/Mod');
    const v = await json('/v3/systems/go/packages/github.com%2F!fold%2F!mod/versions/v1.0.0');
    expect(v.versionKey.name).toBe('github.com/Fold/Mod');
    expect((await api.get('/v3/systems/go/packages/github.com%2F!Fold%2Fmod')).status).toBe(400);
  });

  it('an exact path wins over its case twins; a path matching two only by case is not guessed', async () => {
    expect(await nameOf('pkg:golang/github.com/twin/x@v1.0.0')).toBe('github.com/twin/x');
    expect(await nameOf('pkg:golang/github.com/Twin/x@v1.0.0')).toBe('github.com/Twin/x');
    const res = await api.get(purl('pkg:golang/github.com/TWIN/x@v1.0.0'));
    expect(res.status).toBe(404);
    expect((await res.json()).error).toMatch(/matches github\.com\/Twin\/x, github\.com\/twin\/x ignoring case/);
  });

  it('purlbatch answers the same: folded Go paths, qualifiers ignored, foreign registries unanswered', async () => {
    const requests = [
      { purl: 'pkg:golang/github.com/fold/mod@v1.0.0' },
      { purl: 'pkg:npm/lodash@4.17.21?foo=bar#x' },
      { purl: 'pkg:npm/lodash@4.17.21?repository_url=npm.internal.example' },
      { purl: 'pkg:golang/github.com/TWIN/x@v1.0.0' },
    ];
    const res = await api.post('/v3alpha/purlbatch', { requests });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.responses.map((r: any) => r.result?.version.versionKey ?? null)).toEqual([
      { system: 'GO', name: 'github.com/Fold/Mod', version: 'v1.0.0' },
      { system: 'NPM', name: 'lodash', version: '4.17.21' },
      null,
      null,
    ]);
    expect(body.responses.map((r: any) => r.request)).toEqual(requests);
  });

  it('the fold is an index lookup over the GO paths (EXPLAIN over 5,000 generated modules)', async () => {
    const db = testDb();
    await db.query(`INSERT INTO insights.packages (system, name)
      SELECT 'GO', 'example.com/gen' || i || '/Mod' FROM generate_series(1, 5000) i`);
    await db.query('ANALYZE insights.packages');
    let stmt: { sql: string; params: readonly unknown[] } | undefined; // the lookup's own statement
    const capture = {
      query: async (sql: string, params: readonly unknown[] = []) => {
        stmt = { sql, params };
        return [];
      },
    };
    await goPathsFolded(capture as never, ['example.com/gen77/mod']);
    const plan = (await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${stmt!.sql}`, stmt!.params))
      .map((r) => r['QUERY PLAN'])
      .join('\n');
    expect(plan).toMatch(/Index Scan using packages_go_path_fold|Bitmap Index Scan on packages_go_path_fold/);
    expect(plan).not.toMatch(/Seq Scan/);
    expect([...(await goPathsFolded(db, ['example.com/gen77/mod'])).values()]).toEqual([['example.com/gen77/Mod']]);
  });
});
