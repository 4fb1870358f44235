/**
 * SQL of tasks and their event log. A transition is one conditional UPDATE (`WHERE status = ANY(from)`)
 * plus its event row, both on the caller's transaction, so a state change and its record commit
 * together and a duplicate queue delivery finds the task already moved and does nothing.
 */
import type { Queryable } from '../platform/db.ts';

export const TASK_STATUSES = [
  'pending',
  'running',
  'cancelling',
  'cancelled',
  'success',
  'failed',
  'partial_success',
] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export const TERMINAL: TaskStatus[] = ['cancelled', 'success', 'failed', 'partial_success'];

export interface TaskRow {
  id: string;
  run_id: string;
  monitor_id: string | null;
  source_id: string | null;
  trigger_type: string;
  status: TaskStatus;
  started_at: Date | null;
  finished_at: Date | null;
  articles_count: number;
  error_message: string | null;
  stage_trace: Record<string, unknown>[];
  window_hours: number | null;
  created_at: Date;
}

export interface TaskEvent {
  stage: string;
  event_type: string;
  level?: 'debug' | 'info' | 'warning' | 'error';
  message?: string;
  payload?: Record<string, unknown>;
}

export async function insertTask(
  db: Queryable,
  t: {
    id?: string;
    monitor_id?: string | null;
    source_id: string | null;
    trigger_type: string;
    status: TaskStatus;
    window_hours?: number | null;
  },
): Promise<TaskRow> {
  const id = t.id ?? crypto.randomUUID();
  const [row] = await db.query<TaskRow>(
    `INSERT INTO pipeline.tasks (id, run_id, monitor_id, source_id, trigger_type, status, started_at, window_hours)
     VALUES ($1, $1, $2, $3, $4, $5, CASE WHEN $5 = 'running' THEN now() END, $6) RETURNING *`,
    [id, t.monitor_id ?? null, t.source_id, t.trigger_type, t.status, t.window_hours ?? null],
  );
  return row!;
}

export async function recordEvent(
  db: Queryable,
  task: Pick<TaskRow, 'id' | 'run_id' | 'monitor_id' | 'source_id'>,
  e: TaskEvent,
): Promise<void> {
  await db.query(
    `INSERT INTO pipeline.task_events (run_id, task_id, monitor_id, source_id, stage, level, event_type, message, payload) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb)`,
    [
      task.run_id,
      task.id,
      task.monitor_id,
      task.source_id,
      e.stage,
      e.level ?? 'info',
      e.event_type,
      e.message ?? '',
      JSON.stringify(e.payload ?? {}),
    ],
  );
}

/** Moves a task from one of `from` to `to`; returns the updated row, or undefined if it was elsewhere. */
export async function transition(
  db: Queryable,
  id: string,
  from: TaskStatus[],
  to: TaskStatus,
  set: { error_message?: string | null; articles_count?: number; stage_trace?: unknown[] } = {},
): Promise<TaskRow | undefined> {
  const terminal = TERMINAL.includes(to);
  const [row] = await db.query<TaskRow>(
    `UPDATE pipeline.tasks SET status = $3,
       started_at = CASE WHEN $3 = 'running' AND started_at IS NULL THEN now() ELSE started_at END,
       finished_at = CASE WHEN $4 THEN now() ELSE finished_at END,
       error_message = CASE WHEN $5 THEN $6 ELSE error_message END,
       articles_count = coalesce($7, articles_count),
       stage_trace = coalesce($8::jsonb, stage_trace),
       updated_at = now()
     WHERE id = $1 AND status = ANY($2::text[]) RETURNING *`,
    [
      id,
      from,
      to,
      terminal,
      set.error_message !== undefined,
      set.error_message ?? null,
      set.articles_count ?? null,
      set.stage_trace === undefined ? null : JSON.stringify(set.stage_trace),
    ],
  );
  return row;
}

export async function appendTrace(db: Queryable, id: string, entry: Record<string, unknown>): Promise<void> {
  await db.query(`UPDATE pipeline.tasks SET stage_trace = stage_trace || $2::jsonb, updated_at = now() WHERE id = $1`, [
    id,
    JSON.stringify([entry]),
  ]);
}

export async function getTask(db: Queryable, id: string): Promise<TaskRow | undefined> {
  return (await db.query<TaskRow>(`SELECT * FROM pipeline.tasks WHERE id = $1`, [id]))[0];
}

export async function listTasks(
  db: Queryable,
  f: { category?: string; status?: string; monitor_id?: string; limit: number; offset: number },
): Promise<TaskRow[]> {
  return db.query<TaskRow>(
    `SELECT t.* FROM pipeline.tasks t LEFT JOIN pipeline.sources s ON s.id = t.source_id
     WHERE ($1::text IS NULL OR s.category = $1) AND ($2::text IS NULL OR t.status = $2) AND ($3::uuid IS NULL OR t.monitor_id = $3)
     ORDER BY t.created_at DESC, t.id LIMIT $4 OFFSET $5`,
    [f.category ?? null, f.status ?? null, f.monitor_id ?? null, f.limit, f.offset],
  );
}

