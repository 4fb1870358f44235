/**
 * A malformed upstream document is a 502 that names the upstream document and the field, for every
 * registry adapter: npm's packument, PyPI's JSON API, the crates.io sparse index, RubyGems' versions
 * list, NuGet's registration pages and the Go proxy's `.info`; and for an OSV record read by
 * GetAdvisory and a GitHub repository read by GetProject. Served by a loopback registry; each is asked for as a client would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import insights from '../../../functions/insights.ts';
import { startRegistry, type RegistryServer } from '../../../tools/registries/registry-server.ts';
import { testDb, testEnv, workerClient } from '../../support/env.ts';

let registry: RegistryServer;
let api: ReturnType<typeof workerClient>;

function route(base: string, path: string): string | object | undefined {
  const docs: Record<string, string | object> = {
    '/repos/o/malformed': { full_name: 'o/malformed', stargazers_count: '5' },
    '/v1/vulns/MALFORMED-OSV-1': { id: 'MALFORMED-OSV-1', affected: [{ package: { ecosystem: 'npm' } }] },
    '/malformed-npm': { name: 'malformed-npm', versions: { '1.0.0': { dist: 'malformed-npm-1.0.0.tgz' } } },
    '/pypi/malformed-pypi/json': { info: { name: 'malformed-pypi' }, releases: { '1.0': [{ yanked: 'no' }] } },
    '/index/config.json': { dl: `${base}/crates` },
    '/index/ma/lf/malformed-crate': `${JSON.stringify({ name: 'malformed-crate', vers: '1.0.0', deps: [] })}\n${JSON.stringify({ name: 'malformed-crate', deps: [] })}\n`,
    '/api/v1/versions/malformed-gem.json': [{ number: 1, platform: 'ruby' }],
    '/nuget/index.json': {
      resources: [{ '@id': `${base}/nuget/registration/`, '@type': 'RegistrationsBaseUrl/3.6.0' }],
    },
    '/nuget/registration/malformed.nuget/index.json': { items: [{ '@id': `${base}/page`, items: [{ id: 'x' }] }] },
    '/go/example.com/malformed/@v/list': 'v1.0.0\n',
    '/go/example.com/malformed/@v/v1.0.0.info': { Version: 'v1.0.0', Time: 1700000000 },
    '/go/example.com/malformed/@v/v1.0.0.mod': 'module example.com/malformed\n',
  };
  return docs[path] ?? (path.startsWith('/v1/') ? {} : undefined); // OSV: no advisories
}

beforeAll(async () => {
  await testDb().query(`DELETE FROM insights.packages WHERE name LIKE '%malformed%'`);
  let base = '';
  registry = await startRegistry((p) => route(base, p));
  base = registry.url;
  api = workerClient(
    insights,
    testEnv({
      NPM_REGISTRY_URL: base,
      GITHUB_API_URL: base,
      PYPI_URL: base,
      CRATES_INDEX_URL: `${base}/index`,
      CRATES_API_URL: base,
      RUBYGEMS_URL: base,
      NUGET_INDEX_URL: `${base}/nuget/index.json`,
      GO_PROXY_URL: `${base}/go`,
      OSV_API_URL: base,
      INSIGHTS_PYPI_ATTESTATIONS: 'off',
    }),
  );
});
afterAll(() => registry?.close());

describe('a malformed upstream document is a 502 naming the document and the field', () => {
  it.each([
    ['npm', 'malformed-npm', '/malformed-npm', 'versions.1.0.0.dist'],
    ['pypi', 'malformed-pypi', '/pypi/malformed-pypi/json', 'releases.1.0[0].yanked'],
    ['cargo', 'malformed-crate', '/index/ma/lf/malformed-crate line 2', 'vers'],
    ['rubygems', 'malformed-gem', '/api/v1/versions/malformed-gem.json', '[0].number'],
    ['nuget', 'malformed.nuget', '/nuget/registration/malformed.nuget/index.json', 'items[0].items[0].catalogEntry'],
    ['go', 'example.com%2Fmalformed', '/go/example.com/malformed/@v/v1.0.0.info', 'Time'],
  ])('%s', async (system, name, document, field) => {
    const res = await api.get(`/v3/systems/${system}/packages/${name}`);
    const body = (await res.json()) as { error: string };
    expect(res.status).toBe(502);
    expect(body.error).toContain(
      `upstream registry failed: ${registry.url}${document}: malformed document: ${field}: `,
    );
    expect(res.headers.get('retry-after')).toBe('30');
  });

  it('a GitHub repository (GetProject)', async () => {
    const res = await api.get('/v3/projects/github.com%2Fo%2Fmalformed');
    const body = (await res.json()) as { error: string };
    expect(res.status).toBe(502);
    expect(body.error).toContain(`${registry.url}/repos/o/malformed: malformed document: stargazers_count: `);
    expect(res.headers.get('retry-after')).toBe('30');
  });

  it('an OSV record (GetAdvisory)', async () => {
    const res = await api.get('/v3/advisories/MALFORMED-OSV-1');
    const body = (await res.json()) as { error: string };
    expect(res.status).toBe(502);
    expect(body.error).toContain(
      `${registry.url}/v1/vulns/MALFORMED-OSV-1: malformed document: affected[0].package.name: `,
    );
    expect(res.headers.get('retry-after')).toBe('30');
  });
});
