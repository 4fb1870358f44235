/** Shared set-up of the pipeline HTTP suites: an admin client, the queue round trip, and polling. */
import delivery from '../../../functions/delivery.ts';
import pipeline from '../../../functions/pipeline.ts';
import { readFileSync } from 'node:fs';
import type { ObjectBindings } from '../../../src/platform/env.ts';
import { QSTASH_DEV } from '../../../tools/stack/config.ts';
import { stackInfo, testDb, testEnv, workerClient } from '../../support/env.ts';
import { serveWorker, type Served } from '../../support/serve.ts';
import { waitFor as poll } from '../../support/wait.ts';

export const TOKEN = 'local-pipeline-admin-token';
export const AUTH = { authorization: `Bearer ${TOKEN}` };

export type Client = ReturnType<typeof workerClient>;

/** A client that sends the admin token on every call. */
export function adminClient(env = testEnv()) {
  const api = workerClient(pipeline, env);
  return {
    env,
    raw: api,
    get: (p: string) => api.get(p, AUTH),
    post: (p: string, b?: unknown) => api.post(p, b, AUTH),
    patch: (p: string, b?: unknown) => api.patch(p, b, AUTH),
    delete: (p: string) => api.delete(p, undefined, AUTH),
  };
}

/** Serves the delivery function so the QStash test server can call it back; both workers share the env. */
export async function withQueue(
  extra: Record<string, string> = {},
  bindings: ObjectBindings = {},
): Promise<{ served: Served; api: ReturnType<typeof adminClient> }> {
  let env = testEnv();
  const served = await serveWorker(
    delivery,
    (url) => (env = { ...testEnv({ DELIVERY_URL: url, PIPELINE_URL: 'http://pipeline.test', ...extra }), ...bindings }),
  );
  return { served, api: adminClient(env) };
}

export function waitFor<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  return poll(what, fn, { timeoutMs, intervalMs: 50 });
}

const TERMINAL = ['success', 'failed', 'cancelled', 'partial_success'];

/**
 * Waits until the QStash test server has no pipeline message in flight (every message to the
 * delivery function's /pipeline/ routes delivered or failed, quiet for 250 ms). Messages of other
 * suites sharing the server (e.g. webhook retries delayed by minutes) are not waited for.
 */
export async function waitQueueIdle(timeoutMs = 20_000): Promise<void> {
  const url = `${stackInfo().qstashUrl}/v2/events`;
  await waitFor(
    'the queue to be idle',
    async () => {
      const res = await fetch(url, { headers: { authorization: `Bearer ${QSTASH_DEV.token}` } });
      const all = (await res.json()) as { events: { time: number; messageId: string; state: string; url: string }[] };
      const events = all.events.filter((e) => new URL(e.url).pathname.startsWith('/pipeline/'));
      const latest = new Map<string, { time: number; state: string }>();
      for (const e of [...events].reverse()) latest.set(e.messageId, e);
      const busy = [...latest.values()].some((e) => !['DELIVERED', 'FAILED', 'CANCELED'].includes(e.state));
      const last = Math.max(0, ...events.map((e) => e.time));
      return !busy && Date.now() - last > 250 ? true : undefined;
    },
    timeoutMs,
  );
}

export async function waitForTask(api: ReturnType<typeof adminClient>, id: string): Promise<Record<string, any>> {
  await waitQueueIdle();
  return waitFor(`task ${id}`, async () => {
    const res = await api.get(`/api/v1/tasks/${id}`);
    if (res.status !== 200) return undefined;
    const t = (await res.json()) as Record<string, any>;
    return TERMINAL.includes(t.status) ? t : undefined;
  });
}

/** Empties the pipeline tables between suites (settings rows reset to their presets). */
export async function resetPipeline(): Promise<void> {
  const db = testDb();
  await db.query(
    `TRUNCATE pipeline.reports, pipeline.run_steps, pipeline.task_events, pipeline.tasks, pipeline.articles, pipeline.monitors, pipeline.sources`,
  );
  // Settings rows back to the presets of the migration (its own INSERT statements).
  const sql = readFileSync(new URL('../../../migrations/0300_pipeline.sql', import.meta.url), 'utf8');
  const presets = sql.match(/INSERT INTO pipeline\.(providers|destinations)[\s\S]*?\);\n(?!\s+\()/g) ?? [];
  if (presets.length !== 2) throw new Error('preset INSERTs not found in the pipeline migration');
  await db.query(`DELETE FROM pipeline.providers`);
  await db.query(`DELETE FROM pipeline.destinations`);
  for (const insert of presets) await db.query(insert);
}

/** QStash's production backoff (12 s, 2 min 28 s, 30 min), as a step's retry delay: a queue retry would show. */
export const PRODUCTION_STEP_RETRY_DELAY = 'min(86400, exp(2.5 * (retried + 1))) * 1000';

/** Cancels every pipeline message the QStash test server still holds (retries left waiting by a test). */
export async function cancelPipelineMessages(): Promise<string[]> {
  const base = stackInfo().qstashUrl;
  const headers = { authorization: `Bearer ${QSTASH_DEV.token}` };
  const all = (await (await fetch(`${base}/v2/events`, { headers })).json()) as {
    events: { messageId: string; state: string; url: string }[];
  };
  const latest = new Map<string, string>();
  for (const e of [...all.events].reverse())
    if (new URL(e.url).pathname.startsWith('/pipeline/')) latest.set(e.messageId, e.state);
  const open = [...latest]
    .filter(([, state]) => !['DELIVERED', 'FAILED', 'CANCELED'].includes(state))
    .map(([id]) => id);
  for (const id of open) await fetch(`${base}/v2/messages/${id}`, { method: 'DELETE', headers });
  return open;
}
