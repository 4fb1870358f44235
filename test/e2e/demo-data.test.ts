/**
 * The pipeline's demo data tells a realistic story: its sources read the sample blog the local stack
 * serves (not the pipeline's own feed), and the demo monitor's first report is about the blog's posts,
 * with correct plurals and no link back to the pipeline.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MONITOR_ID, DEMO_SITE_SOURCE_ID, DEMO_SOURCE_ID, seed } from '../../tools/seed/pipeline.ts';
import { SAMPLE_POSTS } from '../../tools/stack/sample-site.ts';
import { stackInfo } from '../support/env.ts';
import type { Served } from '../support/serve.ts';
import { resetPipeline, waitFor, waitQueueIdle, withQueue, type adminClient } from '../http/pipeline/helpers.ts';

let served: Served;
let api: ReturnType<typeof adminClient>;

beforeAll(async () => {
  await resetPipeline();
  ({ served, api } = await withQueue());
  await seed({
    databaseUrl: stackInfo().databaseUrl,
    env: { ...(api.env as unknown as Record<string, string>), SAMPLE_URL: stackInfo().sampleUrl },
  });
});
afterAll(() => served?.close());

describe('pipeline demo data', () => {
  it.each([
    [DEMO_SOURCE_ID, 'rss'],
    [DEMO_SITE_SOURCE_ID, 'html'],
  ])('source %s reads the sample blog (%s)', async (id, format) => {
    const out = (await (await api.post(`/api/v1/sources/${id}/test`)).json()) as {
      success: boolean;
      format: string;
      message: string;
      sample_articles: { title: string; url: string }[];
    };
    expect(out).toMatchObject({
      success: true,
      format,
      message: `Connection successful. Retrieved ${SAMPLE_POSTS.length} items.`,
    });
    expect(out.sample_articles.map((a) => [a.title, a.url])).toEqual(
      SAMPLE_POSTS.slice(0, 3).map((p) => [p.title, `${stackInfo().sampleUrl}/posts/${p.slug}`]),
    );
  });

  it('the demo monitor writes a report about the blog posts', async () => {
    const run = await api.post(`/api/v1/monitors/${DEMO_MONITOR_ID}/run`);
    expect(run.status).toBe(200);
    await waitQueueIdle(30_000);
    const reports = await waitFor(
      'the demo report',
      async () => {
        const list = (await (await api.get(`/api/v1/reports?monitor_id=${DEMO_MONITOR_ID}`)).json()) as {
          id: string;
          tldr: string;
          article_count: number;
        }[];
        return list.length ? list : undefined;
      },
      30_000,
    );
    expect(reports).toHaveLength(1);
    expect(reports[0]!.article_count).toBe(SAMPLE_POSTS.length);
    expect(reports[0]!.tldr).toBe(
      `${SAMPLE_POSTS.length} new items from 1 source: ${SAMPLE_POSTS.slice(0, 3)
        .map((p) => p.title)
        .join('; ')}.`,
    );
    const full = (await (await api.get(`/api/v1/reports/${reports[0]!.id}`)).json()) as { content: string };
    expect(full.content).toContain(SAMPLE_POSTS[0]!.title);
    expect(full.content).not.toContain('/api/v1/feed.xml');
    expect(full.content).not.toContain('/reports/');
  });
});
