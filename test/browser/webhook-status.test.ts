/**
 * The webhook status page in headless Chromium: a webhook whose name, URL path and receiver answers
 * carry markup and script is shown as text; no script runs (no dialog, no `__pwned`), no element
 * comes from the data, and the figures (success rate, oldest undelivered event) are those of the API.
 * Opened through a signed link (no key header): the page; through an expired link: a 403 page saying so.
 */
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pipeline from '../../functions/pipeline.ts';
import { testDb, testEnv } from '../support/env.ts';
import { serveWorker, type Served } from '../support/serve.ts';
import { api, BASE, HOOK, merchant } from '../http/webhooks/helpers.ts';

let browser: Browser;
let site: Served;
const NAME = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">';
const ANSWER = '<svg onload="window.__pwned = 3"></svg><b>busy</b>';

beforeAll(async () => {
  site = await serveWorker(pipeline, () => testEnv());
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

describe('webhook status page', () => {
  it('shows hostile data as text and the figures of the API', async () => {
    const m = await merchant('MERCH_STATUS_PAGE');
    const created = (await (
      await api().post(
        BASE,
        {
          webhook_url: 'https://hooks.example.com/in?<b>x</b>',
          name: NAME,
          event_categories: [{ event_category: 'book', subscribed: true }],
        },
        m.headers,
      )
    ).json()) as any;
    const oid = created.webhook.webhook_oid as number;
    await testDb().query('UPDATE webhooks.webhooks SET disabled = true WHERE webhook_oid = $1', [oid]);
    // Two queued events: the first delivered after a failed attempt, the second still pending.
    await testDb().query(
      `INSERT INTO webhooks.queue (webhook_oid, event_name, payload, size, batch_id, delivered_at) VALUES
         ($1, 'book_posted', '{"t":"<i>1</i>"}', 30, 'msg_a', now()), ($1, 'book_posted', '{}', 20, 'msg_b', NULL)`,
      [oid],
    );
    await testDb().query(
      `INSERT INTO webhooks.logs (request_id, webhook_oid, batch_id, duration, queue_delay, request, request_headers, response, response_headers, status_code, success, uri, event_count) VALUES
         ($3, $1, 'msg_a', 12, 0, '{}', '[]', $2, '[]', 503, false, 'https://hooks.example.com/in', 1),
         ($4, $1, 'msg_a', 7, 0, '{}', '[]', 'ok', '[]', 200, true, 'https://hooks.example.com/in', 1)`,
      [oid, ANSWER, `req-1-${oid}`, `req-2-${oid}`],
    );
    const stats = (await (await api().get(`${BASE}/${oid}/stats`, m.headers)).json()) as any;
    expect(stats.webhook_stats).toMatchObject({
      attempts: 2,
      successful_attempts: 1,
      success_rate: 0.5,
      events_pending: 1,
    });

    const page = await browser.newPage({ extraHTTPHeaders: { 'X-UltraCart-Simple-Key': m.key } });
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    const res = await page.goto(`${site.url}${BASE}/${oid}/status`);
    expect(res?.status()).toBe(200);
    expect(await page.title()).toBe(`Webhook ${oid} status`);
    expect(await page.locator('#success-rate').textContent()).toBe('50.0 %');
    expect(await page.locator('#oldest').textContent()).toMatch(/^book_posted #q\d+, queued /);
    expect(await page.locator('#summary').textContent()).toContain(NAME);
    expect(await page.locator('#attempts').textContent()).toContain(ANSWER);
    const tags = await page.locator('body *').evaluateAll((els) => [...new Set(els.map((e) => e.tagName))].sort());
    expect(tags).toEqual(['CODE', 'H1', 'H2', 'SPAN', 'TABLE', 'TBODY', 'TD', 'TH', 'TR']);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator('#attempts tr').count()).toBe(3);
    expect(dialogs).toEqual([]);
    await page.screenshot({ path: '.tmp/webhook-status.png', fullPage: true }).catch(() => undefined);
    await page.close();
  });

  it('opens through a signed link without a key, and not once the link has expired', async () => {
    const m = await merchant('MERCH_STATUS_LINK_PAGE');
    const created = (await (await api().post(BASE, { ...HOOK, name: 'linked hook' }, m.headers)).json()) as any;
    const oid = created.webhook.webhook_oid as number;
    const issue = async (seconds: number) => {
      const res = await api().post(`${BASE}/${oid}/status_link`, { expires_in_seconds: seconds }, m.headers);
      expect(res.status).toBe(200);
      const url = new URL(((await res.json()) as any).status_link.url);
      return `${site.url}${url.pathname}${url.search}`; // the served worker's address, the API's path and token
    };
    const fresh = await issue(600);
    const short = await issue(1);
    const page = await browser.newPage(); // no key header
    const opened = await page.goto(fresh);
    expect(opened?.status()).toBe(200);
    expect(await page.title()).toBe(`Webhook ${oid} status`);
    expect(await page.locator('#summary').textContent()).toContain('linked hook');
    expect(await page.locator('#success-rate').textContent()).toBe('–');

    await new Promise((r) => setTimeout(r, 2100));
    const expired = await page.goto(short);
    expect(expired?.status()).toBe(403);
    expect(await page.title()).toBe('This link has expired');
    expect(await page.locator('#refused').getAttribute('data-reason')).toBe('expired');
    expect(await page.locator('body').textContent()).not.toContain('linked hook');
    // the same page without link or key: the API's 401
    expect((await page.goto(`${site.url}${BASE}/${oid}/status`))?.status()).toBe(401);
    await page.close();
  });
});
