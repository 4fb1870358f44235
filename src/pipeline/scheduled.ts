/**
 * The pipeline's cron handler (every 5 minutes in wrangler.toml): starts the runs of monitors whose
 * schedule is due (each claimed by moving `next_run_at` with a compare-and-set, so overlapping ticks
 * start a run once), pushes monitor runs past their run deadline to end with what they have
 * (run-deadline.ts), fails tasks stuck past their deadline (`PIPELINE_TASK_TIMEOUT_MINUTES`, default
 * 30, for running; 60 for pending), and drops task events older than 7 days (the original's retention).
 */
import { createDb } from '../platform/db.ts';
import type { Env } from '../platform/env.ts';
import { notifyOutbox } from '../platform/events.ts';
import { monitorSchedule, nextRun } from './cron.ts';
import { startMonitorRun } from './monitor-runner.ts';
import { claimSchedule, dueMonitors } from './queries-monitors.ts';
import { pushOverdueRuns } from './run-deadline.ts';
import { deleteOldEvents } from './queries-tasks.ts';
import { failStuckTasks } from './task-runner.ts';
import { pipelineConfig } from './config.ts';

export async function runScheduled(env: Env, now = new Date()): Promise<{ started: string[]; timedOut: string[] }> {
  const db = createDb(env);
  try {
    const started: string[] = [];
    for (const m of await dueMonitors(db)) {
      const schedule = monitorSchedule(m);
      const next = schedule ? nextRun(schedule, now) : null;
      if (!(await claimSchedule(db, m.id, next))) continue;
      try {
        const task = await startMonitorRun(env, db, m, 'scheduled');
        started.push(task.id);
      } catch (err) {
        console.error(`scheduled run of monitor ${m.id} failed to start:`, (err as Error).message);
      }
    }
    await pushOverdueRuns(env, db);
    const timedOut = await failStuckTasks(db, pipelineConfig(env).PIPELINE_TASK_TIMEOUT_MINUTES, 60);
    await deleteOldEvents(db, 7);
    if (timedOut.length) await notifyOutbox(env);
    return { started, timedOut };
  } finally {
    await db.close();
  }
}
