/**
 * The model stages of a monitor run (filter, keywords, global_summary, then report) through the real
 * queue, against the fake OpenAI-compatible server answering per stage.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from '../../support/fakes/chat-server.ts';
import { startFeedServer, type FeedServer } from '../../support/fakes/feed-server.ts';
import { testDb } from '../../support/env.ts';
import type { Served } from '../../support/serve.ts';
import { type adminClient, resetPipeline, waitForTask, withQueue } from './helpers.ts';

let feeds: FeedServer;
let llm: ChatServer;
let served: Served;
let api: ReturnType<typeof adminClient>;
let sourceIds: string[];

const ALL = {
  filter: { primary: 'llm_alpha' },
  keywords: { primary: 'llm_alpha' },
  global_summary: { primary: 'llm_alpha' },
};

function socialFeed(base: string): string {
  const d = (h: number) => new Date(Date.now() + h * 3_600_000).toUTCString();
  return `<?xml version="1.0"?><rss version="2.0"><channel><title>Social</title><link>${base}/</link><description>d</description>
<item><title>Agents ship faster</title><link>${base}/social/agents</link><description>Agents now ship with tools.</description><pubDate>${d(1)}</pubDate></item>
<item><title>Sponsored: GPU cloud for agents</title><link>${base}/social/ad</link><description>Sponsored post about agents.</description><pubDate>${d(-0.5)}</pubDate></item>
</channel></rss>`;
}

beforeAll(async () => {
  await resetPipeline();
  [feeds, llm] = await Promise.all([startFeedServer(), startChatServer()]);
  feeds.route('/social.xml', {
    status: 200,
    headers: { 'content-type': 'application/rss+xml' },
    body: socialFeed(feeds.url),
  });
  ({ served, api } = await withQueue());
  sourceIds = [];
  for (const [name, path, category] of [
    ['Blog', '/rss.xml', 'blog'],
    ['Papers', '/atom.xml', 'academic'],
    ['Social', '/social.xml', 'social'],
  ]) {
    const res = await api.post('/api/v1/sources', {
      name,
      category,
      collect_method: 'rss',
      config: { feed_url: `${feeds.url}${path}` },
    });
    sourceIds.push(((await res.json()) as { id: string }).id);
  }
  // max_retry 0: every delivery of a step makes exactly one call, so the queue's retries are what is counted.
  await api.patch('/api/v1/providers/llm_alpha', {
    enabled: true,
    config: { base_url: `${llm.url}/v1`, api_key: llm.key, model: 'stage-model', max_retry: 0 },
  });
});
afterAll(async () => {
  await served.close();
  await Promise.all([feeds.close(), llm.close()]);
});
beforeEach(() => {
  llm.calls.length = 0;
  llm.replies = {};
  llm.down = false;
});

async function run(stages: Record<string, unknown>, destinations: string[] = []) {
  const created = await api.post('/api/v1/monitors', {
    name: 'Staged',
    source_ids: sourceIds,
    destination_ids: destinations,
    ai_routing: { stages },
  });
  expect(created.status).toBe(201);
  const m = (await created.json()) as { id: string };
  const started = (await (await api.post(`/api/v1/monitors/${m.id}/run`)).json()) as { run_id: string };
  const task = await waitForTask(api, started.run_id);
  const detail = (await (await api.get(`/api/v1/monitors/${m.id}/runs/${started.run_id}`)).json()) as {
    steps: Record<string, any>[];
  };
  const [row] = await testDb().query<{ id: string }>(`SELECT id FROM pipeline.reports WHERE run_id = $1`, [task.id]);
  const report = (await (await api.get(`/api/v1/reports/${row!.id}`)).json()) as Record<string, any>;
  const events = (await (await api.get(`/api/v1/monitors/${m.id}/runs/${task.id}/events`)).json()) as Record<
    string,
    any
  >[];
  const steps = Object.fromEntries(detail.steps.map((s) => [s.step, s]));
  return {
    task,
    steps,
    report,
    events,
    summary: Object.fromEntries(detail.steps.map((s) => [s.step, [s.status, s.attempts]])),
  };
}

async function urlsOf(ids: string[]): Promise<string[]> {
  const rows = await testDb().query<{ url: string }>(
    `SELECT url FROM pipeline.articles WHERE id = ANY($1::uuid[]) ORDER BY url`,
    [ids],
  );
  return rows.map((r) => r.url);
}

describe('monitor model stages', () => {
  it('filter drops what the model rejects, keywords become topics, the global summary is the TL;DR, each a queued step', async () => {
    const r = await run({ ...ALL, report: { primary: 'llm_alpha' } }, ['rss']);
    expect(r.task).toMatchObject({ status: 'success', articles_count: 7, error_message: null });
    expect(r.summary).toEqual({
      collect: ['success', 1],
      filter: ['success', 1],
      keywords: ['success', 1],
      global_summary: ['success', 1],
      report: ['success', 1],
      'publish:rss': ['success', 1],
    });
    expect(llm.calls).toEqual(['filter', 'keywords', 'global_summary', 'report']);
    expect(await urlsOf(r.steps.filter.result.dropped_ids)).toEqual([`${feeds.url}/social/ad`]);
    expect(r.report.article_ids.length).toBe(6);
    expect(r.report.article_ids).toEqual(r.steps.filter.result.kept_ids);

    const tldr = 'Model summary of 6 items, led by Agents ship faster.';
    expect(r.report.tldr).toBe(tldr);
    expect(r.report.metadata.global_tldr).toBe(tldr);
    expect(r.report.metadata.tldr).toEqual([tldr]);
    expect(r.report.content.startsWith('TL;DR: model digest of 6 articles.')).toBe(true);
    expect(r.report.topics).toEqual(r.report.metadata.topics);
    expect(r.report.topics.length).toBe(10);
    expect(r.report.topics.slice(0, 3)).toEqual([
      { name: 'blog', weight: 3 },
      { name: 'academic', weight: 2 },
      { name: 'Atom', weight: 2 },
    ]);
    expect(r.report.topics.slice(3).every((t: any) => t.weight === 1)).toBe(true);
    const stage = { provider: 'llm_alpha', model: 'stage-model', provider_attempts: 1, fallback: null };
    expect(r.report.metadata.stages).toEqual({
      filter: { ...stage, input: 7, output: 6 },
      keywords: { ...stage, rule_filled: 0 },
      global_summary: stage,
    });
    expect(r.report.metadata.writer).toMatchObject(stage);
    expect(r.task.stage_trace.map((t: any) => [t.stage, t.status, t.input ?? null, t.output ?? null])).toEqual([
      ['collect', 'success', null, null],
      ['filter', 'success', 7, 6],
      ['keywords', 'success', null, null],
      ['global_summary', 'success', null, null],
      ['report', 'success', null, null],
      ['publish:rss', 'success', null, null],
    ]);
    expect(r.events.filter((e) => e.event_type === 'step_succeeded').map((e) => e.stage)).toEqual([
      'collect',
      'filter',
      'keywords',
      'global_summary',
      'report',
      'publish:rss',
    ]);
  });

  it('a stage whose provider fails twice is retried by the queue and then answers', async () => {
    llm.failStage('filter', 2, 503);
    const r = await run({ filter: { primary: 'llm_alpha' } });
    expect(r.task.status).toBe('success');
    expect(r.summary).toEqual({ collect: ['success', 1], filter: ['success', 3], report: ['success', 1] });
    expect(llm.calls).toEqual(['filter', 'filter', 'filter']);
    expect(r.steps.filter.error).toBe(null);
    expect(r.events.filter((e) => e.event_type === 'step_retry').map((e) => [e.stage, e.message])).toEqual([
      ['filter', 'provider llm_alpha failed after 1 attempt(s): Provider returned HTTP 503'],
      ['filter', 'provider llm_alpha failed after 1 attempt(s): Provider returned HTTP 503'],
    ]);
    expect(r.report.metadata.stages.filter).toEqual({
      provider: 'llm_alpha',
      model: 'stage-model',
      provider_attempts: 1,
      fallback: null,
      input: 7,
      output: 6,
    });
    expect(r.report.metadata.stages.keywords).toEqual({ provider: null, fallback: 'rule keywords' });
  });

  it('an unusable answer is asked again in the run, a provider that is down is retried by the queue, then each stage falls back and the run is partial_success', async () => {
    llm.replies.filter = () => 'I think all of them are relevant.';
    llm.failStage('keywords', 10, 503);
    llm.replies.global_summary = () => '```json\n{"global_tldr": ""}\n```';
    const r = await run(ALL);
    llm.failStage('keywords', 0);
    const filterNote = 'filter: kept all (answer not usable): model answer is not a JSON object';
    const keywordsNote = 'keywords: rule keywords (provider failed): Provider returned HTTP 503';
    const summaryNote = 'global_summary: extractive (answer not usable): global_summary answer has no global_tldr';
    expect(r.task).toMatchObject({
      status: 'partial_success',
      error_message: [filterNote, keywordsNote, summaryNote].join('; '),
    });
    // Unusable answers: 3 calls in one delivery each (PIPELINE_INRUN_RETRIES 2); the 503s: 4 deliveries.
    expect(r.summary).toEqual({
      collect: ['success', 1],
      filter: ['success', 1],
      keywords: ['success', 4],
      global_summary: ['success', 1],
      report: ['success', 1],
    });
    expect(llm.calls).toEqual([
      ...Array(3).fill('filter'),
      ...Array(4).fill('keywords'),
      ...Array(3).fill('global_summary'),
    ]);
    expect(r.report.metadata.stages).toEqual({
      filter: {
        provider: 'llm_alpha',
        provider_attempts: 3,
        fallback: 'kept all (answer not usable)',
        provider_error: 'model answer is not a JSON object',
        input: 7,
        output: 7,
      },
      keywords: {
        provider: 'llm_alpha',
        provider_attempts: 1,
        fallback: 'rule keywords (provider failed)',
        provider_error: 'Provider returned HTTP 503',
      },
      global_summary: {
        provider: 'llm_alpha',
        provider_attempts: 3,
        fallback: 'extractive (answer not usable)',
        provider_error: 'global_summary answer has no global_tldr',
      },
    });
    expect(r.report.metadata.degraded).toEqual([filterNote, keywordsNote, summaryNote]);
    expect(r.report.content).toContain(`## Run notes\n\n- ${filterNote}\n`);
    expect(r.report.article_ids.length).toBe(7);
    expect(r.report.tldr.startsWith('7 new items from 3 sources: Agents ship faster; ')).toBe(true);
    expect(r.report.content.startsWith(`> 7 new items from 3 sources: Agents ship faster; `)).toBe(true);
    expect(['agents', 'atom'].map((n) => r.report.topics.find((t: any) => t.name === n))).toEqual([
      { name: 'agents', weight: 2 },
      { name: 'atom', weight: 2 },
    ]);
    expect(r.events.filter((e) => e.event_type === 'stage_fallback').map((e) => [e.stage, e.level])).toEqual([
      ['filter', 'warning'],
      ['keywords', 'warning'],
      ['global_summary', 'warning'],
    ]);
    expect(r.events.filter((e) => e.event_type === 'answer_retry').map((e) => e.stage)).toEqual([
      'filter',
      'filter',
      'global_summary',
      'global_summary',
    ]);
    expect(r.events.filter((e) => e.event_type === 'step_retry').map((e) => e.stage)).toEqual([
      'keywords',
      'keywords',
      'keywords',
    ]);
  });

  it('a bound but disabled provider is not called and the fallback says so', async () => {
    const r = await run({ filter: { primary: 'llm_beta' }, global_summary: { primary: 'llm_beta' } });
    expect(r.summary).toEqual({
      collect: ['success', 1],
      filter: ['success', 1],
      global_summary: ['success', 1],
      report: ['success', 1],
    });
    expect(llm.calls).toEqual([]);
    expect(r.report.metadata.stages).toEqual({
      filter: { provider: 'llm_beta', fallback: 'kept all (provider llm_beta disabled)', input: 7, output: 7 },
      keywords: { provider: null, fallback: 'rule keywords' },
      global_summary: { provider: 'llm_beta', fallback: 'extractive (provider llm_beta disabled)' },
    });
  });

  it('a filter that keeps nothing leaves an honest empty report', async () => {
    llm.replies.filter = () => 'Sure: {"keep_indices": []}';
    const r = await run({ filter: { primary: 'llm_alpha' }, keywords: { primary: 'llm_alpha' } });
    expect(r.summary).toEqual({
      collect: ['success', 1],
      filter: ['success', 1],
      keywords: ['success', 1],
      report: ['success', 1],
    });
    expect(llm.calls).toEqual(['filter']);
    expect(r.report).toMatchObject({
      article_ids: [],
      topics: [],
      tldr: 'The filter kept none of the 7 new items.',
      content: '> The filter kept none of the 7 new items.',
    });
  });
});
