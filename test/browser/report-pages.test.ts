/**
 * Report pages in headless Chromium: a monitor run on the local stack writes a report from a feed with
 * hostile markup and a model answer carrying script; the list and detail pages are served over HTTP
 * and loaded in Chromium, which must show the text and run no script (no dialog, no console error
 * from injected code, no <script> element in the DOM). Topics come from a keywords stage whose model
 * answer carries markup too. The RSS feed is parsed by Chromium's XML parser and checked for the
 * elements RSS 2.0 requires.
 */
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pipeline from '../../functions/pipeline.ts';
import { startChatServer, type ChatServer } from '../support/fakes/chat-server.ts';
import { startFeedServer, type FeedServer } from '../support/fakes/feed-server.ts';
import { testEnv } from '../support/env.ts';
import { serveWorker, type Served } from '../support/serve.ts';
import { type adminClient, resetPipeline, waitForTask, withQueue } from '../http/pipeline/helpers.ts';

let browser: Browser;
let feeds: FeedServer;
let llm: ChatServer;
let delivery: Served;
let site: Served;
let api: ReturnType<typeof adminClient>;
let reportId: string;

const EVIL =
  'TL;DR: <script>window.__pwned = 1</script> digest\n\n## <img src=x onerror="window.__pwned = 2">Items\n\n- [run](javascript:window.__pwned=3) and [safe](https://example.org/)';

beforeAll(async () => {
  await resetPipeline();
  [feeds, llm] = await Promise.all([startFeedServer(), startChatServer()]);
  ({ served: delivery, api } = await withQueue());
  site = await serveWorker(pipeline, () => testEnv({ DELIVERY_URL: delivery.url }));
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });

  const source = (await (
    await api.post('/api/v1/sources', {
      name: 'Hostile feed',
      category: 'blog',
      collect_method: 'rss',
      config: { feed_url: `${feeds.url}/rss.xml` },
    })
  ).json()) as any;
  await api.patch('/api/v1/providers/llm_alpha', {
    enabled: true,
    config: { base_url: `${llm.url}/v1`, api_key: llm.key },
  });
  llm.replies.report = () => EVIL;
  llm.replies.keywords = () =>
    JSON.stringify({
      items: [
        { index: 0, keywords: ['<script>window.__pwned = 4</script>', '<b onmouseover="window.__pwned = 5">bold</b>'] },
      ],
    });
  const monitor = (await (
    await api.post('/api/v1/monitors', {
      name: 'Browser digest',
      source_ids: [source.id],
      destination_ids: ['rss'],
      ai_routing: { stages: { keywords: { primary: 'llm_alpha' }, report: { primary: 'llm_alpha' } } },
    })
  ).json()) as any;
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
    expect(await page.locator('#report-content script, #report-content img, #report-content [onerror]').count()).toBe(
      0,
    );
    expect(await page.locator('#report-content p').first().textContent()).toBe(
      'TL;DR: <script>window.__pwned = 1</script> digest',
    );
    expect(await page.locator('#report-content h2').textContent()).toBe(
      '<img src=x onerror="window.__pwned = 2">Items',
    );
    const hrefs = await page.locator('#report-content a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual(['https://example.org/']);
    // The model's keywords of the first article lead; the two it left out got rule keywords.
    expect((await page.locator('#report-topics li').allTextContents()).slice(0, 2)).toEqual([
      '<script>window.__pwned = 4</script> 1',
      '<b onmouseover="window.__pwned = 5">bold</b> 1',
    ]);
    expect(
      await page.locator('#report-topics *').evaluateAll((els) => [...new Set(els.map((e) => e.tagName))]),
    ).toEqual(['LI', 'SPAN']);
    expect(dialogs).toEqual([]);
    await page.close();
  });

  it('serves the RSS feed as well-formed RSS 2.0 with the required elements', async () => {
    const page = await browser.newPage();
    const res = await page.goto(`${site.url}/reports`);
    expect(res?.status()).toBe(200);
    const xml = await (await fetch(`${site.url}/api/v1/feed.xml`)).text();
    const parsed = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'application/xml');
      const channel = doc.querySelector('rss > channel');
      const child = (el: Element | null | undefined, name: string) =>
        [...(el?.children ?? [])].find((c) => c.tagName === name)?.textContent ?? null;
      return {
        errors: doc.getElementsByTagName('parsererror').length,
        root: doc.documentElement.tagName,
        version: doc.documentElement.getAttribute('version'),
        channel: ['title', 'link', 'description'].map((n) => child(channel, n) !== null),
        self: channel?.getElementsByTagNameNS('http://www.w3.org/2005/Atom', 'link')[0]?.getAttribute('rel') ?? null,
        items: [...(channel?.querySelectorAll(':scope > item') ?? [])].map((i) => ({
          title: child(i, 'title'),
          link: child(i, 'link'),
          guid: child(i, 'guid'),
          date: !Number.isNaN(Date.parse(child(i, 'pubDate') ?? '')),
          description: child(i, 'description'),
        })),
      };
    }, xml);
    expect(parsed).toEqual({
      errors: 0,
      root: 'rss',
      version: '2.0',
      channel: [true, true, true],
      self: 'self',
      items: [
        {
          title: expect.stringMatching(/^Browser digest — \d{4}-\d{2}-\d{2}$/),
          link: `${String(testEnv().PIPELINE_URL).replace(/\/+$/, '')}/reports/${reportId}`,
          guid: reportId,
          date: true,
          description: '<script>window.__pwned = 1</script> digest',
        },
      ],
    });
    await page.close();
  });
});
