/**
 * The run deadline's sweep (cron, with the other sweeps in scheduled.ts): a monitor run still
 * `running` past `PIPELINE_RUN_DEADLINE_MINUTES` after it started is not left waiting for the queue's
 * next retry (30 minutes away in production). Its first open step is queued again at once under a
 * deduplication id of its own; that delivery finds the run past its deadline (monitor-runner.ts), so
 * every step from there runs once, without retries, the model stages on their fallbacks, and the run
 * ends with what it has: `partial_success` when its report is stored, `failed` otherwise. One
 * `run_deadline` warning event says so. The retry the queue still holds later finds its step
 * finished and does nothing.
 */
import type { Db } from '../platform/db.ts';
import type { Env } from '../platform/env.ts';
import { pipelineConfig } from './config.ts';
import { CORE_STEPS, enqueue } from './monitor-runner.ts';
import { getSteps, recordEvent, type TaskRow } from './queries-tasks.ts';

async function overdueRuns(db: Db, minutes: number): Promise<TaskRow[]> {
  return db.query<TaskRow>(
    `SELECT t.* FROM pipeline.tasks t
     WHERE t.status = 'running' AND t.monitor_id IS NOT NULL
       AND coalesce(t.started_at, t.created_at) < now() - make_interval(secs => $1::float8 * 60)
     ORDER BY t.created_at LIMIT 100`,
    [minutes],
  );
}

/** Queues the first open step of every overdue run; answers the runs it pushed. */
export async function pushOverdueRuns(env: Env, db: Db): Promise<string[]> {
  const minutes = pipelineConfig(env).PIPELINE_RUN_DEADLINE_MINUTES;
  const pushed: string[] = [];
  for (const run of await overdueRuns(db, minutes)) {
    const steps = await getSteps(db, run.id);
    const order = (name: string) => (CORE_STEPS.includes(name) ? CORE_STEPS.indexOf(name) : CORE_STEPS.length);
    const open = steps
      .filter((s) => s.status === 'pending' || s.status === 'running')
      .sort((a, b) => order(a.step) - order(b.step) || (a.step < b.step ? -1 : 1))[0];
    if (!open) continue;
    const [seen] = await db.query(
      `SELECT 1 FROM pipeline.task_events WHERE task_id = $1 AND event_type = 'run_deadline' LIMIT 1`,
      [run.id],
    );
    if (!seen)
      await recordEvent(db, run, {
        stage: 'run',
        event_type: 'run_deadline',
        level: 'warning',
        message: `the run passed its deadline of ${minutes} minute(s): it ends with what it has`,
        payload: { step: open.step },
      });
    await enqueue(env, run.id, open.step, `${run.id}:${open.step}:deadline`);
    pushed.push(run.id);
  }
  return pushed;
}
