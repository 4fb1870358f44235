/**
 * Report pages in headless Chromium: a monitor run on the local stack writes a report from a feed with
 * hostile markup and a model answer carrying script; the list and detail pages are served over HTTP
 * and loaded in Chromium, which must show the text and run no script (no dialog, no console error
 * from injected code, no <script> element in the DOM).
 */
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pipeline from '../../functions/pipeline.ts';
import { startChatServer, type ChatServer } from '../support/fakes/chat-server.ts';
import { startFeedServer, type FeedServer } from '../support/fakes/feed-server.ts';
import { testEnv } from '../support/env.ts';
import { serveWorker, type Served } from '../support/serve.ts';
import { adminClient, resetPipeline, waitForTask, withQueue } from '../http/pipeline/helpers.ts';

let browser: Browser;
let feeds: FeedServer;
let llm: ChatServer;
let delivery: Served;
let site: Served;
let api: ReturnType<typeof adminClient>;
let reportId: string;

const EVIL = 'TL;DR: <script>window.__pwned = 1</script> digest\n\n## <img src=x onerror="window.__pwned = 2">Items\n\n- [run](javascript:window.__pwned=3) and [safe](https://example.org/)';

beforeAll(async () => {
  await resetPipeline();
  [feeds, llm] = await Promise.all([startFeedServer(), startChatServer()]);
  ({ served: delivery, api } = await withQueue());
  site = await serveWorker(pipeline, () => testEnv({ DELIVERY_URL: delivery.url }));
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });

  const source = (await (await api.post('/api/v1/sources', { name: 'Hostile feed', category: 'blog', collect_method: 'rss', config: { feed_url: `${feeds.url}/rss.xml` } })).json()) as any;
  await api.patch('/api/v1/providers/llm_alpha', { enabled: true, config: { base_url: `${llm.url}/v1`, api_key: llm.key } });
  llm.reply = () => EVIL;
  const monitor = (await (await api.post('/api/v1/monitors', { name: 'Browser digest', source_ids: [source.id], destination_ids: ['rss'], ai_routing: { stages: { report: { primary: 'llm_alpha' } } } })).json()) as any;
  const run = (await (await api.post(`/api/v1/monitors/${monitor.id}/run`)).json()) as any;
  expect((await waitForTask(api, run.run_id)).status).toBe('success');
  reportId = ((await (await api.get('/api/v1/reports')).json()) as any[])[0].id;
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await delivery?.close();
  await Promise.all([feeds?.close(), llm?.close()]);
});

describe('report pages in Chromium', () => {
  it('lists the report and links to its page', async () => {
    const page = await browser.newPage();
    const res = await page.goto(`${site.url}/reports`);
    expect(res?.status()).toBe(200);
    const links = await page.locator('a.report-link').allTextContents();
    expect(links).toEqual([expect.stringMatching(/^Browser digest — \d{4}-\d{2}-\d{2}$/)]);
    await page.locator('a.report-link').click();
    await page.waitForURL(`${site.url}/reports/${reportId}`);
    expect(await page.locator('#report-title').textContent()).toMatch(/^Browser digest/);
    await page.close();
  });

  it('shows hostile content as text and runs none of it', async () => {
    const page = await browser.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(`${site.url}/reports/${reportId}`);
    await page.waitForLoadState('load');
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator('#report-content script, #report-content img, #report-content [onerror]').count()).toBe(0);
    expect(await page.locator('#report-content p').first().textContent()).toBe('TL;DR: <script>window.__pwned = 1</script> digest');
    expect(await page.locator('#report-content h2').textContent()).toBe('<img src=x onerror="window.__pwned = 2">Items');
    const hrefs = await page.locator('#report-content a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual(['https://example.org/']);
    expect(dialogs).toEqual([]);
    await page.close();
  });
});
