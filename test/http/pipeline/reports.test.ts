import { beforeAll, describe, expect, it } from 'vitest';
import pipeline from '../../../functions/pipeline.ts';
import { testDb, workerClient } from '../../support/env.ts';
import { adminClient, resetPipeline } from './helpers.ts';

const api = adminClient();
const pub = workerClient(pipeline);
const MONITOR = '11111111-1111-4111-8111-111111111111';
const HOSTILE = [
  'TL;DR: <script>alert("x")</script> & more',
  '',
  '## Items <img src=x onerror=alert(1)>',
  '',
  '- [click](javascript:alert(1)) and [ok](https://example.org/a?b=1&c=2)',
  '- **bold** `<b>code</b>` "quoted" \'single\'',
  '',
  '```',
  '</code></pre><script>alert(3)</script>',
  '```',
].join('\n');

const ids: Record<string, string> = {};

async function report(
  key: string,
  fields: {
    title: string;
    time_period: string;
    report_type: string;
    date: string;
    categories: string[];
    monitor?: string;
    content?: string;
    created?: string;
  },
) {
  const id = crypto.randomUUID();
  ids[key] = id;
  await testDb().query(
    `INSERT INTO pipeline.reports (id, monitor_id, time_period, report_type, title, content, article_ids, metadata, published_to, report_date, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, '["a","b"]', $7::jsonb, '["database"]', $8::date, $9::timestamptz)`,
    [
      id,
      fields.monitor ?? null,
      fields.time_period,
      fields.report_type,
      fields.title,
      fields.content ?? 'Body',
      JSON.stringify({
        global_tldr: `tldr of ${fields.title}`,
        categories: fields.categories,
        monitor_name: fields.monitor ? 'Daily digest' : undefined,
      }),
      fields.date,
      fields.created ?? `${fields.date}T08:00:00Z`,
    ],
  );
}

beforeAll(async () => {
  await resetPipeline();
  await report('d1', {
    title: 'Daily one',
    time_period: 'daily',
    report_type: 'daily',
    date: '2026-11-01',
    categories: ['blog'],
    monitor: MONITOR,
  });
  await report('d2', {
    title: 'Daily two',
    time_period: 'daily',
    report_type: 'daily',
    date: '2026-11-02',
    categories: ['academic', 'blog'],
    monitor: MONITOR,
  });
  await report('w1', {
    title: 'Weekly <one> & "x"',
    time_period: 'weekly',
    report_type: 'weekly',
    date: '2026-11-02',
    categories: ['social'],
    created: '2026-11-02T09:00:00Z',
    content: HOSTILE,
  });
  await report('r1', {
    title: 'Research',
    time_period: 'custom',
    report_type: 'research',
    date: '2026-10-01',
    categories: [],
  });
});

describe('reports API', () => {
  it('lists newest report_date first (created_at breaks ties), without content, with the total', async () => {
    const res = await api.get('/api/v1/reports');
    expect(res.headers.get('x-total-count')).toBe('4');
    const list = (await res.json()) as any[];
    expect(list.map((r) => r.id)).toEqual([ids.w1, ids.d2, ids.d1, ids.r1]);
    expect(list[1]).toEqual({
      id: ids.d2,
      title: 'Daily two',
      time_period: 'daily',
      report_type: 'daily',
      report_date: '2026-11-02',
      monitor_id: MONITOR,
      monitor_name: 'Daily digest',
      tldr: 'tldr of Daily two',
      categories: ['academic', 'blog'],
      article_count: 2,
      published_to: ['database'],
      created_at: '2026-11-02T08:00:00.000Z',
    });
  });

  it.each([
    ['?time_period=daily', ['d2', 'd1']],
    ['?report_type=research', ['r1']],
    [`?monitor_id=${MONITOR}`, ['d2', 'd1']],
    ['?limit=2&page=2', ['d1', 'r1']],
    ['?limit=2&page=3', []],
  ])('filters %s', async (q, keys) => {
    const list = (await (await api.get(`/api/v1/reports${q}`)).json()) as any[];
    expect(list.map((r) => r.id)).toEqual(keys.map((k) => ids[k]));
  });

  it.each(['?limit=0', '?limit=101', '?page=0', '?time_period=hourly', '?monitor_id=x'])(
    'rejects %s with 422',
    async (q) => {
      expect((await api.get(`/api/v1/reports${q}`)).status).toBe(422);
    },
  );

  it('lists the filter values of existing reports', async () => {
    expect(await (await api.get('/api/v1/reports/filters')).json()).toEqual({
      time_periods: ['custom', 'daily', 'weekly'],
      report_types: ['daily', 'research', 'weekly'],
      categories: ['academic', 'blog', 'social'],
      monitors: [{ id: MONITOR, name: 'Daily digest' }],
    });
  });

  it('reads one report with content, metadata and trace', async () => {
    const r = (await (await api.get(`/api/v1/reports/${ids.w1}`)).json()) as any;
    expect(r).toMatchObject({ id: ids.w1, content: HOSTILE, article_ids: ['a', 'b'], publish_trace: [], run_id: null });
  });

  it('answers the reserved custom endpoint with 501 and the request echoed', async () => {
    const body = { title: 'T', prompt: 'P' };
    const res = await api.post('/api/v1/reports/custom', body);
    expect(res.status).toBe(501);
    expect(await res.json()).toEqual({
      detail: {
        message: 'Not implemented (P2)',
        request_echo: { title: 'T', prompt: 'P', time_period: 'custom', report_type: 'research' },
      },
    });
    expect((await api.post('/api/v1/reports/custom', {})).status).toBe(422);
  });

  it.each([
    ['no destination', {}, 422, 'destination_id or destination_ids is required'],
    ['unknown destination', { destination_id: 'email' }, 404, 'Destination email not found'],
    ['disabled destination', { destination_id: 'notion' }, 409, 'Destination notion is disabled'],
  ])('publish again with %s -> %i', async (_n, body, status, detail) => {
    const res = await api.post(`/api/v1/reports/${ids.d1}/publish`, body);
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual({ detail });
  });

  it('publishes again to the rss destination and records the trace', async () => {
    const res = await api.post(`/api/v1/reports/${ids.d1}/publish`, { destination_ids: ['rss'] });
    expect(res.status).toBe(200);
    const out = (await res.json()) as any;
    expect(out.results).toEqual([
      { destination_id: 'rss', status: 'success', url: 'http://127.0.0.1:8789/api/v1/feed.xml' },
    ]);
    expect(out.report.published_to).toEqual(['database', 'rss']);
    expect(out.report.publish_trace).toMatchObject([{ sink: 'rss', status: 'success', trigger: 'manual' }]);
  });

  it('publishing to a destination that is down answers 502 and records the failure', async () => {
    await testDb().query(
      `UPDATE pipeline.destinations SET enabled = true, config = config || '{"api_url": "http://127.0.0.1:9"}'::jsonb, secret_enc = NULL WHERE id = 'obsidian'`,
    );
    const res = await api.post(`/api/v1/reports/${ids.d1}/publish`, { destination_id: 'obsidian' });
    expect(res.status).toBe(502);
    const body = (await res.json()) as any;
    expect(body.detail.results).toEqual([
      {
        destination_id: 'obsidian',
        status: 'failed',
        error: 'Obsidian api_key is required in rest mode',
        permanent: false,
      },
    ]);
  });

  it('deletes a report', async () => {
    expect((await api.delete(`/api/v1/reports/${ids.r1}`)).status).toBe(204);
    expect((await api.get(`/api/v1/reports/${ids.r1}`)).status).toBe(404);
    expect((await api.delete(`/api/v1/reports/${ids.r1}`)).status).toBe(404);
    expect((await api.get('/api/v1/reports/xyz')).status).toBe(422);
  });
});

