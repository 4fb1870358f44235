/**
 * In-run retries of a monitor run: failures that waiting for the queue's schedule (12 s, 2 min 28 s,
 * 30 min in production) cannot fix better than a few seconds can (a source that failed, a model
 * answer that is not the JSON asked for) are tried again inside the same delivery, up to
 * `PIPELINE_INRUN_RETRIES` more times, waiting `PIPELINE_INRUN_BACKOFF_SECONDS` before the first retry
 * and twice as long before each next one. Then the caller goes on without (its fallback). A run past
 * its deadline (`PIPELINE_RUN_DEADLINE_MINUTES`) gets no in-run retries and no queue retries.
 */
import type { Env } from '../platform/env.ts';
import { pipelineConfig } from './config.ts';

export interface InRunPolicy {
  retries: number;
  backoffMs: number;
}

export function inRunPolicy(env: Env, overdue = false): InRunPolicy {
  const c = pipelineConfig(env);
  return { retries: overdue ? 0 : c.PIPELINE_INRUN_RETRIES, backoffMs: c.PIPELINE_INRUN_BACKOFF_SECONDS * 1000 };
}

/** The wait before retry number `retry` (1-based): backoff, 2 x backoff, 4 x backoff... */
export function inRunWait(policy: InRunPolicy, retry: number): Promise<void> {
  const ms = policy.backoffMs * 2 ** (retry - 1);
  return ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve();
}

/** The moment a run stops waiting for retries: its start plus the configured deadline. */
export function runDeadline(env: Env, task: { started_at: Date | null; created_at: Date }): Date {
  const start = new Date(task.started_at ?? task.created_at).getTime();
  return new Date(start + pipelineConfig(env).PIPELINE_RUN_DEADLINE_MINUTES * 60_000);
}
