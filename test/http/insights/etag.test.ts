/**
 * `ETag` / `If-None-Match` on every insights GET (every documented GET operation, with the document's own
 * examples): a 200 carries a strong ETag, the SHA-1 of its body; the same tag back (alone, in a list, weak-prefixed or `*`)
 * answers 304 with no body and the same ETag; another tag answers 200. The tag follows the data (a new
 * stored version changes it, and the old tag then gets a 200); POST answers and errors carry none; no
 * rate-limit headers are sent (none is enforced: docs/insights.md).
 */
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, json, useFixtureUpstream } from '../../fixtures/insights/harness.ts';
import { documented, type Doc } from '../../fixtures/insights/openapi-urls.ts';
import { testDb } from '../../support/env.ts';

useFixtureUpstream();

let doc: Doc;
beforeAll(async () => {
  doc = await json('/openapi.json');
  const db = testDb();
  await db.query(`DELETE FROM insights.packages WHERE system = 'NPM' AND name = 'etag-pkg'`);
  await db.query(`INSERT INTO insights.packages (system, name) VALUES ('NPM', 'etag-pkg')`);
  await db.query(`INSERT INTO insights.versions (system, name, version, upstream_version, ordinal)
    VALUES ('NPM', 'etag-pkg', '1.0.0', '1.0.0', 0)`);
});

describe('ETag and If-None-Match', () => {
  it('every documented GET answers 200 with a strong ETag, and 304 with that tag back', async () => {
    const gets = documented(doc).filter(([m]) => m === 'get');
    expect(gets.length).toBeGreaterThan(20);
    for (const [, url] of gets) {
      const first = await api.get(url);
      const tag = first.headers.get('etag');
      expect({ url, status: first.status, tag }).toEqual({ url, status: 200, tag: expect.stringMatching(/^"[^"]+"$/) });
      // the documented validator: the SHA-1 of the body (set with the JSON text, or by the middleware)
      expect({ url, tag }).toEqual({
        url,
        tag: `"${createHash('sha1')
          .update(await first.text())
          .digest('hex')}"`,
      });
      const again = await api.get(url, { 'if-none-match': tag! });
      expect({ url, status: again.status }).toEqual({ url, status: 304 });
      expect(await again.text()).toBe('');
      expect(again.headers.get('etag')).toBe(tag);
    }
  });

  it('matches a tag in a list, a weak-prefixed tag and *, not another tag', async () => {
    const url = '/v3/systems/npm/packages/etag-pkg';
    const tag = (await api.get(url)).headers.get('etag')!;
    expect((await api.get(url, { 'if-none-match': `"nope", ${tag}` })).status).toBe(304);
    expect((await api.get(url, { 'if-none-match': `W/${tag}` })).status).toBe(304);
    expect((await api.get(url, { 'if-none-match': '*' })).status).toBe(304);
    const other = await api.get(url, { 'if-none-match': '"nope"' });
    expect(other.status).toBe(200);
    expect(other.headers.get('etag')).toBe(tag);
  });

  it('the tag follows the data: a new version changes it and the old tag gets the new answer', async () => {
    const url = '/v3/systems/npm/packages/etag-pkg';
    const before = (await api.get(url)).headers.get('etag')!;
    await testDb().query(`INSERT INTO insights.versions (system, name, version, upstream_version, ordinal)
      VALUES ('NPM', 'etag-pkg', '1.1.0', '1.1.0', 1)`);
    const res = await api.get(url, { 'if-none-match': before });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).not.toBe(before);
    expect((await res.json()).versions.map((v: any) => v.versionKey.version)).toEqual(['1.0.0', '1.1.0']);
  });

  it('POST answers, errors and 404s carry no ETag; no rate-limit headers anywhere', async () => {
    const post = await api.post('/v3alpha/versionbatch', {
      requests: [{ versionKey: { system: 'NPM', name: 'etag-pkg', version: '1.0.0' } }],
    });
    expect(post.status).toBe(200);
    expect(post.headers.get('etag')).toBeNull();
    for (const [url, status] of [
      ['/v3/systems/cobol/packages/x', 400],
      ['/v3/nothing', 404],
    ] as const) {
      const res = await api.get(url);
      expect(res.status).toBe(status);
      expect(res.headers.get('etag')).toBeNull();
    }
    const ok = await api.get('/v3/systems/npm/packages/etag-pkg');
    for (const h of ['ratelimit', 'ratelimit-policy', 'x-ratelimit-limit', 'retry-after']) {
      expect(ok.headers.get(h)).toBeNull();
    }
  });
});
