/**
 * End to end on the local stack: a source at a local feed, a triggered task that succeeds through the
 * queue, a monitor run (every model stage on the LLM provider, Obsidian and RSS destinations), and the report in the API list,
 * on its page, in the RSS feed and in the fake Obsidian vault.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pipeline from '../../functions/pipeline.ts';
import { startChatServer, type ChatServer } from '../support/fakes/chat-server.ts';
import { startFeedServer, type FeedServer } from '../support/fakes/feed-server.ts';
import { startObsidianServer, type ObsidianServer } from '../support/fakes/obsidian-server.ts';
import { workerClient } from '../support/env.ts';
import type { Served } from '../support/serve.ts';
import { type adminClient, resetPipeline, waitForTask, withQueue } from '../http/pipeline/helpers.ts';

let feeds: FeedServer;
let llm: ChatServer;
let obsidian: ObsidianServer;
let served: Served;
let api: ReturnType<typeof adminClient>;

beforeAll(async () => {
  await resetPipeline();
  [feeds, llm, obsidian] = await Promise.all([startFeedServer(), startChatServer(), startObsidianServer()]);
  ({ served, api } = await withQueue());
});
afterAll(async () => {
  await served.close();
  await Promise.all([feeds.close(), llm.close(), obsidian.close()]);
});

describe('pipeline end to end', () => {
  it('source -> task -> monitor run -> report in list, page, feed and Obsidian', async () => {
    const source = (await (
      await api.post('/api/v1/sources', {
        name: 'Local blog',
        category: 'blog',
        collect_method: 'rss',
        config: { feed_url: `${feeds.url}/rss.xml` },
      })
    ).json()) as any;
    const triggered = (await (await api.post('/api/v1/tasks/trigger', { source_id: source.id })).json()) as any;
    expect(triggered.status).toBe('pending');
    expect(await waitForTask(api, triggered.id)).toMatchObject({ status: 'success', articles_count: 3 });

    expect(
      (
        await api.patch('/api/v1/providers/llm_beta', {
          enabled: true,
          config: { base_url: `${llm.url}/v1`, api_key: llm.key, model: 'e2e-model' },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await api.patch('/api/v1/destinations/obsidian', {
          enabled: true,
          config: { api_url: obsidian.url, api_key: obsidian.apiKey },
        })
      ).status,
    ).toBe(200);
    const monitor = (await (
      await api.post('/api/v1/monitors', {
        name: 'E2E digest',
        source_ids: [source.id],
        destination_ids: ['obsidian', 'rss'],
        ai_routing: {
          stages: {
            filter: { primary: 'llm_beta' },
            keywords: { primary: 'llm_beta' },
            global_summary: { primary: 'llm_beta' },
            report: { primary: 'llm_beta' },
          },
        },
      })
    ).json()) as any;
    const run = (await (await api.post(`/api/v1/monitors/${monitor.id}/run`)).json()) as any;
    expect(await waitForTask(api, run.run_id)).toMatchObject({ status: 'success', articles_count: 3 });
    expect(llm.calls).toEqual(['filter', 'keywords', 'global_summary', 'report']);

    const list = (await (await api.get('/api/v1/reports')).json()) as any[];
    expect(list.length).toBe(1);
    const report = (await (await api.get(`/api/v1/reports/${list[0].id}`)).json()) as any;
    expect(report).toMatchObject({
      title: `E2E digest — ${report.report_date}`,
      monitor_id: monitor.id,
      article_count: 3,
      published_to: ['database', 'obsidian', 'rss'],
      tldr: 'Model summary of 3 items, led by Release notes.',
    });
    expect(report.topics.slice(0, 1)).toEqual([{ name: 'blog', weight: 3 }]);
    expect(report.content).toContain(`- [Second & final post](${feeds.url}/posts/second)`);

    const page = await workerClient(pipeline, api.env).get(`/reports/${report.id}`);
    const html = await page.text();
    expect(html).toContain(`<h1 id="report-title">E2E digest — ${report.report_date}</h1>`);
    expect(html).toContain(
      `<a href="${feeds.url}/posts/second" rel="nofollow noopener noreferrer">Second &amp; final post</a>`,
    );

    const feed = await (await workerClient(pipeline, api.env).get('/api/v1/feed.xml')).text();
    expect(feed).toContain(`<guid isPermaLink="false">${report.id}</guid>`);
    expect(feed).toContain(`<link>http://pipeline.test/reports/${report.id}</link>`);

    const note = obsidian.files.get(`AI Daily/${report.report_date} E2E digest — ${report.report_date}.md`);
    expect(note).toBe(`# ${report.title}\n\n${report.content}\n`);
  });
});
