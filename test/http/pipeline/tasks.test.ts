import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pipeline from '../../../functions/pipeline.ts';
import { runScheduled } from '../../../src/pipeline/scheduled.ts';
import { runTask } from '../../../src/pipeline/task-runner.ts';
import { startFeedServer, type FeedServer } from '../../support/fakes/feed-server.ts';
import { testDb, testEnv, workerClient } from '../../support/env.ts';
import type { Served } from '../../support/serve.ts';
import { type adminClient, resetPipeline, waitForTask, withQueue } from './helpers.ts';

let feeds: FeedServer;
let served: Served;
let api: ReturnType<typeof adminClient>;

beforeAll(async () => {
  await resetPipeline();
  feeds = await startFeedServer();
  ({ served, api } = await withQueue());
});
afterAll(async () => {
  await served.close();
  await feeds.close();
});

async function source(name: string, path: string, category = 'blog'): Promise<string> {
  const res = await api.post('/api/v1/sources', {
    name,
    category,
    collect_method: 'rss',
    config: { feed_url: `${feeds.url}${path}` },
  });
  return ((await res.json()) as { id: string }).id;
}

async function events(taskId: string): Promise<string[]> {
  return ((await (await api.get(`/api/v1/tasks/${taskId}/events`)).json()) as { event_type: string }[]).map(
    (e) => e.event_type,
  );
}

async function outbox(objectId: string): Promise<{ event_name: string; payload: any }[]> {
  return testDb().query(`SELECT event_name, payload FROM webhooks.outbox WHERE object_id = $1 ORDER BY event_id`, [
    objectId,
  ]);
}

