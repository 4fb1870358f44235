import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startFake } from '../../support/fakes/http-fake.ts';
import { startNotionServer, type NotionServer } from '../../support/fakes/notion-server.ts';
import { startObsidianServer, type ObsidianServer } from '../../support/fakes/obsidian-server.ts';
import { testDb } from '../../support/env.ts';
import { adminClient, resetPipeline } from './helpers.ts';

const api = adminClient();
let notion: NotionServer;
let obsidian: ObsidianServer;

beforeAll(async () => {
  await resetPipeline();
  notion = await startNotionServer();
  obsidian = await startObsidianServer();
});
afterAll(async () => {
  await notion.close();
  await obsidian.close();
});

const FILE_MODE =
  'file mode needs a local file system, which this deployment (Cloudflare Workers) does not have; use mode "rest" with the Obsidian Local REST API plugin';

describe('destinations', () => {
  it('lists notion, obsidian and rss with their presets', async () => {
    const list = (await (await api.get('/api/v1/destinations')).json()) as any[];
    expect(list.map((d) => [d.id, d.type, d.enabled])).toEqual([
      ['notion', 'notion', false],
      ['obsidian', 'obsidian', false],
      ['rss', 'rss', true],
    ]);
    expect(list[0].config).toMatchObject({ token: null, title_property: 'Name', summary_property: 'TL;DR' });
    expect(list[1].config).toMatchObject({ mode: 'rest', api_key: null, target_folder: 'AI Daily/' });
    expect(list[2].config).toMatchObject({ feed_url: 'http://127.0.0.1:8789/api/v1/feed.xml', max_items: 20 });
  });

  it.each([
    ['notion without a token', 'notion', { enabled: true }, 'Cannot enable notion: Notion token is required'],
    [
      'notion without a database',
      'notion',
      { enabled: true, config: { token: 'secret_x' } },
      'Cannot enable notion: Notion database_id or parent_page_id is required',
    ],
    ['obsidian in file mode', 'obsidian', { config: { mode: 'file', vault_path: '/home/me/vault' } }, FILE_MODE],
    [
      'obsidian without a key',
      'obsidian',
      { enabled: true, config: { api_url: 'http://127.0.0.1:1' } },
      'Cannot enable obsidian: Obsidian api_key is required in rest mode',
    ],
  ])('refuses %s with 422', async (_n, id, body, detail) => {
    const res = await api.patch(`/api/v1/destinations/${id}`, body);
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ detail });
  });

  it.each([
    ['unknown id', 'PATCH', '/api/v1/destinations/email', { enabled: true }, 404],
    ['unknown config key', 'PATCH', '/api/v1/destinations/rss', { config: { nope: 1 } }, 422],
    ['bad max_items', 'PATCH', '/api/v1/destinations/rss', { config: { max_items: 500 } }, 422],
    ['unknown id test', 'POST', '/api/v1/destinations/email/test', {}, 404],
  ])('%s -> %i', async (_n, method, path, body, status) => {
    const res = method === 'PATCH' ? await api.patch(path, body) : await api.post(path, body);
    expect(res.status).toBe(status);
  });

  it('tests Notion connectivity before saving, then saves with the token encrypted and masked', async () => {
    const dbUrl = `https://www.notion.so/acme/Reports-${notion.databaseId}?v=1`;
    const config = { token: notion.token, database_id: dbUrl, api_url: notion.url };
    const bad = (await (
      await api.post('/api/v1/destinations/notion/test', { config: { ...config, token: 'secret_wrong' } })
    ).json()) as any;
    expect(bad).toMatchObject({
      success: false,
      message: 'Destination returned HTTP 401',
      mode: 'rest',
      checked_target: notion.url,
    });
    const ok = (await (await api.post('/api/v1/destinations/notion/test', { config })).json()) as any;
    expect(ok).toMatchObject({
      success: true,
      message: 'Notion database 01234567-89ab-cdef-0123-456789abcdef reachable',
    });
    expect(((await (await api.get('/api/v1/destinations/notion')).json()) as any).enabled).toBe(false);
    const saved = (await (await api.patch('/api/v1/destinations/notion', { enabled: true, config })).json()) as any;
    expect(saved.enabled).toBe(true);
    expect(saved.config).toMatchObject({
      token: '****abcd',
      database_id: '01234567-89ab-cdef-0123-456789abcdef',
      api_url: notion.url,
    });
    const [row] = await testDb().query<{ config: object; secret_enc: string }>(
      `SELECT config, secret_enc FROM pipeline.destinations WHERE id = 'notion'`,
    );
    expect(JSON.stringify(row!.config)).not.toContain(notion.token);
    expect(row!.secret_enc.startsWith('v1:')).toBe(true);
    const stored = (await (await api.post('/api/v1/destinations/notion/test')).json()) as any;
    expect(stored.success).toBe(true);
  });

  it('tests and enables the Obsidian REST bridge; a wrong key is reported', async () => {
    const wrong = (await (
      await api.post('/api/v1/destinations/obsidian/test', { config: { api_url: obsidian.url, api_key: 'nope' } })
    ).json()) as any;
    expect(wrong).toMatchObject({
      success: false,
      message: 'Obsidian REST API reachable, but the api_key was not accepted',
      mode: 'rest',
    });
    const file = (await (
      await api.post('/api/v1/destinations/obsidian/test', { config: { mode: 'file', vault_path: '/v' } })
    ).json()) as any;
    expect(file).toMatchObject({ success: false, message: FILE_MODE, mode: 'file', checked_target: '/v' });
    const ok = (await (
      await api.post('/api/v1/destinations/obsidian/test', {
        config: { api_url: obsidian.url, api_key: obsidian.apiKey },
      })
    ).json()) as any;
    expect(ok).toMatchObject({ success: true, message: 'Obsidian REST API reachable' });
    const saved = (await (
      await api.patch('/api/v1/destinations/obsidian', {
        enabled: true,
        config: { api_url: obsidian.url, api_key: obsidian.apiKey },
      })
    ).json()) as any;
    expect(saved.config).toMatchObject({ mode: 'rest', api_key: '****5678', api_url: obsidian.url });
  });

  it('an Obsidian test needs the plugin status document, not any 200', async () => {
    const other = await startFake((r) =>
      r.path === '/json/'
        ? json(200, { status: 'OK', authenticated: true })
        : { status: 200, headers: { 'content-type': 'text/html' }, body: '<!doctype html><title>Router</title>' },
    );
    try {
      const notPlugin = "but not with the Obsidian Local REST API status document: is api_url the plugin's address?";
      for (const url of [other.url, `${other.url}/json`]) {
        const out = (await (
          await api.post('/api/v1/destinations/obsidian/test', { config: { api_url: url, api_key: 'k' } })
        ).json()) as any;
        expect([url, out.success, out.message]).toEqual([url, false, `Destination answered HTTP 200, ${notPlugin}`]);
      }
      expect(other.requests.map((r) => [r.path, r.headers.authorization])).toEqual([
        ['/', 'Bearer k'],
        ['/json/', 'Bearer k'],
      ]);
    } finally {
      await other.close();
    }
  });

  it('reports a destination that is down as a network error', async () => {
    const out = (await (
      await api.post('/api/v1/destinations/obsidian/test', { config: { api_url: 'http://127.0.0.1:9' } })
    ).json()) as any;
    expect(out.success).toBe(false);
    expect(out.message.startsWith('Network error: could not reach 127.0.0.1:9')).toBe(true);
  });

  it('updates the rss feed settings and disables it', async () => {
    const res = (await (
      await api.patch('/api/v1/destinations/rss', {
        name: 'Feed',
        enabled: false,
        config: { feed_title: 'My reports', max_items: 5 },
      })
    ).json()) as any;
    expect(res).toMatchObject({ name: 'Feed', enabled: false, config: { feed_title: 'My reports', max_items: 5 } });
    expect((await (await api.post('/api/v1/destinations/rss/test')).json()) as any).toMatchObject({
      success: true,
      message: 'RSS feed configuration looks valid',
      mode: 'config',
    });
  });
});