describe('public pages and feed', () => {
  it('renders the report list with every title escaped', async () => {
    const res = await pub.get('/reports');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    const html = await res.text();
    expect(html).toContain(
      `<a class="report-link" href="/reports/${ids.w1}">Weekly &lt;one&gt; &amp; &quot;x&quot;</a>`,
    );
    expect([...html.matchAll(/class="report-link"/g)].length).toBe(3);
  });

  it('renders Markdown as safe HTML: no tag, attribute or javascript: URL from the content survives', async () => {
    const html = await (await pub.get(`/reports/${ids.w1}`)).text();
    const content = html.slice(html.indexOf('<div id="report-content">'));
    // a quote in text needs no escaping: marked leaves this one as it is (the list item's quotes it escapes)
    expect(content).toContain('<p>TL;DR: &lt;script&gt;alert("x")&lt;/script&gt; &amp; more</p>');
    expect(content).toContain('<h2>Items &lt;img src=x onerror=alert(1)&gt;</h2>');
    expect(content).toContain(
      '<li>click and <a href="https://example.org/a?b=1&amp;c=2" rel="nofollow noopener noreferrer">ok</a></li>',
    );
    expect(content).toContain(
      '<li><strong>bold</strong> <code>&lt;b&gt;code&lt;/b&gt;</code> &quot;quoted&quot; &#39;single&#39;</li>',
    );
    expect(content).toContain('<pre><code>&lt;/code&gt;&lt;/pre&gt;&lt;script&gt;alert(3)&lt;/script&gt;</code></pre>');
    expect(html).not.toMatch(/<script|<img|<iframe|href="javascript:|\son\w+="/i);
  });

  it.each([['/reports/not-a-uuid'], ['/reports/00000000-0000-4000-8000-000000000000']])(
    '%s -> 404 page',
    async (path) => {
      const res = await pub.get(path);
      expect(res.status).toBe(404);
      expect(await res.text()).toContain('<h1>Report not found</h1>');
    },
  );

  it('serves valid RSS 2.0 of recent reports, max_items honoured', async () => {
    const res = await pub.get('/api/v1/feed.xml?max_items=2');
    expect(res.status).toBe(200);
    const xml = await res.text();
    expect(
      xml.startsWith(
        '<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/">',
      ),
    ).toBe(true);
    const items = [...xml.matchAll(/<item>([\s\S]*?)<\/item>/g)].map((m) => m[1]!);
    expect(items.length).toBe(2);
    expect(items[0]).toContain('<title>Weekly &lt;one&gt; &amp; &quot;x&quot;</title>');
    expect(items[0]).toContain(`<link>http://127.0.0.1:8789/reports/${ids.w1}</link>`);
    expect(items[0]).toContain(`<guid isPermaLink="false">${ids.w1}</guid>`);
    expect(items[0]).toContain('<pubDate>Mon, 02 Nov 2026 09:00:00 GMT</pubDate>');
    expect((await pub.get('/api/v1/feed.xml?max_items=0')).status).toBe(422);
  });
});
