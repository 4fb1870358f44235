/**
 * Caller errors are 4xx: a name that cannot exist in its system (src/versions/names/rules.ts) is a 400
 * before any upstream request; a name that can exist but the registry does not have (404, or the 403 npm
 * answers for some names) is a 404 `package ... not found`, legacy spellings included; a malformed
 * advisory or project id is a 400. Never a 5xx. Every upstream is one loopback fake that records requests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import insights from '../../../functions/insights.ts';
import { testEnv, workerClient } from '../../support/env.ts';
import { json as reply, startFake, type Fake } from '../../support/fakes/http-fake.ts';

let fake: Fake;
let api: ReturnType<typeof workerClient>;

beforeAll(async () => {
  // npm answers 403 for names it cannot hold (`@BABEL/CORE`); everything else is simply not there
  fake = await startFake((r) => (r.path.includes('BABEL') ? reply(403, { error: 'forbidden' }) : reply(404, {})));
  const urls = [
    'NPM_REGISTRY_URL',
    'PYPI_URL',
    'CRATES_INDEX_URL',
    'CRATES_API_URL',
    'MAVEN_REPO_URL',
    'RUBYGEMS_URL',
    'GO_PROXY_URL',
    'OSV_API_URL',
    'GITHUB_API_URL',
    'GITLAB_API_URL',
    'BITBUCKET_API_URL',
    'SCORECARD_API_URL',
    'OSS_FUZZ_PROJECTS_URL',
    'OSS_FUZZ_COVERAGE_URL',
  ];
  api = workerClient(
    insights,
    testEnv({ ...Object.fromEntries(urls.map((u) => [u, fake.url])), NUGET_INDEX_URL: `${fake.url}/index.json` }),
  );
});
afterAll(() => fake?.close());

const long = (n: number) => 'a'.repeat(n);
const enc = encodeURIComponent;

/** [system, name as sent (encoded here), why it cannot exist] */
const REJECTED: [string, string, string][] = [
  ['npm', '😀', 'emoji'],
  ['npm', 'a b', 'a space'],
  ['npm', '.hidden', 'a leading dot'],
  ['npm', '_private', 'a leading underscore'],
  ['npm', 'node_modules', 'a reserved name'],
  ['npm', 'a/b', 'a slash outside a scope'],
  ['npm', '@scope/', 'an empty name in a scope'],
  ['npm', '@sc ope/x', 'a space in a scope'],
  ['npm', long(215), '215 characters'],
  ['npm', ' lodash', 'leading white space'],
  ['pypi', '-django', 'a leading dash'],
  ['pypi', 'djängo', 'a non-ASCII letter'],
  ['pypi', 'dj ango', 'a space'],
  ['pypi', 'django.', 'a trailing dot'],
  ['cargo', '1serde', 'a leading digit'],
  ['cargo', 'ser.de', 'a dot'],
  ['cargo', long(65), '65 characters'],
  ['maven', 'org.x:art:1.0', 'three parts'],
  ['maven', 'org x:art', 'a space'],
  ['maven', 'org.x:ar/t', 'a slash'],
  ['maven', ':art', 'no group'],
  ['nuget', 'Newtonsoft..Json', 'two dots in a row'],
  ['nuget', '.Json', 'a leading dot'],
  ['nuget', 'a b', 'a space'],
  ['nuget', long(101), '101 characters'],
  ['rubygems', 'ra ck', 'a space'],
  ['rubygems', 'rack!', 'a "!"'],
  ['rubygems', '---', 'no letter or digit'],
  ['go', 'toml', 'no host'],
  ['go', 'github_com/x/y', 'a host without a dot'],
  ['go', 'github.com/x/y.', 'an element ending with a dot'],
  ['go', 'github.com//y', 'an empty element'],
  ['go', 'github.com/😀/y', 'emoji'],
  ['go', 'github.com/!!x/y', 'a bad case escape'],
];

