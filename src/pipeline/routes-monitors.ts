/**
 * /api/v1/monitors: CRUD (bound sources, a provider per stage in `ai_routing.stages`, bound
 * destinations, window 1..168 h, cron `custom_schedule`), `run` (queued steps, see monitor-runner.ts),
 * run history, a run's events and steps, cancel a run, and the monitor's event log.
 */
import { Hono, type Context } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../platform/env.ts';
import { HttpError } from '../platform/errors.ts';
import { parseWith, validate } from '../platform/validate.ts';
import { notifyOutbox } from '../platform/events.ts';
import { monitorSchedule, nextRun } from './cron.ts';
import { monitorRunSummary, startMonitorRun } from './monitor-runner.ts';
import { optionalJson, uuidParam } from './params.ts';
import {
  deleteMonitor,
  getMonitor,
  insertMonitor,
  listMonitors,
  monitorRuns,
  saveMonitor,
  type MonitorRow,
} from './queries-monitors.ts';
import { getSources } from './queries-sources.ts';
import { listEvents } from './queries-tasks.ts';
import { cancelTask } from './task-runner.ts';
import { monitorView } from './views.ts';
import { monitorCreate, monitorFields, monitorPatch } from './schemas.ts';

const defaultType = (p: string) => (p === 'weekly' ? 'weekly' : p === 'custom' ? 'research' : 'daily');

async function checkSources(c: Context<AppEnv>, ids: string[]): Promise<string[]> {
  const unique = [...new Set(ids.map((i) => i.toLowerCase()))];
  const found = await getSources(c.get('db'), unique);
  const missing = unique.filter((id) => !found.some((s) => s.id === id));
  if (missing.length) throw new HttpError(422, `Unknown source_ids: ${missing.join(', ')}`);
  return unique;
}

function scheduleFrom(m: Pick<MonitorRow, 'custom_schedule' | 'time_period' | 'enabled'>): Date | null {
  const s = monitorSchedule(m);
  return s && m.enabled ? nextRun(s, new Date()) : null;
}

export const monitorRoutes = new Hono<AppEnv>();

monitorRoutes.get('/', async (c) => c.json((await listMonitors(c.get('db'))).map(monitorView)));

monitorRoutes.post('/', validate('json', monitorCreate), async (c) => {
  const b = c.req.valid('json');
  const source_ids = await checkSources(c, b.source_ids);
  const base = {
    ...b,
    source_ids,
    destination_ids: [...new Set(b.destination_ids)],
    report_type: b.report_type ?? defaultType(b.time_period),
  };
  const row = await insertMonitor(c.get('db'), { ...base, next_run_at: scheduleFrom(base) });
  return c.json(monitorView(row), 201);
});

monitorRoutes.get('/:monitor_id', async (c) => {
  const row = await getMonitor(c.get('db'), uuidParam(c, 'monitor_id'));
  if (!row) throw new HttpError(404, 'Monitor not found');
  return c.json(monitorView(row));
});

monitorRoutes.patch('/:monitor_id', validate('json', monitorPatch), async (c) => {
  const db = c.get('db');
  const current = await getMonitor(db, uuidParam(c, 'monitor_id'));
  if (!current) throw new HttpError(404, 'Monitor not found');
  const b = c.req.valid('json');
  const next: MonitorRow = { ...current, ...b };
  if (b.source_ids) next.source_ids = await checkSources(c, b.source_ids);
  if (b.destination_ids) next.destination_ids = [...new Set(b.destination_ids)];
  next.next_run_at = scheduleFrom(next);
  return c.json(monitorView(await saveMonitor(db, next)));
});

monitorRoutes.delete('/:monitor_id', async (c) => {
  if (!(await deleteMonitor(c.get('db'), uuidParam(c, 'monitor_id')))) throw new HttpError(404, 'Monitor not found');
  return c.body(null, 204);
});

monitorRoutes.post('/:monitor_id/run', async (c) => {
  const db = c.get('db');
  const monitor = await getMonitor(db, uuidParam(c, 'monitor_id'));
  if (!monitor) throw new HttpError(404, 'Monitor not found');
  const body = parseWith(z.object({ window_hours: monitorFields.window_hours.optional() }), await optionalJson(c));
  const task = await startMonitorRun(c.env, db, monitor, 'manual', body.window_hours);
  return c.json({ task_id: task.id, run_id: task.run_id, status: task.status, monitor_id: monitor.id });
});

monitorRoutes.get(
  '/:monitor_id/runs',
  validate('query', z.object({ limit: z.coerce.number().int().min(1).max(200).default(20) })),
  async (c) => {
    const db = c.get('db');
    const id = uuidParam(c, 'monitor_id');
    if (!(await getMonitor(db, id))) throw new HttpError(404, 'Monitor not found');
    return c.json(await monitorRuns(db, id, c.req.valid('query').limit));
  },
);

monitorRoutes.get('/:monitor_id/logs', async (c) => {
  const db = c.get('db');
  const id = uuidParam(c, 'monitor_id');
  if (!(await getMonitor(db, id))) throw new HttpError(404, 'Monitor not found');
  return c.json(await listEvents(db, { monitor_id: id }));
});

async function runOf(c: Context<AppEnv>) {
  const monitorId = uuidParam(c, 'monitor_id');
  const runId = uuidParam(c, 'run_id');
  const run = await monitorRunSummary(c.get('db'), runId);
  if (!run || run.monitor_id !== monitorId) throw new HttpError(404, 'Run not found');
  return run;
}

monitorRoutes.get('/:monitor_id/runs/:run_id', async (c) => c.json(await runOf(c)));

monitorRoutes.get('/:monitor_id/runs/:run_id/events', async (c) => {
  const run = await runOf(c);
  return c.json(await listEvents(c.get('db'), { run_id: run.id }));
});

monitorRoutes.post('/:monitor_id/runs/:run_id/cancel', async (c) => {
  const run = await runOf(c);
  const row = await cancelTask(c.get('db'), run.id);
  if (!row) throw new HttpError(409, `Run is already ${run.status}`);
  if (row.status === 'cancelled') c.executionCtx.waitUntil(notifyOutbox(c.env));
  return c.json({ run_id: run.id, status: row.status });
});
