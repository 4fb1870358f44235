import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFeedServer, type FeedServer } from '../../support/fakes/feed-server.ts';
import { testDb, testEnv } from '../../support/env.ts';
import { adminClient, resetPipeline } from './helpers.ts';

const api = adminClient();
let feeds: FeedServer;

beforeAll(async () => {
  await resetPipeline();
  feeds = await startFeedServer();
});
afterAll(() => feeds.close());

async function create(body: Record<string, unknown>) {
  const res = await api.post('/api/v1/sources', body);
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

describe('sources CRUD', () => {
  it('creates, reads, lists, updates and deletes a source', async () => {
    const { status, body } = await create({
      name: 'Blog',
      category: 'blog',
      collect_method: 'rss',
      config: { feed_url: `${feeds.url}/rss.xml` },
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({
      name: 'Blog',
      category: 'blog',
      collect_method: 'rss',
      enabled: true,
      status: 'healthy',
      last_collected: null,
      last_run: null,
      target_url: `${feeds.url}/rss.xml`,
    });
    const got = await (await api.get(`/api/v1/sources/${body.id}`)).json();
    expect(got).toEqual(body);
    const patched = (await (
      await api.patch(`/api/v1/sources/${body.id}`, { name: 'Renamed', enabled: false })
    ).json()) as Record<string, any>;
    expect(patched).toMatchObject({ name: 'Renamed', enabled: false, category: 'blog' });
    const list = (await (await api.get('/api/v1/sources?category=blog')).json()) as any[];
    expect(list.map((s) => s.id)).toEqual([body.id]);
    expect(await (await api.get('/api/v1/sources?category=academic')).json()).toEqual([]);
    expect((await api.delete(`/api/v1/sources/${body.id}`)).status).toBe(204);
    expect((await api.get(`/api/v1/sources/${body.id}`)).status).toBe(404);
    expect((await api.delete(`/api/v1/sources/${body.id}`)).status).toBe(404);
  });

  it('counts categories sorted by name', async () => {
    for (const [name, category] of [
      ['a', 'social'],
      ['b', 'academic'],
      ['c', 'social'],
    ]) {
      expect(
        (await create({ name, category, collect_method: 'blog_scraper', config: { url: `${feeds.url}/blog.html` } }))
          .status,
      ).toBe(201);
    }
    expect(await (await api.get('/api/v1/sources/categories')).json()).toEqual([
      { category: 'academic', count: 1 },
      { category: 'social', count: 2 },
    ]);
  });

  it.each([
    [
      'missing name',
      { category: 'blog', collect_method: 'rss', config: { feed_url: 'https://x.test/f' } },
      422,
      ['body', 'name'],
    ],
    [
      'unknown category',
      { name: 'x', category: 'news', collect_method: 'rss', config: { feed_url: 'https://x.test/f' } },
      422,
      ['body', 'category'],
    ],
    [
      'unknown method',
      { name: 'x', category: 'blog', collect_method: 'carrier_pigeon', config: {} },
      422,
      ['body', 'collect_method'],
    ],
  ])('rejects %s with a FastAPI 422', async (_n, body, status, loc) => {
    const res = await api.post('/api/v1/sources', body);
    expect(res.status).toBe(status);
    const detail = ((await res.json()) as { detail: { loc: unknown[] }[] }).detail;
    expect(detail[0]!.loc).toEqual(loc);
  });

  it.each([
    ['rss without a feed URL', { collect_method: 'rss', config: {} }, 'config.feed_url is required for rss sources'],
    [
      'scraper without a URL',
      { collect_method: 'blog_scraper', config: {} },
      'config.url is required for blog_scraper sources',
    ],
    [
      'a non-http URL',
      { collect_method: 'rss', config: { feed_url: 'file:///etc/passwd' } },
      'source URL must be an absolute http(s) URL',
    ],
  ])('rejects %s', async (_n, body, detail) => {
    const res = await api.post('/api/v1/sources', { name: 'x', category: 'blog', ...body });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ detail });
  });

  it.each([
    ['GET', '/api/v1/sources/not-a-uuid', 422, 'Invalid UUID'],
    ['GET', '/api/v1/sources/00000000-0000-4000-8000-000000000000', 404, 'Source not found'],
    ['PATCH', '/api/v1/sources/00000000-0000-4000-8000-000000000000', 404, 'Source not found'],
    ['POST', '/api/v1/sources/00000000-0000-4000-8000-000000000000/test', 404, 'Source not found'],
  ])('%s %s -> %i', async (method, path, status, detail) => {
    const res =
      method === 'GET'
        ? await api.get(path)
        : method === 'PATCH'
          ? await api.patch(path, { name: 'x' })
          : await api.post(path);
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual({ detail });
  });

  it('refuses immutable fields on update', async () => {
    const { body } = await create({
      name: 'imm',
      category: 'blog',
      collect_method: 'rss',
      config: { feed_url: `${feeds.url}/rss.xml` },
    });
    const res = await api.patch(`/api/v1/sources/${body.id}`, { category: 'social' });
    expect(res.status).toBe(422);
  });
});

describe('source test (really fetches once, stores nothing)', () => {
  it.each([
    [
      'RSS 2.0',
      'rss',
      '/rss.xml',
      3,
      ['Release notes', 'Second & final post', 'Relative link post'],
      ['/posts/release', '/posts/second', '/posts/relative'],
    ],
    ['Atom', 'rss', '/atom.xml', 2, ['Atom one', 'Atom two'], ['/atom/1', '/atom/2']],
    ['JSON Feed', 'rss', '/feed.json', 2, ['JSON one', 'JSON two'], ['/json/1', '/json/2']],
    [
      'a redirected feed',
      'rss',
      '/moved',
      3,
      ['Release notes', 'Second & final post', 'Relative link post'],
      ['/posts/release', '/posts/second', '/posts/relative'],
    ],
  ])('%s', async (_n, method, path, count, titles, paths) => {
    const { body } = await create({
      name: 'feed',
      category: 'blog',
      collect_method: method,
      config: { feed_url: `${feeds.url}${path}` },
    });
    const res = await api.post(`/api/v1/sources/${body.id}/test`);
    expect(res.status).toBe(200);
    const out = (await res.json()) as {
      success: boolean;
      message: string;
      sample_articles: { title: string; url: string }[];
    };
    expect(out.success).toBe(true);
    expect(out.message).toBe(`Connection successful. Retrieved ${count} items.`);
    expect(out.sample_articles.map((a) => a.title)).toEqual(titles);
    expect(out.sample_articles.map((a) => a.url)).toEqual(paths.map((p) => `${feeds.url}${p}`));
    const [{ n }] = await testDb().query<{ n: number }>('SELECT count(*)::int AS n FROM pipeline.articles');
    expect(n).toBe(0);
  });

  it('parses an HTML page: article titles, resolved links, dates; drops javascript: links', async () => {
    const { body } = await create({
      name: 'html',
      category: 'blog',
      collect_method: 'blog_scraper',
      config: { url: `${feeds.url}/blog.html` },
    });
    const out = (await (await api.post(`/api/v1/sources/${body.id}/test`, { max_results: 10 })).json()) as any;
    expect(out.success).toBe(true);
    expect(out.sample_articles.map((a: any) => [a.title, a.url])).toEqual([
      ['First blog post', `${feeds.url}/blog/first`],
      ['Second blog post', 'https://other.example/blog/second'],
    ]);
    expect(typeof out.sample_articles[0].published_at).toBe('string');
    expect(out.sample_articles[1].published_at).toBeNull();
  });

  it('filters by keywords and caps by max_results', async () => {
    const { body } = await create({
      name: 'kw',
      category: 'blog',
      collect_method: 'rss',
      config: { feed_url: `${feeds.url}/rss.xml` },
    });
    const out = (await (await api.post(`/api/v1/sources/${body.id}/test`, { keywords: ['FINAL'] })).json()) as any;
    expect(out.sample_articles.map((a: any) => a.title)).toEqual(['Second & final post']);
    const capped = (await (await api.post(`/api/v1/sources/${body.id}/test`, { max_results: 1 })).json()) as any;
    expect(capped.message).toBe('Connection successful. Retrieved 1 items.');
  });

  it.each([
    ['an HTTP error', `/missing.xml`, 'Test failed: source returned HTTP 404'],
    ['a page that is not a feed', `/blog.html`, 'Test failed: response is not an RSS, Atom or JSON feed'],
  ])('reports %s as success=false (200)', async (_n, path, message) => {
    const { body } = await create({
      name: 'bad',
      category: 'blog',
      collect_method: 'rss',
      config: { feed_url: `${feeds.url}${path}` },
    });
    const res = await api.post(`/api/v1/sources/${body.id}/test`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: false, message, sample_articles: [] });
  });

  it('refuses private addresses through the outbound guard at run time too (saved while allow-listed)', async () => {
    const allowing = adminClient(testEnv({ OUTBOUND_ALLOWLIST: '127.0.0.1,10.0.0.1' }));
    const res = await allowing.post('/api/v1/sources', {
      name: 'ssrf',
      category: 'blog',
      collect_method: 'rss',
      config: { feed_url: 'http://10.0.0.1/feed' },
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { id: string };
    expect(await (await api.post(`/api/v1/sources/${body.id}/test`)).json()).toEqual({
      success: false,
      message: 'Test failed: refused http://10.0.0.1/feed: private address is not allowed',
      sample_articles: [],
    });
  });

  it('rejects a malformed test body', async () => {
    const { body } = await create({
      name: 'x',
      category: 'blog',
      collect_method: 'rss',
      config: { feed_url: `${feeds.url}/rss.xml` },
    });
    expect((await api.post(`/api/v1/sources/${body.id}/test`, { max_results: 0 })).status).toBe(422);
    expect((await api.post(`/api/v1/sources/${body.id}/test`, '{oops')).status).toBe(422);
  });
});
