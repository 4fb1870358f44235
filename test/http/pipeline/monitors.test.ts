import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStep } from '../../../src/pipeline/monitor-runner.ts';
import { runScheduled } from '../../../src/pipeline/scheduled.ts';
import { createDb } from '../../../src/platform/db.ts';
import { startChatServer, type ChatServer } from '../../support/fakes/chat-server.ts';
import { startFeedServer, type FeedServer } from '../../support/fakes/feed-server.ts';
import { startNotionServer, type NotionServer } from '../../support/fakes/notion-server.ts';
import { startObsidianServer, type ObsidianServer } from '../../support/fakes/obsidian-server.ts';
import { testDb, testEnv } from '../../support/env.ts';
import type { Served } from '../../support/serve.ts';
import { type adminClient, resetPipeline, waitForTask, withQueue } from './helpers.ts';

let feeds: FeedServer;
let llm: ChatServer;
let notion: NotionServer;
let obsidian: ObsidianServer;
let served: Served;
let api: ReturnType<typeof adminClient>;
let sourceIds: string[];

beforeAll(async () => {
  await resetPipeline();
  [feeds, llm, notion, obsidian] = await Promise.all([
    startFeedServer(),
    startChatServer(),
    startNotionServer(),
    startObsidianServer(),
  ]);
  ({ served, api } = await withQueue());
  sourceIds = [];
  for (const [name, path, category] of [
    ['Blog', '/rss.xml', 'blog'],
    ['Papers', '/atom.xml', 'academic'],
  ]) {
    const res = await api.post('/api/v1/sources', {
      name,
      category,
      collect_method: 'rss',
      config: { feed_url: `${feeds.url}${path}` },
    });
    sourceIds.push(((await res.json()) as { id: string }).id);
  }
  await api.patch('/api/v1/destinations/obsidian', {
    enabled: true,
    config: { api_url: obsidian.url, api_key: obsidian.apiKey, target_folder: 'Digests/' },
  });
  await api.patch('/api/v1/destinations/notion', {
    enabled: true,
    config: { api_url: notion.url, token: notion.token, database_id: notion.databaseId },
  });
});
afterAll(async () => {
  await served.close();
  await Promise.all([feeds.close(), llm.close(), notion.close(), obsidian.close()]);
});

async function monitor(body: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await api.post('/api/v1/monitors', { name: 'Daily digest', source_ids: sourceIds, ...body });
  expect(res.status).toBe(201);
  return (await res.json()) as Record<string, any>;
}

async function run(monitorId: string): Promise<{ task: Record<string, any>; steps: Record<string, any>[] }> {
  const started = (await (await api.post(`/api/v1/monitors/${monitorId}/run`)).json()) as any;
  expect(started.status).toBe('running');
  const task = await waitForTask(api, started.run_id);
  const detail = (await (await api.get(`/api/v1/monitors/${monitorId}/runs/${started.run_id}`)).json()) as any;
  return { task, steps: detail.steps };
}

const stepSummary = (steps: Record<string, any>[]) =>
  Object.fromEntries(steps.map((s) => [s.step, [s.status, s.attempts]]));

