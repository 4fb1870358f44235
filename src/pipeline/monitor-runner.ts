/**
 * Monitor runs as queued steps: `collect` -> [`filter`] -> [`keywords`] -> [`global_summary`] ->
 * `report` -> `publish:<destination>` (the bracketed model stages only when the monitor binds a
 * provider to them, see stage-steps.ts; one publish per bound destination, one after another in name
 * order, so each destination is retried on its own and a failed one, once out of retries, hands over
 * to the next). Each step is its own queue message to `/pipeline/monitor-runs/step`, so a
 * failing step is retried by the queue (up to STEP_RETRIES) without redoing the steps before it.
 *
 * Invariants:
 * - A run is a task row (trigger manual|scheduled, run_id = id) plus one `run_steps` row per step;
 *   `attempts` counts every delivery that started the step, `error` keeps the last failure.
 * - A step runs only while `pending|running`; its end is committed before the next step is
 *   published (with deduplication id `<run>:<step>`), and a redelivered finished step re-publishes its
 *   successor, so a lost publish cannot strand a run.
 * - The queue retries a step only for failures a later try may fix (database, crash, a provider
 *   answering 5xx). What it cannot fix is handled inside the delivery: a failing source is retried
 *   in the run and then listed (collect-step.ts); a model answer that is not the JSON asked for is
 *   asked again and then the stage falls back (stage-call.ts); every source failing fails the step
 *   at once (PermanentStepError).
 * - The last attempt of a step that still fails marks it `failed` (no more retries); the model steps
 *   (`filter`, `keywords`, `global_summary`, `report`) fall back instead (keep all articles, rule
 *   keywords, extractive TL;DR, extractive writer), so a run with collected articles always has a report.
 * - A delivery after the run's deadline (PIPELINE_RUN_DEADLINE_MINUTES from its start) counts as the
 *   last attempt and the model stages fall back without a call; run-deadline.ts queues such a
 *   delivery when the queue's next retry is further away.
 * - Finishing a step and deciding the run's end happen in one transaction holding the task row lock:
 *   all steps success and nothing degraded -> success; report stored but something degraded (a failed
 *   source, a stage fallback, a failed publish: run-degradations.ts) -> partial_success; any step
 *   before the publishes failed -> failed; cancel requested -> cancelled. `task_finished` is emitted then, and
 *   `report_published` when the report is stored.
 */
import type { Db, Queryable } from '../platform/db.ts';
import type { Env } from '../platform/env.ts';
import { HttpError } from '../platform/errors.ts';
import { publish } from '../platform/queue.ts';
import { emitEvent } from './events.ts';
import { collectStep } from './collect-step.ts';
import { nextRun, monitorSchedule } from './cron.ts';
import { publishNotion } from './publishers/notion.ts';
import { publishObsidian } from './publishers/obsidian.ts';
import type { PublishInput, PublishOutcome } from './publishers/types.ts';
import { getMonitor, touchMonitorRun, type MonitorRow } from './queries-monitors.ts';
import { getReportByRun, recordPublish, type ReportRow } from './queries-reports.ts';
import { getDestination } from './queries-settings.ts';
import {
  appendTrace,
  beginStep,
  finishStep,
  getSteps,
  getTask,
  insertSteps,
  insertTask,
  noteStepError,
  recordEvent,
  type StepRow,
  type TaskRow,
} from './queries-tasks.ts';
import { runDeadline } from './in-run-retry.ts';
import { reportStep } from './report-step.ts';
import { degradations } from './run-degradations.ts';
import { PermanentStepError } from './step-errors.ts';
import { destinationSecret } from './settings.ts';
import { PAPER_REPORT_TYPES } from './paper-cards.ts';
import { filterStep, globalSummaryStep, keywordsStep, paperNoteStep, paperReviewStep } from './stage-steps.ts';
import { stageProviderId, type StageInput } from './stage-input.ts';
import { MODEL_STAGES, PAPER_STAGES } from './stages.ts';
import { finishTask } from './task-runner.ts';
import { publishedReportView, reportDate, taskView } from './views.ts';
import { pipelineConfig } from './config.ts';

export { reportPageUrl } from './report-step.ts';
export { PermanentStepError } from './step-errors.ts';

export const STEP_RETRIES = 3;
export const STEP_PATH = '/pipeline/monitor-runs/step';

