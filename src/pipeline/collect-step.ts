/**
 * The `collect` step of a monitor run: every enabled source of the monitor is read (all at once),
 * each with in-run retries (in-run-retry.ts) when it fails; a source still failing after them is
 * listed (`sources[].status = failed`, `failed_sources`, a `source_failed` warning event) and the
 * run goes on with what the others collected. Only when every source failed does the step fail, at
 * once (no queue retry: the sources were just retried). Database failures throw as they are, so the
 * queue retries the step; articles are stored once per URL, so a redelivery stores nothing twice.
 */
import { agentChat } from './agent-provider.ts';
import { collect, overrideOptions } from './collectors/index.ts';
import type { CollectResult } from './collectors/types.ts';
import { inRunPolicy, inRunWait } from './in-run-retry.ts';
import type { MonitorRow } from './queries-monitors.ts';
import { articlesInWindow, getSources, setSourceStatus, storeArticles, type SourceRow } from './queries-sources.ts';
import { recordEvent } from './queries-tasks.ts';
import { stageProviderId, type StageInput } from './stage-input.ts';
import { PermanentStepError } from './step-errors.ts';

type Outcome = { source: SourceRow; attempts: number } & ({ result: CollectResult } | { error: string });

/** The source's config with the monitor's override (its usernames replace username, handle and usernames alike). */
function monitorConfig(monitor: MonitorRow, s: SourceRow): Record<string, unknown> {
  const override = monitor.source_overrides?.[s.id] ?? {};
  return Array.isArray(override.usernames) && override.usernames.length
    ? { ...s.config, username: undefined, handle: undefined, usernames: override.usernames }
    : s.config;
}

async function collectWithRetries(input: StageInput, s: SourceRow, window: { start: Date; end: Date }) {
  const { env, db, task, monitor } = input;
  const policy = inRunPolicy(env, input.overdue);
  const agent = await agentChat(env, db, s, stageProviderId(monitor, 'report'));
  const opts = { ...overrideOptions(monitor.source_overrides?.[s.id] ?? {}), window, agentChat: agent };
  for (let attempt = 1; ; attempt++) {
    try {
      const result = await collect(env, { ...s, config: monitorConfig(monitor, s) }, opts);
      await recordAgentTrace(input, s, result.trace);
      return { source: s, attempts: attempt, result } satisfies Outcome;
    } catch (err) {
      const error = (err as Error).message;
      await recordAgentTrace(input, s, (err as { trace?: Record<string, unknown>[] }).trace);
      if (attempt > policy.retries) return { source: s, attempts: attempt, error } satisfies Outcome;
      await recordEvent(db, task, {
        stage: 'collect',
        event_type: 'source_retry',
        level: 'warning',
        message: `${s.name}: ${error}; retrying in the run`,
        payload: { source_id: s.id, attempt },
      });
      await inRunWait(policy, attempt);
    }
  }
}

/** A browser agent's steps (what it opened, saw, clicked, kept, was refused), one `agent_step` event each. */
async function recordAgentTrace(input: StageInput, s: SourceRow, trace: Record<string, unknown>[] | undefined) {
  for (const t of trace ?? [])
    await recordEvent(input.db, input.task, {
      stage: 'collect',
      event_type: 'agent_step',
      level: String(t.outcome).startsWith('refused') ? 'warning' : 'info',
      message: `${s.name}: ${t.tool} ${JSON.stringify(t.args)} -> ${t.outcome}`.slice(0, 1000),
      payload: { source_id: s.id, ...t },
    });
}

export async function collectStep(input: StageInput): Promise<Record<string, unknown>> {
  const { db, task, monitor } = input;
  const sources = (await getSources(db, monitor.source_ids)).filter((s) => s.enabled);
  const hours = task.window_hours ?? monitor.window_hours;
  const end = new Date();
  const window = { start: new Date(end.getTime() - hours * 3_600_000), end };
  const outcomes = await Promise.all(sources.map((s) => collectWithRetries(input, s, window)));
  const results: Record<string, unknown>[] = [];
  for (const o of outcomes) {
    const base = { source_id: o.source.id, name: o.source.name, attempts: o.attempts };
    if ('error' in o) {
      await setSourceStatus(db, o.source.id, 'error');
      await recordEvent(db, task, {
        stage: 'collect',
        event_type: 'source_failed',
        level: 'warning',
        message: `${o.source.name} failed after ${o.attempts} attempt(s): ${o.error}`,
        payload: { source_id: o.source.id, attempts: o.attempts },
      });
      results.push({ ...base, status: 'failed', error: o.error });
      continue;
    }
    const stored = await storeArticles(db, o.source.id, o.result.items);
    await setSourceStatus(db, o.source.id, 'healthy', true);
    results.push({ ...base, status: 'success', articles: o.result.items.length, new_articles: stored.inserted });
  }
  const failed = results.filter((r) => r.status === 'failed');
  if (sources.length > 0 && failed.length === sources.length)
    throw new PermanentStepError(`every source failed: ${failed.map((r) => `${r.name}: ${r.error}`).join('; ')}`);
  const articles = await articlesInWindow(
    db,
    sources.map((s) => s.id),
    hours,
  );
  await db.query(`UPDATE pipeline.tasks SET articles_count = $2 WHERE id = $1`, [task.id, articles.length]);
  return {
    articles: articles.length,
    article_ids: articles.map((a) => a.id),
    sources: results,
    failed_sources: failed.map((r) => ({ source_id: r.source_id, name: r.name, error: r.error, attempts: r.attempts })),
  };
}