describe('monitor CRUD', () => {
  it('creates with defaults, reads, updates, lists and deletes', async () => {
    const m = await monitor({ destination_ids: ['rss'] });
    expect(m).toMatchObject({
      name: 'Daily digest',
      time_period: 'daily',
      report_type: 'daily',
      window_hours: 24,
      enabled: true,
      status: 'active',
      destination_ids: ['rss'],
      custom_schedule: null,
    });
    expect(new Date(m.next_run_at).getUTCHours()).toBe(0);
    const p = (await (
      await api.patch(`/api/v1/monitors/${m.id}`, {
        enabled: false,
        custom_schedule: '*/15 * * * *',
        time_period: 'weekly',
      })
    ).json()) as any;
    expect(p).toMatchObject({
      enabled: false,
      status: 'paused',
      next_run_at: null,
      custom_schedule: '*/15 * * * *',
      report_type: 'daily',
    });
    expect(((await (await api.get('/api/v1/monitors')).json()) as any[]).map((x) => x.id)).toContain(m.id);
    expect((await api.delete(`/api/v1/monitors/${m.id}`)).status).toBe(204);
    expect((await api.get(`/api/v1/monitors/${m.id}`)).status).toBe(404);
  });

  it.each([
    [
      'unknown source',
      { source_ids: ['00000000-0000-4000-8000-000000000000'] },
      422,
      { detail: 'Unknown source_ids: 00000000-0000-4000-8000-000000000000' },
    ],
    ['bad cron', { custom_schedule: '61 * * * *' }, 422, null],
    ['window too long', { window_hours: 169 }, 422, null],
    ['unknown destination', { destination_ids: ['email'] }, 422, null],
    ['unknown provider in a stage', { ai_routing: { stages: { report: { primary: 'llm_gamma' } } } }, 422, null],
  ])('refuses %s', async (_n, body, status, detail) => {
    const res = await api.post('/api/v1/monitors', { name: 'x', ...body });
    expect(res.status).toBe(status);
    if (detail) expect(await res.json()).toEqual(detail);
  });
});