describe('names that cannot exist: 400 before any upstream request', () => {
  it.each(REJECTED)('%s %j (%s)', async (system, name) => {
    const before = fake.requests.length;
    for (const path of [
      `/v3/systems/${system}/packages/${enc(name)}`,
      `/v3/systems/${system}/packages/${enc(name)}/versions/1.0.0`,
      `/v3alpha/systems/${system}/packages/${enc(name)}:findings`,
    ]) {
      const res = await api.get(path);
      const body = (await res.json()) as { error: string };
      expect({ path, status: res.status }).toEqual({ path, status: 400 });
      expect(body.error).toMatch(/^invalid (\w+ package name|Go module path|Maven package name)/);
    }
    expect(fake.requests.slice(before).map((r) => r.path)).toEqual([]);
  });
  it.each(REJECTED)(
    '%s %j (%s) through Query, the purl lookup and VersionBatch: 400, no upstream request',
    async (system, name) => {
      const before = fake.requests.length;
      const upper = system.toUpperCase();
      const query = await api.get(`/v3/query?versionKey.system=${upper}&versionKey.name=${enc(name)}`);
      expect({ status: query.status, body: await query.json() }).toMatchObject({
        status: 400,
        body: { error: expect.stringMatching(/^invalid /) },
      });
      const batch = await api.post('/v3alpha/versionbatch', {
        requests: [{ versionKey: { system: upper, name, version: '1.0.0' } }],
      });
      expect({ status: batch.status, body: await batch.json() }).toMatchObject({
        status: 400,
        body: { error: expect.stringMatching(/^requests\[0\]: invalid /) },
      });
      const type = ({ go: 'golang', rubygems: 'gem' } as Record<string, string>)[system] ?? system;
      const purl = await api.get(`/v3alpha/purl/${enc(`pkg:${type}/${enc(name).replace('%3A', '/')}@1.0.0`)}`);
      expect([400, 404]).toContain(purl.status); // a purl that cannot name the package may also fail as a purl
      expect(fake.requests.slice(before).map((r) => r.path)).toEqual([]);
    },
  );
});

/** Names that can exist (legacy spellings included) but the registry does not have: 404, never 5xx. */
const ABSENT: [string, string][] = [
  ['npm', 'JSONStream'],
  ['npm', '@BABEL/CORE'],
  ['npm', "left-pad!*'()~"],
  ['pypi', 'No_Such.Project-1'],
  ['cargo', 'no_such-crate'],
  ['maven', 'org.example:no-such'],
  ['nuget', 'No.Such_Package-1'],
  ['rubygems', 'no_such.gem-1'],
  ['go', 'example.com/no/such~v2'],
];

describe('names that can exist but are not there: 404 package not found', () => {
  it.each(ABSENT)('%s %j', async (system, name) => {
    const before = fake.requests.length;
    const res = await api.get(`/v3/systems/${system}/packages/${enc(name)}`);
    const body = (await res.json()) as { error: string };
    expect({ status: res.status, error: body.error }).toMatchObject({ status: 404 });
    expect(body.error).toMatch(/^package \w+ .+ not found$/);
    expect(fake.requests.length).toBeGreaterThan(before); // the registry was asked
  });
});

describe('advisory and project ids', () => {
  it.each([
    ['/v3/advisories/not-an-id', 400],
    ['/v3/advisories/GHSA', 400],
    ['/v3/advisories/%F0%9F%98%80', 400],
    ['/v3/advisories/ghsa-xxxx-yyyy-zzzz', 400],
    ['/v3/projects/github.com%2F%F0%9F%98%80%2Fx', 400],
    ['/v3/projects/github.com%2Fa%20b%2Fx', 400],
    ['/v3/projects/example.com%2Fa%2Fb', 400],
    ['/v3/advisories/GHSA-0000-0000-0000', 404],
    ['/v3/advisories/CVE-2099-0001', 404],
    ['/v3/projects/github.com%2Fno-such%2Frepo', 404],
  ])('%s -> %i', async (path, status) => {
    const before = fake.requests.length;
    const res = await api.get(path);
    expect(res.status).toBe(status);
    expect(((await res.json()) as { error: string }).error).toMatch(status === 400 ? /^invalid/ : /not found$/);
    if (status === 400) expect(fake.requests.length).toBe(before);
  });
});
