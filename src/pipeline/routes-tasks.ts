/**
 * /api/v1/tasks: list (category/status/monitor filters, paging), read, events, cancel, and `trigger`,
 * which creates a pending manual task with its event and publishes it to the queue
 * (`/pipeline/tasks/run`); unlike the original, the task really runs (see task-runner.ts).
 */
import { Hono } from 'hono';
import type { AppEnv } from '../platform/env.ts';
import { HttpError } from '../platform/errors.ts';
import { publish } from '../platform/queue.ts';
import { validate } from '../platform/validate.ts';
import { notifyOutbox } from '../platform/events.ts';
import { uuidParam } from './params.ts';
import { getSource, latestEnabledInCategory } from './queries-sources.ts';
import { getTask, insertTask, listEvents, listTasks, recordEvent } from './queries-tasks.ts';
import { cancelTask, finishTask } from './task-runner.ts';
import { taskView } from './views.ts';
import { taskList, taskTrigger } from './schemas.ts';

export const TASK_RUN_PATH = '/pipeline/tasks/run';

export const taskRoutes = new Hono<AppEnv>();

taskRoutes.get('/', validate('query', taskList), async (c) => {
  const q = c.req.valid('query');
  const rows = await listTasks(c.get('db'), { ...q, offset: (q.page - 1) * q.limit });
  return c.json(rows.map(taskView));
});

taskRoutes.post('/trigger', validate('json', taskTrigger), async (c) => {
  const body = c.req.valid('json');
  const db = c.get('db');
  let sourceId: string | null = null;
  if (body.source_id) {
    if (!(await getSource(db, body.source_id))) throw new HttpError(404, 'Source not found');
    sourceId = body.source_id;
  } else {
    // the original queues a task that can never run (its bug): a category without an enabled source is
    // a 404, as an unknown source_id is
    sourceId = (await latestEnabledInCategory(db, body.category!)) ?? null;
    if (!sourceId) throw new HttpError(404, `No enabled source in category ${body.category}`);
  }
  const task = await db.transaction(async (tx) => {
    const t = await insertTask(tx, { source_id: sourceId, trigger_type: 'manual', status: 'pending' });
    await recordEvent(tx, t, {
      stage: 'trigger',
      event_type: 'task_created',
      message: sourceId ? 'queued' : `no enabled source in category ${body.category}`,
      payload: { category: body.category ?? null },
    });
    return t;
  });
  try {
    await publish(c.env, {
      path: TASK_RUN_PATH,
      body: { taskId: task.id },
      retries: 3,
      deduplicationId: `task:${task.id}`,
    });
  } catch (err) {
    await db.transaction((tx) =>
      finishTask(
        tx,
        task.id,
        ['pending'],
        'failed',
        { error_message: `could not queue the task: ${(err as Error).message}` },
        { stage: 'trigger', event_type: 'task_failed', message: 'queue unavailable', level: 'error' },
      ),
    );
    c.executionCtx.waitUntil(notifyOutbox(c.env));
    throw new HttpError(503, 'Queue unavailable, task not started');
  }
  return c.json(taskView(task));
});

taskRoutes.get('/:task_id', async (c) => {
  const row = await getTask(c.get('db'), uuidParam(c, 'task_id'));
  if (!row) throw new HttpError(404, 'Task not found');
  return c.json(taskView(row));
});

taskRoutes.get('/:task_id/events', async (c) => {
  const id = uuidParam(c, 'task_id');
  const db = c.get('db');
  if (!(await getTask(db, id))) throw new HttpError(404, 'Task not found');
  return c.json(await listEvents(db, { task_id: id }));
});

taskRoutes.post('/:task_id/cancel', async (c) => {
  const id = uuidParam(c, 'task_id');
  const db = c.get('db');
  const current = await getTask(db, id);
  if (!current) throw new HttpError(404, 'Task not found');
  const row = await cancelTask(db, id);
  if (!row) throw new HttpError(409, `Task is already ${current.status}`);
  if (row.status === 'cancelled') c.executionCtx.waitUntil(notifyOutbox(c.env));
  return c.json(taskView(row));
});
