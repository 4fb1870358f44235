/** Shared set-up of the pipeline HTTP suites: an admin client, the queue round trip, and polling. */
import delivery from '../../../functions/delivery.ts';
import pipeline from '../../../functions/pipeline.ts';
import { testDb, testEnv, workerClient } from '../../support/env.ts';
import { serveWorker, type Served } from '../../support/serve.ts';

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
export async function withQueue(): Promise<{ served: Served; api: ReturnType<typeof adminClient> }> {
  let env = testEnv();
  const served = await serveWorker(delivery, (url) => (env = testEnv({ DELIVERY_URL: url, PIPELINE_URL: 'http://pipeline.test' })));
  return { served, api: adminClient(env) };
}

export async function waitFor<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const TERMINAL = ['success', 'failed', 'cancelled', 'partial_success'];

export async function waitForTask(api: ReturnType<typeof adminClient>, id: string): Promise<Record<string, any>> {
  return waitFor(`task ${id}`, async () => {
    const t = (await (await api.get(`/api/v1/tasks/${id}`)).json()) as Record<string, any>;
    return TERMINAL.includes(t.status) ? t : undefined;
  });
}

/** Empties the pipeline tables between suites (settings rows reset to their presets). */
export async function resetPipeline(): Promise<void> {
  const db = testDb();
  await db.query(`TRUNCATE pipeline.reports, pipeline.run_steps, pipeline.task_events, pipeline.tasks, pipeline.articles, pipeline.monitors, pipeline.sources`);
  await db.query(`UPDATE pipeline.providers SET enabled = false, api_key_enc = NULL, base_url = 'https://api.openai.com/v1', max_retry = 2`);
  await db.query(`UPDATE pipeline.destinations SET enabled = (id = 'rss'), secret_enc = NULL`);
}