describe('triggered tasks run through the queue', () => {
  it('pending -> running -> success, articles stored once per URL, events and the webhook event recorded', async () => {
    const id = await source('ok', '/rss.xml');
    const res = await api.post('/api/v1/tasks/trigger', { source_id: id });
    expect(res.status).toBe(200);
    const created = (await res.json()) as Record<string, any>;
    expect(created).toMatchObject({
      source_id: id,
      trigger_type: 'manual',
      status: 'pending',
      run_id: created.id,
      articles_count: 0,
    });
    const done = await waitForTask(api, created.id);
    expect(done).toMatchObject({ status: 'success', articles_count: 3, error_message: null });
    expect(done.stage_trace).toEqual([
      { stage: 'collect', provider: 'rss', status: 'success', articles: 3, new_articles: 3, format: 'rss' },
    ]);
    expect(await events(created.id)).toEqual(['task_created', 'task_running', 'task_succeeded']);
    const ev = await outbox(created.id);
    expect(ev.map((e) => [e.event_name, e.payload.status])).toEqual([['task_finished', 'success']]);
    const src = (await (await api.get(`/api/v1/sources/${id}`)).json()) as any;
    expect(src.status).toBe('healthy');
    expect(src.last_collected).not.toBeNull();

    const again = (await (await api.post('/api/v1/tasks/trigger', { source_id: id })).json()) as any;
    const second = await waitForTask(api, again.id);
    expect(second.stage_trace[0]).toMatchObject({ articles: 3, new_articles: 0 });
    const [{ n }] = await testDb().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pipeline.articles WHERE source_id = $1`,
      [id],
    );
    expect(n).toBe(3);
  });

  it('a redelivered message does not run the task twice', async () => {
    const id = await source('redeliver', '/atom.xml');
    const t = (await (await api.post('/api/v1/tasks/trigger', { source_id: id })).json()) as any;
    await waitForTask(api, t.id);
    const before = feeds.requests.length;
    expect(await runTask(api.env, (await import('../../../src/platform/db.ts')).createDb(api.env), t.id)).toEqual({
      ran: false,
    });
    expect(feeds.requests.length).toBe(before);
    expect(await events(t.id)).toEqual(['task_created', 'task_running', 'task_succeeded']);
  });

  it('a failing source ends failed with the error and marks the source as error', async () => {
    const id = await source('broken', '/missing.xml');
    const t = (await (await api.post('/api/v1/tasks/trigger', { source_id: id })).json()) as any;
    const done = await waitForTask(api, t.id);
    expect(done).toMatchObject({ status: 'failed', error_message: 'source returned HTTP 404', articles_count: 0 });
    expect(await events(t.id)).toEqual(['task_created', 'task_running', 'task_failed']);
    expect(((await (await api.get(`/api/v1/sources/${id}`)).json()) as any).status).toBe('error');
    expect((await outbox(t.id)).map((e) => e.payload.status)).toEqual(['failed']);
  });

  it('triggers by category (most recently updated enabled source); a category without one is a 404 and no task', async () => {
    const id = await source('academic one', '/feed.json', 'academic');
    const t = (await (await api.post('/api/v1/tasks/trigger', { category: 'academic' })).json()) as any;
    expect(t.source_id).toBe(id);
    expect((await waitForTask(api, t.id)).status).toBe('success');
    const before = ((await (await api.get('/api/v1/tasks?limit=200')).json()) as any[]).length;
    const none = await api.post('/api/v1/tasks/trigger', { category: 'social' });
    expect(none.status).toBe(404);
    expect(await none.json()).toEqual({ detail: 'No enabled source in category social' });
    expect(((await (await api.get('/api/v1/tasks?limit=200')).json()) as any[]).length).toBe(before);
  });

  it('lists tasks newest first with filters', async () => {
    const all = (await (await api.get('/api/v1/tasks')).json()) as any[];
    expect(all.length).toBe(5); // the trigger on a category without a source created none
    const times = all.map((t) => Date.parse(t.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(((await (await api.get('/api/v1/tasks?category=academic')).json()) as any[]).length).toBe(1);
    expect(((await (await api.get('/api/v1/tasks?status=failed')).json()) as any[]).length).toBe(1);
    expect(((await (await api.get('/api/v1/tasks?limit=2&page=2')).json()) as any[]).map((t) => t.id)).toEqual(
      all.slice(2, 4).map((t) => t.id),
    );
  });

  it.each([
    ['POST', '/api/v1/tasks/trigger', {}, 422],
    ['POST', '/api/v1/tasks/trigger', { source_id: 'nope' }, 422],
    ['POST', '/api/v1/tasks/trigger', { source_id: '00000000-0000-4000-8000-000000000000' }, 404],
    ['GET', '/api/v1/tasks/00000000-0000-4000-8000-000000000000', undefined, 404],
    ['GET', '/api/v1/tasks/123', undefined, 422],
    ['GET', '/api/v1/tasks?status=done', undefined, 422],
    ['GET', '/api/v1/tasks?limit=0', undefined, 422],
  ])('%s %s %j -> %i', async (method, path, body, status) => {
    const res = method === 'GET' ? await api.get(path) : await api.post(path, body);
    expect(res.status).toBe(status);
  });
});

describe('cancellation and timeouts', () => {
  it('cancels a pending task; a finished one answers 409', async () => {
    const id = await source('cancel', '/rss.xml');
    // No queue here: a client whose DELIVERY_URL points nowhere still creates the task (publish goes to QStash, which retries).
    const offline = workerClient(pipeline, testEnv({ DELIVERY_URL: 'http://127.0.0.1:9' }));
    const t = (await (
      await offline.post(
        '/api/v1/tasks/trigger',
        { source_id: id },
        { authorization: 'Bearer local-pipeline-admin-token' },
      )
    ).json()) as any;
    const res = await api.post(`/api/v1/tasks/${t.id}/cancel`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).status).toBe('cancelled');
    const again = await api.post(`/api/v1/tasks/${t.id}/cancel`);
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ detail: 'Task is already cancelled' });
    expect(await runTask(api.env, (await import('../../../src/platform/db.ts')).createDb(api.env), t.id)).toEqual({
      ran: false,
    });
    expect((await outbox(t.id)).map((e) => e.payload.status)).toEqual(['cancelled']);
  });

  it('the scheduled sweep fails tasks stuck running past the timeout', async () => {
    const db = testDb();
    const id = crypto.randomUUID();
    await db.query(
      `INSERT INTO pipeline.tasks (id, run_id, trigger_type, status, started_at, created_at) VALUES ($1, $1, 'manual', 'running', now() - interval '2 hours', now() - interval '2 hours')`,
      [id],
    );
    const r = await runScheduled(testEnv({ DELIVERY_URL: served.url, PIPELINE_TASK_TIMEOUT_MINUTES: '30' }));
    expect(r.timedOut).toEqual([id]);
    const t = (await (await api.get(`/api/v1/tasks/${id}`)).json()) as any;
    expect(t).toMatchObject({ status: 'failed', error_message: 'timed out after 30 minutes' });
    expect(await events(id)).toEqual(['task_timed_out']);
    expect((await runScheduled(testEnv({ DELIVERY_URL: served.url }))).timedOut).toEqual([]);
  });

  it.each([
    ['still being retried (last step event 10 minutes ago)', 10, false],
    ['idle for 61 minutes', 61, true],
  ])('a monitor run started 2 hours ago and %s is timed out: %s', async (_n, idleMinutes, timedOut) => {
    const db = testDb();
    const id = crypto.randomUUID();
    await db.query(
      `INSERT INTO pipeline.tasks (id, run_id, trigger_type, status, started_at, created_at) VALUES ($1, $1, 'manual', 'running', now() - interval '2 hours', now() - interval '2 hours')`,
      [id],
    );
    await db.query(
      `INSERT INTO pipeline.run_steps (run_id, step, status, attempts) VALUES ($1, 'collect', 'success', 1), ($1, 'report', 'running', 3), ($1, 'publish:rss', 'pending', 0)`,
      [id],
    );
    await db.query(
      `INSERT INTO pipeline.task_events (run_id, task_id, stage, event_type, created_at) VALUES ($1, $1, 'report', 'step_started', now() - make_interval(mins => $2))`,
      [id, idleMinutes],
    );
    const r = await runScheduled(testEnv({ DELIVERY_URL: served.url, PIPELINE_TASK_TIMEOUT_MINUTES: '30' }));
    expect(r.timedOut).toEqual(timedOut ? [id] : []);
    const steps = await db.query<{ step: string; status: string; error: string | null }>(
      `SELECT step, status, error FROM pipeline.run_steps WHERE run_id = $1 ORDER BY step`,
      [id],
    );
    expect(steps).toEqual(
      timedOut
        ? [
            { step: 'collect', status: 'success', error: null },
            { step: 'publish:rss', status: 'failed', error: 'timed out after 30 minutes' },
            { step: 'report', status: 'failed', error: 'timed out after 30 minutes' },
          ]
        : [
            { step: 'collect', status: 'success', error: null },
            { step: 'publish:rss', status: 'pending', error: null },
            { step: 'report', status: 'running', error: null },
          ],
    );
    expect(await events(id)).toEqual(
      timedOut ? ['step_started', 'task_timed_out', 'step_failed', 'step_failed'] : ['step_started'],
    );
    if (!timedOut) await db.query(`UPDATE pipeline.tasks SET status = 'failed' WHERE id = $1`, [id]);
  });
});
