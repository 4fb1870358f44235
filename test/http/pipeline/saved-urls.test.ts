/**
 * Outbound URLs are refused when saved, for sources, destinations and providers alike, with the
 * outbound guard every fetch applies (and webhook URLs are saved under): a 422 `{"detail": ...}`
 * naming the field and the reason, and nothing stored. Allow-listed (127.0.0.1 in the test stack)
 * and public URLs are saved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDb } from '../../support/env.ts';
import { adminClient, resetPipeline } from './helpers.ts';

const api = adminClient();

beforeAll(resetPipeline);
afterAll(resetPipeline);

/** [url, the guard's reason] */
const REFUSED: [string, string][] = [
  ['http://169.254.169.254/latest', 'link-local address is not allowed'],
  ['http://0xa9fea9fe/latest/meta-data', 'link-local address is not allowed'],
  ['http://[::ffff:169.254.169.254]/', 'link-local address is not allowed'],
  ['http://metadata.google.internal/computeMetadata/v1/', 'private host name'],
  ['http://10.0.0.1/feed', 'private address is not allowed'],
  ['http://192.168.1.20:8080/rss', 'private address is not allowed'],
  ['http://100.64.0.1/', 'carrier-grade NAT address is not allowed'],
  ['http://[fd00::1]/', 'unique-local address is not allowed'],
  ['http://[fe80::1]/', 'link-local address is not allowed'],
  ['http://0.0.0.0/', 'unspecified address is not allowed'],
  ['http://app.localhost:8080/', 'loopback host'],
  ['http://intranet/', 'single-label host names are not allowed'],
  ['https://user:pw@feeds.example.com/rss', 'credentials in the URL are not allowed'],
];
const ACCEPTED = ['https://feeds.example.com/rss.xml', 'http://127.0.0.1:9/feed.xml'];

async function sourceCount(): Promise<number> {
  return Number((await testDb().query<{ n: string }>(`SELECT count(*) AS n FROM pipeline.sources`))[0]!.n);
}

describe('outbound URLs are checked when saved', () => {
  const sourceCases: [string, (url: string) => Record<string, unknown>][] = [
    ['rss feed_url', (url) => ({ collect_method: 'rss', config: { feed_url: url } })],
    ['blog_scraper url', (url) => ({ collect_method: 'blog_scraper', config: { url } })],
    [
      'blog_scraper profile start_urls',
      (url) => ({
        collect_method: 'blog_scraper',
        config: { url: 'https://blog.example.com/', profile: { start_urls: ['https://blog.example.com/', url] } },
      }),
    ],
  ];

  it.each(sourceCases)('source %s: refused at creation and on update', async (_, body) => {
    const before = await sourceCount();
    for (const [url, reason] of REFUSED) {
      const res = await api.post('/api/v1/sources', { name: 'guarded', category: 'blog', ...body(url) });
      expect([url, res.status, await res.json()]).toEqual([url, 422, { detail: `source URL: ${reason}` }]);
    }
    expect(await sourceCount()).toBe(before);
    const created = await api.post('/api/v1/sources', { name: 'guarded', category: 'blog', ...body(ACCEPTED[0]!) });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    for (const [url, reason] of REFUSED) {
      const res = await api.patch(`/api/v1/sources/${id}`, { config: body(url).config });
      expect([url, res.status, await res.json()]).toEqual([url, 422, { detail: `source URL: ${reason}` }]);
    }
    for (const url of ACCEPTED) {
      const res = await api.patch(`/api/v1/sources/${id}`, { config: body(url).config });
      expect([url, res.status]).toEqual([url, 200]);
    }
    const stored = (await (await api.get(`/api/v1/sources/${id}`)).json()) as { config: Record<string, unknown> };
    expect(stored.config).toEqual(body(ACCEPTED[1]!).config);
  });

  it.each(['notion', 'obsidian'])('destination %s api_url: refused when saved, stored config unchanged', async (id) => {
    const before = (await (await api.get(`/api/v1/destinations/${id}`)).json()) as Record<string, unknown>;
    for (const [url, reason] of REFUSED) {
      const res = await api.patch(`/api/v1/destinations/${id}`, { config: { api_url: url } });
      expect([url, res.status, await res.json()]).toEqual([url, 422, { detail: `config.api_url: ${reason}` }]);
    }
    expect(await (await api.get(`/api/v1/destinations/${id}`)).json()).toEqual(before);
    for (const url of ACCEPTED) {
      const res = await api.patch(`/api/v1/destinations/${id}`, { config: { api_url: url } });
      expect([url, res.status]).toEqual([url, 200]);
      expect(((await res.json()) as { config: { api_url: string } }).config.api_url).toBe(url);
    }
  });

  it('provider base_url: refused when saved', async () => {
    for (const [url, reason] of REFUSED) {
      const res = await api.patch('/api/v1/providers/llm_alpha', { config: { base_url: url } });
      expect([url, res.status, await res.json()]).toEqual([url, 422, { detail: `config.base_url: ${reason}` }]);
    }
    const ok = await api.patch('/api/v1/providers/llm_alpha', { config: { base_url: ACCEPTED[0] } });
    expect(ok.status).toBe(200);
  });
});