export async function listEvents(
  db: Queryable,
  by: { run_id?: string; task_id?: string; monitor_id?: string },
  limit = 500,
): Promise<Record<string, unknown>[]> {
  return db.query(
    `SELECT id, run_id, task_id, monitor_id, source_id, stage, level, event_type, message, payload, created_at FROM pipeline.task_events
     WHERE ($1::uuid IS NULL OR run_id = $1) AND ($2::uuid IS NULL OR task_id = $2) AND ($3::uuid IS NULL OR monitor_id = $3)
     ORDER BY id LIMIT $4`,
    [by.run_id ?? null, by.task_id ?? null, by.monitor_id ?? null, limit],
  );
}

/** A monitor run is stuck only after this long without any recorded activity (see stuckTasks). */
export const RUN_IDLE_MINUTES = 60;

/**
 * Tasks left running (or pending) past their deadline: returned so the caller can fail each one.
 * A direct task is stuck `runningMinutes` after it started. A monitor run (a task with run steps) is
 * measured from its last event, with at least RUN_IDLE_MINUTES: every step delivery records one, and
 * QStash's default backoff puts a step's last retry about 30 minutes after the one before, so a run
 * that is still being retried is not failed under it.
 */
export async function stuckTasks(db: Queryable, runningMinutes: number, pendingMinutes: number): Promise<TaskRow[]> {
  return db.query<TaskRow>(
    `SELECT t.* FROM pipeline.tasks t
     LEFT JOIN LATERAL (SELECT EXISTS (SELECT 1 FROM pipeline.run_steps s WHERE s.run_id = t.id) AS is_run,
                               (SELECT max(e.created_at) FROM pipeline.task_events e WHERE e.task_id = t.id) AS last_event) a ON true
     WHERE (t.status IN ('running', 'cancelling') AND (
              (NOT a.is_run AND coalesce(t.started_at, t.created_at) < now() - make_interval(mins => $1))
           OR (a.is_run AND greatest(coalesce(t.started_at, t.created_at), a.last_event) < now() - make_interval(mins => greatest($1, $3)))))
        OR (t.status = 'pending' AND t.created_at < now() - make_interval(mins => $2))
     ORDER BY t.created_at LIMIT 100`,
    [runningMinutes, pendingMinutes, RUN_IDLE_MINUTES],
  );
}

export async function deleteOldEvents(db: Queryable, days: number): Promise<void> {
  await db.query(`DELETE FROM pipeline.task_events WHERE created_at < now() - make_interval(days => $1)`, [days]);
}

// Monitor-run steps -----------------------------------------------------------------------------

export interface StepRow {
  run_id: string;
  step: string;
  status: 'pending' | 'running' | 'success' | 'failed';
  attempts: number;
  error: string | null;
  result: Record<string, unknown>;
  started_at: Date | null;
  finished_at: Date | null;
}

export async function insertSteps(db: Queryable, runId: string, steps: string[]): Promise<void> {
  await db.query(`INSERT INTO pipeline.run_steps (run_id, step) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`, [
    runId,
    steps,
  ]);
}

export async function getSteps(db: Queryable, runId: string): Promise<StepRow[]> {
  return db.query<StepRow>(`SELECT * FROM pipeline.run_steps WHERE run_id = $1 ORDER BY started_at NULLS LAST, step`, [
    runId,
  ]);
}

/** Claims an attempt at a step that is not finished: attempts + 1, status running. */
export async function beginStep(db: Queryable, runId: string, step: string): Promise<StepRow | undefined> {
  return (
    await db.query<StepRow>(
      `UPDATE pipeline.run_steps SET status = 'running', attempts = attempts + 1, started_at = coalesce(started_at, now())
     WHERE run_id = $1 AND step = $2 AND status IN ('pending', 'running') RETURNING *`,
      [runId, step],
    )
  )[0];
}

export async function finishStep(
  db: Queryable,
  runId: string,
  step: string,
  status: 'success' | 'failed',
  result: Record<string, unknown>,
  error: string | null,
): Promise<boolean> {
  return (
    (
      await db.query(
        `UPDATE pipeline.run_steps SET status = $3, result = result || $4::jsonb, error = $5, finished_at = now() WHERE run_id = $1 AND step = $2 AND status IN ('pending', 'running') RETURNING step`,
        [runId, step, status, JSON.stringify(result), error],
      )
    ).length > 0
  );
}

export async function noteStepError(
  db: Queryable,
  runId: string,
  step: string,
  error: string,
  result: Record<string, unknown> = {},
): Promise<void> {
  await db.query(
    `UPDATE pipeline.run_steps SET error = $3, result = result || $4::jsonb WHERE run_id = $1 AND step = $2`,
    [runId, step, error, JSON.stringify(result)],
  );
}
