/**
 * The v3alpha batch methods (versionbatch, purlbatch, projectbatch) and QueryContainerImages through the
 * insights worker: request order, unknown items answered with the request alone, deps.dev's paging
 * (1000 per page, base64 offset tokens), empty/over-limit batches and bad tokens as 400s.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, json, useFixtureUpstream } from '../../fixtures/insights/harness.ts';
import { testDb } from '../../support/env.ts';

useFixtureUpstream();

beforeAll(async () => {
  await json('/v3/systems/npm/packages/lodash');
  await json('/v3/projects/github.com%2Flodash%2Flodash');
});

async function post(path: string, body: unknown, status = 200): Promise<any> {
  const res = await api.post(path, body);
  const got = await res.json();
  expect({ path, status: res.status, got: res.status === status ? null : got }).toEqual({ path, status, got: null });
  return got;
}

describe('purlbatch', () => {
  it('answers {request, result: {version}} in request order, unknown ones with the request alone', async () => {
    const requests = [
      { purl: 'pkg:npm/lodash@4.17.21' },
      { purl: 'pkg:npm/lodash@9.9.9' },
      { purl: 'pkg:npm/lodash@4.17.19' },
      { purl: 'pkg:npm/never-stored-package@1.0.0' },
    ];
    const body = await post('/v3alpha/purlbatch', { requests });
    expect(Object.keys(body)).toEqual(['responses', 'nextPageToken']);
    expect(body.nextPageToken).toBe('');
    const got = body.responses.map((r: any) => [r.request.purl, Object.keys(r), r.result?.version.versionKey.version]);
    expect(got).toEqual([
      ['pkg:npm/lodash@4.17.21', ['request', 'result'], '4.17.21'],
      ['pkg:npm/lodash@9.9.9', ['request'], undefined],
      ['pkg:npm/lodash@4.17.19', ['request', 'result'], '4.17.19'],
      ['pkg:npm/never-stored-package@1.0.0', ['request'], undefined],
    ]);
    expect(Object.keys(body.responses[0].result)).toEqual(['version']);
    const version = await json('/v3alpha/systems/npm/packages/lodash/versions/4.17.21');
    expect(body.responses[0].result.version).toEqual(version);
  });
  it('reads proto3 JSON (null as absent, page_token) and percent-encoded purls', async () => {
    const requests = [{ purl: 'pkg:npm/%40colors/colors@1.5.0' }, null];
    const body = await post('/v3alpha/purlbatch', { requests, page_token: null });
    expect(body.responses).toHaveLength(1);
    expect(body.responses[0].request).toEqual({ purl: 'pkg:npm/%40colors/colors@1.5.0' });
  });
  it.each([
    [{ requests: [] }, /requests/],
    [{ requests: Array.from({ length: 5001 }, () => ({ purl: 'pkg:npm/lodash@4.17.21' })) }, /requests/],
    [
      { requests: [{ purl: 'pkg:npm/lodash@4.17.21' }, { purl: 'pkg:npm/lodash' }] },
      /requests\[1\]: purl "pkg:npm\/lodash" has no version/,
    ],
    [{ requests: [{ purl: 'pkg:npm/lodash@4.17.21?=bar' }] }, /requests\[0\]: invalid purl qualifier/],
    [{ requests: [{ purl: 'pkg:cobol/x@1' }] }, /requests\[0\]: unsupported purl type/],
    [{ requests: [{ purl: 42 }] }, /purl/],
  ])('rejects %j with a 400 naming the fault', async (body, message) => {
    const got = await post('/v3alpha/purlbatch', body, 400);
    expect(Object.keys(got)).toEqual(['error']);
    expect(got.error).toMatch(message);
  });
});

const LODASH = { system: 'NPM', name: 'lodash', version: '4.17.21' };

describe('batch paging (deps.dev: 5000 per batch, 1000 per page)', () => {
  const many = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ purl: `pkg:npm/lodash@${i === n - 1 ? '4.17.20' : '4.17.21'}` }));
  it('pages through 2500 purls with the tokens it hands out, every answer once, in order', async () => {
    const requests = many(2500);
    const seen: string[] = [];
    const tokens: string[] = [];
    let token: string | undefined;
    do {
      const body = await post('/v3alpha/purlbatch', { requests, ...(token ? { pageToken: token } : {}) });
      seen.push(...body.responses.map((r: any) => r.result.version.versionKey.version));
      token = body.nextPageToken;
      tokens.push(body.nextPageToken);
    } while (token);
    expect(tokens.map((t) => (t ? atob(t) : ''))).toEqual(['1000', '2000', '']);
    expect(seen).toHaveLength(2500);
    expect(seen.slice(-2)).toEqual(['4.17.21', '4.17.20']);
  });
  it.each([
    ['/v3alpha/purlbatch', many(1500)],
    ['/v3alpha/versionbatch', many(1500).map(() => ({ versionKey: LODASH }))],
    ['/v3alpha/projectbatch', many(1500).map(() => ({ projectKey: { id: 'github.com/lodash/lodash' } }))],
  ])('%s: a token that is not base64 of an offset inside the batch is a 400', async (path, requests) => {
    for (const pageToken of ['!!!', btoa('1500'), btoa('-1'), btoa('1e3'), btoa('abc')]) {
      const got = await post(path, { requests, pageToken }, 400);
      expect(got.error).toBe('invalid pageToken');
    }
    const second = await post(path, { requests, pageToken: btoa('1000') });
    expect([second.responses.length, second.nextPageToken]).toEqual([500, '']);
  });
});

describe('projectbatch', () => {
  it('answers {request, project} in request order; ids are matched case-insensitively, echoed as sent', async () => {
    const requests = [
      { projectKey: { id: 'github.com/Lodash/lodash' } },
      { projectKey: { id: 'github.com/nobody/nothing' } },
      { project_key: { id: 'github.com/lodash/lodash' } },
    ];
    const body = await post('/v3alpha/projectbatch', { requests });
    expect(body.nextPageToken).toBe('');
    expect(body.responses.map((r: any) => [r.request.projectKey.id, r.project?.projectKey.id ?? null])).toEqual([
      ['github.com/Lodash/lodash', 'github.com/lodash/lodash'],
      ['github.com/nobody/nothing', null],
      ['github.com/lodash/lodash', 'github.com/lodash/lodash'],
    ]);
    expect(body.responses[1]).toEqual({ request: { projectKey: { id: 'github.com/nobody/nothing' } } });
    expect(body.responses[0].project).toEqual(await json('/v3/projects/github.com%2Flodash%2Flodash'));
  });
  it.each([
    [{ requests: [] }],
    [{ requests: Array.from({ length: 5001 }, () => ({ projectKey: { id: 'github.com/lodash/lodash' } })) }],
    [{ requests: [{ projectKey: { id: 'github.com/lodash/lodash' } }, { projectKey: { id: 'example.com/a/b' } }] }],
    [{ requests: [{ projectKey: {} }] }],
    [{ requests: 'github.com/lodash/lodash' }],
  ])('rejects %j with a 400', async (body) => {
    const got = await post('/v3alpha/projectbatch', body, 400);
    expect(Object.keys(got)).toEqual(['error']);
  });
  it('names the bad request by its index', async () => {
    const requests = [{ projectKey: { id: 'github.com/a/b' } }, { projectKey: { id: 'x' } }];
    const got = await post('/v3alpha/projectbatch', { requests }, 400);
    expect(got.error).toMatch(/^requests\[1\]: invalid project id "x"/);
  });
});

describe('versionbatch (moved to routes-batch.ts, same answers)', () => {
  it('fails a batch with a bad key anywhere, naming its index', async () => {
    const requests = [
      { versionKey: { system: 'NPM', name: 'lodash', version: '4.17.21' } },
      { versionKey: { system: 'COBOL', name: 'x', version: '1' } },
    ];
    const got = await post('/v3alpha/versionbatch', { requests }, 400);
    expect(got.error).toMatch(/^requests\[1\]: invalid system "COBOL"/);
  });
});

describe('QueryContainerImages', () => {
  const chain = (c: string) => `sha256:${c.repeat(64)}`;
  it('an unknown chain id answers 200 with an empty results list', async () => {
    expect(await json(`/v3alpha/querycontainerimages/${chain('0')}`)).toEqual({ results: [] });
  });
  it('answers the repositories of a chain id by name, dockerMetadata where known, int64 as strings', async () => {
    const db = testDb();
    await db.query('DELETE FROM insights.container_images WHERE chain_id = $1', [chain('a')]);
    await db.query(
      `INSERT INTO insights.container_images (chain_id, repository, registry, date_registered,
        last_updated,
        star_count, pull_count, is_official) VALUES
      ($1, 'tensorflow/tensorflow', 'DOCKER_HUB', '2015-11-09T12:00:00Z', '2026-01-02T03:04:05.6Z', 2600,
        81000000000, false),
      ($1, 'alpine', 'DOCKER_HUB', NULL, NULL, NULL, NULL, true),
      ($1, 'mirror.example/x', '', NULL, NULL, NULL, NULL, NULL),
      ($2, 'other', '', NULL, NULL, NULL, NULL, NULL)`,
      [chain('a'), chain('b')],
    );
    expect(await json(`/v3alpha/querycontainerimages/${encodeURIComponent(chain('a'))}`)).toEqual({
      results: [
        {
          repository: 'alpine',
          registry: 'DOCKER_HUB',
          dockerMetadata: { starCount: '0', pullCount: '0', isOfficial: true },
        },
        { repository: 'mirror.example/x', registry: '' },
        {
          repository: 'tensorflow/tensorflow',
          registry: 'DOCKER_HUB',
          dockerMetadata: {
            dateRegistered: '2015-11-09T12:00:00Z',
            lastUpdated: '2026-01-02T03:04:05Z',
            starCount: '2600',
            pullCount: '81000000000',
            isOfficial: false,
          },
        },
      ],
    });
    await db.query('DELETE FROM insights.container_images WHERE chain_id = ANY($1)', [[chain('a'), chain('b')]]);
  });
  it.each([
    '/v3alpha/querycontainerimages/sha256%3Aabc',
    `/v3alpha/querycontainerimages/${'a'.repeat(64)}`,
    `/v3alpha/querycontainerimages/sha256:${'A'.repeat(64)}`,
    `/v3alpha/querycontainerimages/sha256:${'a'.repeat(64)}/extra`,
  ])('%s -> 400', async (path) => {
    const res = await api.get(path);
    expect(res.status).toBe(400);
    expect(Object.keys((await res.json()) as object)).toEqual(['error']);
  });
});