export function feedUrl(env: Env): string {
  return `${pipelineConfig(env).PIPELINE_URL ?? ''}/api/v1/feed.xml`;
}

/** Queues one step; `deduplicationId` defaults to `<run>:<step>` (the deadline sweep queues its own). */
export async function enqueue(
  env: Env,
  runId: string,
  step: string,
  deduplicationId = `${runId}:${step}`,
): Promise<void> {
  const retryDelay = pipelineConfig(env).PIPELINE_STEP_RETRY_DELAY;
  await publish(env, {
    path: STEP_PATH,
    body: { runId, step },
    retries: STEP_RETRIES,
    deduplicationId,
    ...(retryDelay ? { retryDelay } : {}),
  });
}

export async function startMonitorRun(
  env: Env,
  db: Db,
  monitor: MonitorRow,
  trigger: 'manual' | 'scheduled',
  windowHours?: number,
): Promise<TaskRow> {
  const papers = PAPER_REPORT_TYPES.includes(monitor.report_type);
  const bound = MODEL_STAGES.filter((s) => stageProviderId(monitor, s) && (papers || !PAPER_STAGES.includes(s)));
  const steps = ['collect', ...bound, 'report', ...monitor.destination_ids.map((d) => `publish:${d}`)];
  const schedule = monitorSchedule(monitor);
  const task = await db.transaction(async (tx) => {
    const t = await insertTask(tx, {
      monitor_id: monitor.id,
      source_id: null,
      trigger_type: trigger,
      status: 'running',
      window_hours: windowHours ?? monitor.window_hours,
    });
    await insertSteps(tx, t.id, steps);
    await recordEvent(tx, t, {
      stage: 'run',
      event_type: 'run_started',
      message: `${trigger} run of ${monitor.name}`,
      payload: { steps, window_hours: t.window_hours },
    });
    await touchMonitorRun(tx, monitor.id, schedule && monitor.enabled ? safeNext(schedule) : null);
    return t;
  });
  try {
    await enqueue(env, task.id, 'collect');
  } catch (err) {
    await db.transaction((tx) =>
      finishTask(
        tx,
        task.id,
        ['running'],
        'failed',
        { error_message: `could not queue the run: ${(err as Error).message}` },
        { stage: 'run', event_type: 'run_failed', message: 'queue unavailable', level: 'error' },
      ),
    );
    throw new HttpError(503, 'queue unavailable, run not started');
  }
  return task;
}

function safeNext(expr: string): Date | null {
  try {
    return nextRun(expr, new Date());
  } catch {
    return null;
  }
}

/** The steps before the publishes, in run order. */
export const CORE_STEPS = ['collect', ...MODEL_STAGES, 'report'];

/** The step queued after `step`: the next core step the run has, then publishes one after another in name order (see header). */
function successors(step: string, steps: StepRow[]): string[] {
  const core = CORE_STEPS.indexOf(step);
  if (core >= 0 && step !== 'report') return [CORE_STEPS.slice(core + 1).find((n) => steps.some((s) => s.step === n))!];
  const publishes = steps
    .filter((s) => s.step.startsWith('publish:'))
    .map((s) => s.step)
    .sort();
  if (step === 'report') return publishes.slice(0, 1);
  const i = publishes.indexOf(step);
  return i >= 0 && i + 1 < publishes.length ? [publishes[i + 1]!] : [];
}

export type StepAnswer =
  | { status: 'done' | 'duplicate' | 'skipped' | 'failed'; result?: Record<string, unknown> }
  | { status: 'retry'; error: string };