describe('monitor runs (queued steps)', () => {
  it('collects, writes an extractive report without a provider, and publishes to rss and Obsidian', async () => {
    const m = await monitor({ destination_ids: ['rss', 'obsidian'] });
    const { task, steps } = await run(m.id);
    expect(task).toMatchObject({
      status: 'success',
      monitor_id: m.id,
      trigger_type: 'manual',
      articles_count: 5,
      error_message: null,
    });
    expect(stepSummary(steps)).toEqual({
      collect: ['success', 1],
      report: ['success', 1],
      'publish:rss': ['success', 1],
      'publish:obsidian': ['success', 1],
    });
    const reports = (await (await api.get(`/api/v1/reports?monitor_id=${m.id}`)).json()) as any[];
    expect(reports.length).toBe(1);
    const report = (await (await api.get(`/api/v1/reports/${reports[0].id}`)).json()) as any;
    expect(report.metadata.writer).toEqual({ provider: null, fallback: 'extractive' });
    expect(report.categories).toEqual(['academic', 'blog']);
    expect(report.published_to).toEqual(['database', 'obsidian', 'rss']);
    expect(report.content).toContain(`- [Second & final post](${feeds.url}/posts/second) — Plain text summary.`);
    const note = [...obsidian.files.entries()].find(([k]) => k.startsWith('Digests/'));
    expect(note?.[0]).toBe(`Digests/${report.report_date} Daily digest — ${report.report_date}.md`);
    expect(note?.[1]).toBe(`# ${report.title}\n\n${report.content}\n`);
    const ev = await testDb().query<{ event_name: string; object_id: string }>(
      `SELECT event_name, object_id FROM webhooks.outbox WHERE object_id = ANY($1::text[]) ORDER BY event_id`,
      [[task.id, report.id]],
    );
    expect(ev.map((e) => e.event_name).sort()).toEqual([
      'report_published',
      'report_published',
      'report_published',
      'task_finished',
    ]);
    const runEvents = ((await (await api.get(`/api/v1/monitors/${m.id}/runs/${task.id}/events`)).json()) as any[]).map(
      (e) => e.event_type,
    );
    expect(runEvents[0]).toBe('run_started');
    expect(runEvents.at(-1)).toBe('run_completed');
    expect(runEvents.filter((e) => e === 'step_succeeded').length).toBe(4);
  });

  it('a provider that fails twice then answers writes the report; a destination that is down leaves the run partial_success with retries counted', async () => {
    await api.patch('/api/v1/providers/llm_alpha', {
      enabled: true,
      config: { base_url: `${llm.url}/v1`, api_key: llm.key, model: 'digest-model', max_retry: 2 },
    });
    const m = await monitor({
      destination_ids: ['notion', 'rss'],
      ai_routing: { stages: { report: { primary: 'llm_alpha' } } },
    });
    llm.failNext(2, 503);
    notion.down = true;
    const { task, steps } = await run(m.id);
    notion.down = false;
    expect(task.status).toBe('partial_success');
    expect(task.error_message).toBe('publish:notion: Destination returned HTTP 503');
    expect(stepSummary(steps)).toEqual({
      collect: ['success', 1],
      report: ['success', 1],
      'publish:notion': ['failed', 4],
      'publish:rss': ['success', 1],
    });
    const reportId =
      steps.find((s) => s.step === 'report')!.result?.report_id ??
      (await testDb().query<{ id: string }>(`SELECT id FROM pipeline.reports WHERE run_id = $1`, [task.id]))[0]!.id;
    const report = (await (await api.get(`/api/v1/reports/${reportId}`)).json()) as any;
    expect(report.metadata.writer).toMatchObject({
      provider: 'llm_alpha',
      model: 'digest-model',
      provider_attempts: 3,
      fallback: null,
    });
    expect(report.content.startsWith('TL;DR: model digest of 5 articles.')).toBe(true);
    expect(report.publish_trace.filter((t: any) => t.sink === 'notion').map((t: any) => [t.status, t.attempt])).toEqual(
      [
        ['failed', 1],
        ['failed', 2],
        ['failed', 3],
        ['failed', 4],
      ],
    );
    expect(report.published_to).toEqual(['database', 'rss']);

    // Nothing lost: once Notion is back the same report is published again by hand.
    const again = await api.post(`/api/v1/reports/${reportId}/publish`, { destination_id: 'notion' });
    expect(again.status).toBe(200);
    expect(notion.pages.length).toBe(1);
    expect(notion.pages[0]!.properties).toMatchObject({
      Name: { title: [{ type: 'text', text: { content: report.title } }] },
    });
    const after = (await (await api.get(`/api/v1/reports/${reportId}`)).json()) as any;
    expect(after.published_to).toEqual(['database', 'rss', 'notion']);
  });

  it('a provider that never answers falls back to the extractive report on the last attempt, and the run says so', async () => {
    await api.patch('/api/v1/providers/llm_alpha', { config: { max_retry: 0 } });
    const m = await monitor({ destination_ids: [], ai_routing: { stages: { report: { primary: 'llm_alpha' } } } });
    llm.down = true;
    const { task, steps } = await run(m.id);
    llm.down = false;
    expect(task.status).toBe('partial_success');
    expect(task.error_message).toBe('report: extractive (provider failed): Provider returned HTTP 503');
    expect(stepSummary(steps)).toEqual({ collect: ['success', 1], report: ['success', 4] });
    const [row] = await testDb().query<{ metadata: any; content: string }>(
      `SELECT metadata, content FROM pipeline.reports WHERE run_id = $1`,
      [task.id],
    );
    expect(row!.metadata.writer).toEqual({
      provider: 'llm_alpha',
      provider_attempts: 1,
      fallback: 'extractive (provider failed)',
      provider_error: 'Provider returned HTTP 503',
    });
    expect(row!.metadata.degraded).toEqual(['report: extractive (provider failed): Provider returned HTTP 503']);
    expect(
      row!.content.endsWith('## Run notes\n\n- report: extractive (provider failed): Provider returned HTTP 503'),
    ).toBe(true);
  });

  it('a run whose every source fails ends failed without a report', async () => {
    const bad = (await (
      await api.post('/api/v1/sources', {
        name: 'gone',
        category: 'blog',
        collect_method: 'rss',
        config: { feed_url: `${feeds.url}/gone.xml` },
      })
    ).json()) as any;
    const m = (await (
      await api.post('/api/v1/monitors', { name: 'broken', source_ids: [bad.id], destination_ids: ['rss'] })
    ).json()) as any;
    const { task, steps } = await run(m.id);
    expect(task.status).toBe('failed');
    // The source was retried inside the run (3 attempts), so the queue did not retry the step.
    expect(stepSummary(steps)).toEqual({ collect: ['failed', 1], report: ['failed', 0], 'publish:rss': ['failed', 0] });
    expect(feeds.requests.filter((r) => r.path === '/gone.xml').length).toBe(3);
    expect(task.error_message).toBe(
      'collect: every source failed: gone: source returned HTTP 404; publish:rss: not run: collect failed; report: not run: collect failed',
    );
    expect((await testDb().query(`SELECT 1 FROM pipeline.reports WHERE run_id = $1`, [task.id])).length).toBe(0);
  });

  it('lists run history with step counts and monitor logs', async () => {
    const m = await monitor({ destination_ids: ['rss'] });
    await run(m.id);
    const runs = (await (await api.get(`/api/v1/monitors/${m.id}/runs`)).json()) as any[];
    expect(runs.length).toBe(1);
    expect(runs[0]).toMatchObject({ status: 'success', trigger_type: 'manual' });
    expect(runs[0].steps.map((s: any) => s.step)).toEqual(['collect', 'publish:rss', 'report']);
    const logs = (await (await api.get(`/api/v1/monitors/${m.id}/logs`)).json()) as any[];
    expect(logs.length).toBeGreaterThan(5);
  });

  it('a run cancelled while its publishes wait ends cancelled at once, every remaining step recorded as not run', async () => {
    const m = await monitor({ destination_ids: ['notion', 'rss'] });
    const db = testDb();
    const runId = crypto.randomUUID();
    await db.query(
      `INSERT INTO pipeline.tasks (id, run_id, monitor_id, trigger_type, status, started_at) VALUES ($1, $1, $2, 'manual', 'cancelling', now())`,
      [runId, m.id],
    );
    await db.query(
      `INSERT INTO pipeline.run_steps (run_id, step, status, attempts) VALUES ($1, 'collect', 'success', 1), ($1, 'report', 'success', 1), ($1, 'publish:notion', 'pending', 0), ($1, 'publish:rss', 'pending', 0)`,
      [runId],
    );
    const env = testEnv();
    const conn = createDb(env);
    try {
      expect(await runStep(env, conn, runId, 'publish:notion', 0)).toEqual({ status: 'skipped' });
    } finally {
      await conn.close();
    }
    const detail = (await (await api.get(`/api/v1/monitors/${m.id}/runs/${runId}`)).json()) as any;
    expect(detail.status).toBe('cancelled');
    expect(Object.fromEntries(detail.steps.map((s: any) => [s.step, [s.status, s.error]]))).toEqual({
      collect: ['success', null],
      report: ['success', null],
      'publish:notion': ['failed', 'cancelled'],
      'publish:rss': ['failed', 'not run: cancelled'],
    });
    const events = ((await (await api.get(`/api/v1/monitors/${m.id}/runs/${runId}/events`)).json()) as any[]).map(
      (e) => [e.stage, e.event_type],
    );
    expect(events).toEqual([
      ['publish:notion', 'step_failed'],
      ['publish:rss', 'step_skipped'],
      ['run', 'run_cancelled'],
    ]);
  });

  it('the scheduled handler starts due monitors once', async () => {
    const m = await monitor({ destination_ids: [], custom_schedule: '*/5 * * * *' });
    await testDb().query(`UPDATE pipeline.monitors SET next_run_at = now() - interval '1 minute' WHERE id = $1`, [
      m.id,
    ]);
    const env = testEnv({ DELIVERY_URL: served.url, PIPELINE_URL: 'http://pipeline.test' });
    const [a, b] = await Promise.all([runScheduled(env), runScheduled(env)]);
    const started = [...a.started, ...b.started];
    expect(started.length).toBe(1);
    const t = await waitForTask(api, started[0]!);
    expect(t).toMatchObject({ status: 'success', trigger_type: 'scheduled', monitor_id: m.id });
    const after = (await (await api.get(`/api/v1/monitors/${m.id}`)).json()) as any;
    expect(Date.parse(after.next_run_at)).toBeGreaterThan(Date.now());
  });
});
