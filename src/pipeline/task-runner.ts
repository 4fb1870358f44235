/**
 * Direct collection tasks (`POST /api/v1/tasks/trigger` -> queue -> `/pipeline/tasks/run`).
 *
 * State machine: pending -> running -> success | failed; pending -> cancelled; running -> cancelling
 * -> cancelled (the runner ends a task asked to cancel as `cancelled` when its collection returns).
 * Every move is one conditional UPDATE with its event row and, for terminal states, the
 * `task_finished` webhook event, in one transaction. The runner only starts a task it moves out of
 * `pending`, so a redelivered queue message finds it moved and does nothing. The collection itself
 * runs between two transactions (no transaction is held across network I/O); a task left `running`
 * by a crash is failed by the scheduled timeout sweep.
 */
import type { Db, Queryable } from '../platform/db.ts';
import type { Env } from '../platform/env.ts';
import { emitEvent } from './events.ts';
import { agentChat } from './agent-provider.ts';
import { collect } from './collectors/index.ts';
import { getSource, setSourceStatus, storeArticles } from './queries-sources.ts';
import { recordEvent, stuckTasks, transition, type TaskRow, type TaskStatus } from './queries-tasks.ts';
import { taskView } from './views.ts';

export async function finishTask(
  tx: Queryable,
  id: string,
  from: TaskStatus[],
  to: TaskStatus,
  set: Parameters<typeof transition>[4],
  event: { stage: string; event_type: string; message: string; level?: 'info' | 'warning' | 'error' },
): Promise<TaskRow | undefined> {
  const row = await transition(tx, id, from, to, set);
  if (!row) return undefined;
  await recordEvent(tx, row, { ...event, payload: { status: to } });
  await emitEvent(tx, 'task_finished', taskView(row));
  return row;
}

/** Runs one pending direct task; returns what happened (for the queue answer and tests). */
export async function runTask(env: Env, db: Db, taskId: string): Promise<{ ran: boolean; status?: TaskStatus }> {
  const started = await db.transaction(async (tx) => {
    const row = await transition(tx, taskId, ['pending'], 'running');
    if (row)
      await recordEvent(tx, row, { stage: 'collect', event_type: 'task_running', message: 'collection started' });
    return row;
  });
  if (!started) return { ran: false };

  const source = started.source_id ? await getSource(db, started.source_id) : undefined;
  let outcome:
    | { ok: true; count: number; fresh: number; method: string; format: string }
    | { ok: false; error: string; method: string | null };
  if (!source)
    outcome = {
      ok: false,
      error: started.source_id ? 'source not found (deleted?)' : 'no enabled source in this category',
      method: null,
    };
  else {
    await setSourceStatus(db, source.id, 'running');
    try {
      const agent = await agentChat(env, db, source);
      const result = await collect(env, source, { window: { start: null, end: null }, agentChat: agent });
      const stored = await storeArticles(db, source.id, result.items);
      outcome = {
        ok: true,
        count: result.items.length,
        fresh: stored.inserted,
        method: source.collect_method,
        format: result.format,
      };
    } catch (err) {
      outcome = { ok: false, error: (err as Error).message, method: source.collect_method };
    }
  }

  const final = await db.transaction(async (tx) => {
    if (source) await setSourceStatus(tx, source.id, outcome.ok ? 'healthy' : 'error', outcome.ok);
    const trace = [
      outcome.ok
        ? {
            stage: 'collect',
            provider: outcome.method,
            status: 'success',
            articles: outcome.count,
            new_articles: outcome.fresh,
            format: outcome.format,
          }
        : { stage: 'collect', provider: outcome.method, status: 'failed', articles: 0, error: outcome.error },
    ];
    const cancelled = await finishTask(
      tx,
      taskId,
      ['cancelling'],
      'cancelled',
      { stage_trace: trace, articles_count: outcome.ok ? outcome.count : 0 },
      { stage: 'collect', event_type: 'task_cancelled', message: 'cancelled on request' },
    );
    if (cancelled) return cancelled;
    return outcome.ok
      ? finishTask(
          tx,
          taskId,
          ['running'],
          'success',
          { stage_trace: trace, articles_count: outcome.count, error_message: null },
          {
            stage: 'collect',
            event_type: 'task_succeeded',
            message: `collected ${outcome.count} items (${outcome.fresh} new)`,
          },
        )
      : finishTask(
          tx,
          taskId,
          ['running'],
          'failed',
          { stage_trace: trace, error_message: outcome.error },
          { stage: 'collect', event_type: 'task_failed', message: outcome.error, level: 'error' },
        );
  });
  return { ran: true, status: final?.status };
}

/** Cancels a task: pending -> cancelled at once, running -> cancelling; undefined if terminal. */
export async function cancelTask(db: Db, id: string): Promise<TaskRow | undefined> {
  return db.transaction(async (tx) => {
    const now = await finishTask(
      tx,
      id,
      ['pending'],
      'cancelled',
      {},
      { stage: 'control', event_type: 'task_cancelled', message: 'cancelled before it started' },
    );
    if (now) return now;
    const asked = await transition(tx, id, ['running'], 'cancelling');
    if (asked)
      await recordEvent(tx, asked, {
        stage: 'control',
        event_type: 'run_cancel_requested',
        message: 'cancellation requested',
        level: 'warning',
      });
    return asked;
  });
}

/** Fails tasks stuck past their deadline (scheduled sweep). Returns the ids it failed. */
export async function failStuckTasks(db: Db, runningMinutes: number, pendingMinutes: number): Promise<string[]> {
  const stuck = await stuckTasks(db, runningMinutes, pendingMinutes);
  const failed: string[] = [];
  for (const t of stuck) {
    const message =
      t.status === 'pending'
        ? `not started within ${pendingMinutes} minutes`
        : `timed out after ${runningMinutes} minutes`;
    const row = await db.transaction(async (tx) => {
      const r = await finishTask(
        tx,
        t.id,
        [t.status],
        t.status === 'cancelling' ? 'cancelled' : 'failed',
        { error_message: message },
        { stage: 'control', event_type: 'task_timed_out', message, level: 'error' },
      );
      if (r) {
        const steps = await tx.query<{ step: string }>(
          `UPDATE pipeline.run_steps SET status = 'failed', error = coalesce(error, $2), finished_at = now() WHERE run_id = $1 AND status IN ('pending', 'running') RETURNING step`,
          [t.id, message],
        );
        for (const s of steps.map((x) => x.step).sort())
          await recordEvent(tx, r, { stage: s, event_type: 'step_failed', level: 'error', message });
      }
      return r;
    });
    if (row) failed.push(row.id);
  }
  return failed;
}