/** Handles one delivery of one step; `retried` is the queue's Upstash-Retried count. */
export async function runStep(env: Env, db: Db, runId: string, step: string, retried: number): Promise<StepAnswer> {
  const task = await getTask(db, runId);
  if (!task?.monitor_id) return { status: 'skipped' };
  const steps = await getSteps(db, runId);
  const current = steps.find((s) => s.step === step);
  if (!current) return { status: 'skipped' };
  if (current.status === 'success') {
    for (const next of successors(step, steps)) await enqueue(env, runId, next);
    return { status: 'duplicate' };
  }
  if (current.status === 'failed' && step.startsWith('publish:')) {
    for (const next of successors(step, steps)) await enqueue(env, runId, next);
    return { status: 'duplicate' };
  }
  if (current.status === 'failed' || ['success', 'failed', 'partial_success', 'cancelled'].includes(task.status))
    return { status: 'skipped' };
  if (task.status === 'cancelling') {
    await settle(db, runId, step, 'failed', {}, 'cancelled');
    return { status: 'skipped' };
  }
  const monitor = await getMonitor(db, task.monitor_id);
  if (!monitor) {
    await settle(db, runId, step, 'failed', {}, 'monitor deleted');
    return { status: 'failed' };
  }
  const begun = await db.transaction(async (tx) => {
    const s = await beginStep(tx, runId, step);
    if (s)
      await recordEvent(tx, task, {
        stage: step,
        event_type: 'step_started',
        message: `attempt ${s.attempts}`,
        payload: { attempt: s.attempts },
      });
    return s;
  });
  if (!begun) return { status: 'duplicate' };
  const overdue = Date.now() >= runDeadline(env, task).getTime();
  const last = retried >= STEP_RETRIES || overdue;
  try {
    const input: StageInput = { env, db, task, monitor, steps, last, overdue };
    const result =
      step === 'collect'
        ? await collectStep(input)
        : step === 'filter'
          ? await filterStep(input)
          : step === 'keywords'
            ? await keywordsStep(input)
            : step === 'global_summary'
              ? await globalSummaryStep(input)
              : step === 'paper_review'
                ? await paperReviewStep(input)
                : step === 'paper_note'
                  ? await paperNoteStep(input)
                  : step === 'report'
                    ? await reportStep(input)
                    : await publishStep(env, db, task, step.slice('publish:'.length), begun.attempts);
    await settle(db, runId, step, 'success', result, null);
    for (const next of successors(step, await getSteps(db, runId))) await enqueue(env, runId, next);
    return { status: 'done', result };
  } catch (err) {
    const message = err instanceof HttpError || err instanceof Error ? err.message : String(err);
    const permanent = err instanceof PermanentStepError;
    if (last || permanent) {
      await settle(db, runId, step, 'failed', {}, message);
      if (step.startsWith('publish:'))
        for (const next of successors(step, await getSteps(db, runId))) await enqueue(env, runId, next);
      return { status: 'failed' };
    }
    await db.transaction(async (tx) => {
      await noteStepError(tx, runId, step, message);
      await recordEvent(tx, task, {
        stage: step,
        event_type: 'step_retry',
        level: 'warning',
        message,
        payload: { attempt: begun.attempts },
      });
    });
    return { status: 'retry', error: message };
  }
}

/** Finishes a step and, holding the run's row lock, ends the run when every step is finished. */
async function settle(
  db: Db,
  runId: string,
  step: string,
  status: 'success' | 'failed',
  result: Record<string, unknown>,
  error: string | null,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [task] = await tx.query<TaskRow>(`SELECT * FROM pipeline.tasks WHERE id = $1 FOR UPDATE`, [runId]);
    if (!task) return;
    if (!(await finishStep(tx, runId, step, status, result, error))) return;
    await recordEvent(tx, task, {
      stage: step,
      event_type: status === 'success' ? 'step_succeeded' : 'step_failed',
      level: status === 'success' ? 'info' : 'error',
      message: error ?? 'done',
      payload: result,
    });
    await appendTrace(tx, runId, { stage: step, status, ...(error ? { error } : {}), ...pickTrace(result) });
    // Steps that can no longer run (a step before the publishes failed, or the run is being
    // cancelled) are finished as `not run` now, so the run ends without waiting for the sweep.
    const reason =
      task.status === 'cancelling'
        ? 'cancelled'
        : status === 'failed' && CORE_STEPS.includes(step)
          ? `${step} failed`
          : null;
    if (reason) {
      const skipped = await tx.query<{ step: string }>(
        `UPDATE pipeline.run_steps SET status = 'failed', error = 'not run: ' || $2, finished_at = now() WHERE run_id = $1 AND status = 'pending' RETURNING step`,
        [runId, reason],
      );
      for (const s of skipped.map((r) => r.step).sort())
        await recordEvent(tx, task, {
          stage: s,
          event_type: 'step_skipped',
          level: 'warning',
          message: `not run: ${reason}`,
        });
    }
    await maybeFinishRun(tx, task);
  });
}

