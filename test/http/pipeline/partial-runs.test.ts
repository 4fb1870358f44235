/**
 * A report is never held hostage by one failure: with QStash's production retry schedule on the
 * steps (a queue retry would cost 12 s, then 2 min 28 s), a monitor over four sources of four kinds
 * (RSS, an API, an HTML page that fails twice then works, an Atom feed that is always down) and a
 * model that answers the filter stage with prose stores its report in one delivery per step: the dead
 * source and the filter's fallback are listed and the run is `partial_success`. A run whose provider
 * is down past the run's deadline ends with what it has when the deadline sweep runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScheduled } from '../../../src/pipeline/scheduled.ts';
import { startChatServer, type ChatServer } from '../../support/fakes/chat-server.ts';
import { startCollectorApis, type CollectorApis } from '../../support/fakes/collector-apis.ts';
import { blogBody, startFeedServer, type FeedServer } from '../../support/fakes/feed-server.ts';
import { startFake, type Fake } from '../../support/fakes/http-fake.ts';
import type { Served } from '../../support/serve.ts';
import { testDb } from '../../support/env.ts';
import {
  type adminClient,
  cancelPipelineMessages,
  PRODUCTION_STEP_RETRY_DELAY,
  resetPipeline,
  waitFor,
  withQueue,
} from './helpers.ts';

let feeds: FeedServer;
let apis: CollectorApis;
let llm: ChatServer;
let flaky: Fake;
let blogCalls = 0;
const served: Served[] = [];

beforeAll(async () => {
  await resetPipeline();
  [feeds, apis, llm] = await Promise.all([startFeedServer(), startCollectorApis(), startChatServer()]);
  flaky = await startFake((r) => {
    if (r.path === '/blog.html')
      return ++blogCalls <= 2
        ? { status: 502, body: 'bad gateway' }
        : { status: 200, headers: { 'content-type': 'text/html' }, body: blogBody() };
    return { status: 503, body: 'down' };
  });
});
afterAll(async () => {
  await cancelPipelineMessages();
  for (const s of served) await s.close();
  await Promise.all([feeds.close(), apis.close(), llm.close(), flaky.close()]);
});

async function stack(extra: Record<string, string> = {}) {
  const q = await withQueue({ ...apis.envFor(), PIPELINE_STEP_RETRY_DELAY: PRODUCTION_STEP_RETRY_DELAY, ...extra });
  served.push(q.served);
  await q.api.patch('/api/v1/providers/llm_alpha', {
    enabled: true,
    config: { base_url: `${llm.url}/v1`, api_key: llm.key, model: 'stage-model', max_retry: 0 },
  });
  return q.api;
}

async function source(api: ReturnType<typeof adminClient>, body: Record<string, unknown>): Promise<string> {
  const res = await api.post('/api/v1/sources', { category: 'blog', ...body });
  const json = (await res.json()) as Record<string, any>;
  expect(res.status, JSON.stringify(json)).toBe(201);
  return json.id;
}

async function startRun(api: ReturnType<typeof adminClient>, body: Record<string, unknown>) {
  const created = await api.post('/api/v1/monitors', { name: 'Resilient', destination_ids: ['rss'], ...body });
  expect(created.status).toBe(201);
  const m = (await created.json()) as { id: string };
  const started = (await (await api.post(`/api/v1/monitors/${m.id}/run`)).json()) as { run_id: string };
  return { monitorId: m.id, runId: started.run_id };
}

async function finished(api: ReturnType<typeof adminClient>, runId: string, timeoutMs = 20_000) {
  return waitFor(
    `run ${runId} to finish`,
    async () => {
      const t = (await (await api.get(`/api/v1/tasks/${runId}`)).json()) as Record<string, any>;
      return ['success', 'partial_success', 'failed'].includes(t.status) ? t : undefined;
    },
    timeoutMs,
  );
}

async function details(api: ReturnType<typeof adminClient>, monitorId: string, runId: string) {
  const run = (await (await api.get(`/api/v1/monitors/${monitorId}/runs/${runId}`)).json()) as Record<string, any>;
  const events = (await (await api.get(`/api/v1/monitors/${monitorId}/runs/${runId}/events`)).json()) as Record<
    string,
    any
  >[];
  const [row] = await testDb().query<{ id: string }>(`SELECT id FROM pipeline.reports WHERE run_id = $1`, [runId]);
  const report = row ? ((await (await api.get(`/api/v1/reports/${row.id}`)).json()) as Record<string, any>) : null;
  const steps = Object.fromEntries((run.steps as Record<string, any>[]).map((s) => [s.step, [s.status, s.attempts]]));
  return { run, events, report, steps };
}

describe('partial runs', () => {
  it('a dead source, a flaky one and a filter answer that is not JSON: the report is stored without a queue retry, run partial_success', async () => {
    const api = await stack();
    const ids = [
      await source(api, {
        name: 'Engineering RSS',
        collect_method: 'rss',
        config: { feed_url: `${feeds.url}/rss.xml` },
      }),
      await source(api, {
        name: 'OpenAlex',
        category: 'academic',
        collect_method: 'openalex',
        config: { keywords: ['language models'] },
      }),
      await source(api, {
        name: 'Flaky blog',
        collect_method: 'blog_scraper',
        config: { url: `${flaky.url}/blog.html` },
      }),
      await source(api, { name: 'Dead atom', collect_method: 'rss', config: { feed_url: `${flaky.url}/dead.xml` } }),
    ];
    llm.replies.filter = () => 'All of these look relevant to me.';
    const { monitorId, runId } = await startRun(api, {
      source_ids: ids,
      ai_routing: { stages: { filter: { primary: 'llm_alpha' } } },
    });
    const task = await finished(api, runId);
    const d = await details(api, monitorId, runId);

    expect(task.status).toBe('partial_success');
    // One delivery per step: nothing waited for the queue's 12 s retry.
    expect(d.steps).toEqual({
      collect: ['success', 1],
      filter: ['success', 1],
      report: ['success', 1],
      'publish:rss': ['success', 1],
    });
    expect(d.events.filter((e) => e.event_type === 'step_retry')).toEqual([]);
    const deadNote = 'source Dead atom failed after 3 attempt(s): source returned HTTP 503';
    const filterNote = 'filter: kept all (answer not usable): model answer is not a JSON object';
    expect(task.error_message).toBe(`${deadNote}; ${filterNote}`);

    expect(d.report!.metadata.failed_sources).toEqual([
      { source_id: ids[3], name: 'Dead atom', error: 'source returned HTTP 503', attempts: 3 },
    ]);
    expect(d.report!.metadata.degraded).toEqual([deadNote, filterNote]);
    expect(d.report!.metadata.stages.filter).toMatchObject({
      fallback: 'kept all (answer not usable)',
      input: task.articles_count,
      output: task.articles_count,
    });
    expect(d.report!.content.endsWith(`## Run notes\n\n- ${deadNote}\n- ${filterNote}`)).toBe(true);
    // The flaky page answered on its third try and its articles are in the report.
    expect(blogCalls).toBe(3);
    expect(d.report!.content).toContain('First blog post');
    expect(d.report!.content).toContain('Second blog post');

    const collect = d.run.steps.find((s: any) => s.step === 'collect').result;
    expect(collect.sources.map((s: any) => [s.name, s.status, s.attempts])).toEqual([
      ['Engineering RSS', 'success', 1],
      ['OpenAlex', 'success', 1],
      ['Flaky blog', 'success', 3],
      ['Dead atom', 'failed', 3],
    ]);
    expect(
      d.events.filter((e) => e.stage === 'collect' && e.event_type.startsWith('source_')).map((e) => e.message),
    ).toEqual([
      'Flaky blog: source returned HTTP 502; retrying in the run',
      'Dead atom: source returned HTTP 503; retrying in the run',
      'Flaky blog: source returned HTTP 502; retrying in the run',
      'Dead atom: source returned HTTP 503; retrying in the run',
      `Dead atom failed after 3 attempt(s): source returned HTTP 503`,
    ]);
    expect(d.events.filter((e) => e.event_type === 'answer_retry').length).toBe(2);
    expect(d.events.filter((e) => e.event_type === 'stage_fallback').map((e) => e.stage)).toEqual(['filter']);
    expect(d.events.find((e) => e.event_type === 'run_completed')).toMatchObject({ level: 'warning' });
  });

  it('a provider that is down past the run deadline: the sweep ends the run with what it has, saying so', async () => {
    const api = await stack({ PIPELINE_RUN_DEADLINE_MINUTES: '0.05' });
    // Articles are stored once per URL: a feed the first test did not read.
    const id = await source(api, {
      name: 'Atom',
      collect_method: 'rss',
      config: { feed_url: `${feeds.url}/atom.xml` },
    });
    llm.replies = {};
    llm.calls.length = 0;
    llm.failStage('filter', 100, 503);
    const { monitorId, runId } = await startRun(api, {
      source_ids: [id],
      ai_routing: { stages: { filter: { primary: 'llm_alpha' }, report: { primary: 'llm_alpha' } } },
    });
    // The filter's first delivery meets a 503: the queue holds its retry for 12 s.
    await waitFor('the filter step to be retried', async () => {
      const events = (await (await api.get(`/api/v1/monitors/${monitorId}/runs/${runId}/events`)).json()) as any[];
      return events.some((e) => e.event_type === 'step_retry') ? true : undefined;
    });
    await new Promise((r) => setTimeout(r, 3_100));
    expect(((await (await api.get(`/api/v1/tasks/${runId}`)).json()) as any).status).toBe('running');
    await runScheduled(api.env);
    const task = await finished(api, runId, 8_000);
    llm.failStage('filter', 0);
    const d = await details(api, monitorId, runId);

    expect(task.status).toBe('partial_success');
    expect(d.steps).toEqual({
      collect: ['success', 1],
      filter: ['success', 2],
      report: ['success', 1],
      'publish:rss': ['success', 1],
    });
    expect(d.events.filter((e) => e.event_type === 'run_deadline').map((e) => e.message)).toEqual([
      'the run passed its deadline of 0.05 minute(s): it ends with what it has',
    ]);
    expect(d.report!.metadata.stages.filter).toMatchObject({
      fallback: 'kept all (run deadline passed)',
      provider_attempts: 0,
    });
    expect(d.report!.metadata.writer).toMatchObject({ fallback: 'extractive (run deadline passed)' });
    expect(task.error_message).toBe(
      'filter: kept all (run deadline passed): the run passed its deadline before this stage; report: extractive (run deadline passed): the run passed its deadline before this stage',
    );
    // The report writer was not asked either: the one call is the filter's first delivery.
    expect(llm.calls).toEqual(['filter']);
    expect((await cancelPipelineMessages()).length).toBe(1);
  });
});