function pickTrace(result: Record<string, unknown>): Record<string, unknown> {
  const keep = [
    'articles',
    'input',
    'output',
    'provider',
    'provider_attempts',
    'report_id',
    'sink',
    'url',
    'fallback',
    'sources',
    'papers',
  ];
  return Object.fromEntries(Object.entries(result).filter(([k]) => keep.includes(k)));
}

async function maybeFinishRun(tx: Queryable, task: TaskRow): Promise<void> {
  const steps = await getSteps(tx, task.id);
  if (steps.some((s) => s.status === 'pending' || s.status === 'running')) return;
  const byName = new Map(steps.map((s) => [s.step, s]));
  const core =
    steps.filter((s) => CORE_STEPS.includes(s.step)).every((s) => s.status === 'success') &&
    byName.get('report')?.status === 'success';
  const errors = steps.filter((s) => s.status === 'failed').map((s) => `${s.step}: ${s.error ?? 'failed'}`);
  if (task.status === 'cancelling') {
    await finishTask(
      tx,
      task.id,
      ['cancelling'],
      'cancelled',
      { error_message: errors.join('; ') || null },
      { stage: 'run', event_type: 'run_cancelled', message: 'cancelled on request' },
    );
    return;
  }
  const degraded = degradations(steps);
  const status = !core ? 'failed' : degraded.length ? 'partial_success' : 'success';
  const message =
    status === 'success' ? 'run completed' : status === 'failed' ? errors.join('; ') : degraded.join('; ');
  await finishTask(
    tx,
    task.id,
    ['running'],
    status,
    { error_message: status === 'success' ? null : message },
    {
      stage: 'run',
      event_type: status === 'failed' ? 'run_failed' : 'run_completed',
      message,
      level: status === 'success' ? 'info' : status === 'failed' ? 'error' : 'warning',
    },
  );
}

export function publishInput(r: ReportRow): PublishInput {
  return {
    report_id: r.id,
    title: r.title,
    tldr: String(r.metadata.global_tldr ?? ''),
    markdown: r.content,
    report_date: reportDate(r),
  };
}

/** Publishes a report to one destination; appends the attempt to its publish_trace either way. */
export async function publishTo(
  env: Env,
  db: Db,
  report: ReportRow,
  destinationId: string,
  trigger: string,
  attempt = 1,
): Promise<PublishOutcome> {
  const dest = await getDestination(db, destinationId);
  if (!dest) throw new PermanentStepError(`destination ${destinationId} not found`);
  const started = Date.now();
  const base = { stage: 'publish', sink: dest.id, destination_id: dest.id, trigger, attempt };
  try {
    if (!dest.enabled) throw new PermanentStepError(`destination ${dest.id} is disabled`);
    const secret = await destinationSecret(env, dest);
    const input = publishInput(report);
    const outcome: PublishOutcome =
      dest.id === 'notion'
        ? await publishNotion(env, dest.config, secret, input)
        : dest.id === 'obsidian'
          ? await publishObsidian(env, dest.config, secret, input)
          : { url: String(dest.config.feed_url || feedUrl(env)) };
    await db.transaction(async (tx) => {
      await recordPublish(tx, report.id, {
        ...base,
        status: 'success',
        url: outcome.url,
        external_id: outcome.external_id ?? null,
        latency_ms: Date.now() - started,
      });
      await emitEvent(tx, 'report_published', publishedReportView(report, dest.id, outcome.url));
    });
    return outcome;
  } catch (err) {
    await recordPublish(db, report.id, {
      ...base,
      status: 'failed',
      error: (err as Error).message,
      latency_ms: Date.now() - started,
    });
    throw err;
  }
}

async function publishStep(
  env: Env,
  db: Db,
  task: TaskRow,
  destinationId: string,
  attempt: number,
): Promise<Record<string, unknown>> {
  const report = await getReportByRun(db, task.id);
  if (!report) throw new PermanentStepError('no report stored for this run');
  const outcome = await publishTo(env, db, report, destinationId, task.trigger_type, attempt);
  return { sink: destinationId, url: outcome.url, report_id: report.id };
}

export async function monitorRunSummary(db: Db, runId: string) {
  const task = await getTask(db, runId);
  if (!task) return undefined;
  return { ...taskView(task), steps: await getSteps(db, runId) };
}
