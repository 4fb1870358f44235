/**
 * /api/v1/reports: list (time_period/report_type/monitor_id filters, limit 1..100 default 20, page >= 1,
 * newest report_date first; no content), `filters` (distinct values of existing reports), detail,
 * delete, `publish` again to destinations (422 none given, 404 unknown, 409 disabled, 502 when a
 * destination fails), and `custom`, the reserved entry point (501 with the request echoed, as the original).
 */
import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../platform/env.ts';
import { HttpError } from '../platform/errors.ts';
import { parseWith, validate } from '../platform/validate.ts';
import { notifyOutbox } from '../webhooks/events.ts';
import { PermanentStepError, publishTo } from './monitor-runner.ts';
import { optionalJson, uuidParam } from './params.ts';
import { deleteReport, getReport, listReports, reportFilterValues } from './queries-reports.ts';
import { getDestination } from './queries-settings.ts';
import { DESTINATION_IDS } from './settings.ts';
import { reportSummaryView, reportView } from './views.ts';

export const TIME_PERIODS = ['daily', 'weekly', 'custom'] as const;
export const REPORT_TYPES = ['daily', 'weekly', 'research', 'paper'] as const;

const LIST = z.object({
  time_period: z.enum(TIME_PERIODS).optional(),
  report_type: z.enum(REPORT_TYPES).optional(),
  monitor_id: z.string().uuid().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  page: z.coerce.number().int().min(1).default(1),
});
const PUBLISH = z.object({ destination_id: z.string().optional(), destination_ids: z.array(z.string()).max(3).optional(), destination_instance_ids: z.array(z.string()).max(3).optional() });
const CUSTOM = z.object({
  title: z.string().min(1).max(256),
  prompt: z.string().min(1).max(10_000),
  time_period: z.enum(TIME_PERIODS).default('custom'),
  report_type: z.enum(REPORT_TYPES).default('research'),
  category: z.string().max(32).optional(),
  report_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional(),
});

export const reportRoutes = new Hono<AppEnv>();

reportRoutes.get('/', validate('query', LIST), async (c) => {
  const q = c.req.valid('query');
  const { rows, total } = await listReports(c.get('db'), { ...q, offset: (q.page - 1) * q.limit });
  c.header('X-Total-Count', String(total));
  return c.json(rows.map(reportSummaryView));
});

reportRoutes.get('/filters', async (c) => c.json(await reportFilterValues(c.get('db'))));

reportRoutes.post('/custom', validate('json', CUSTOM), async (c) => {
  throw new HttpError(501, 'Not implemented (P2)', { detail: { message: 'Not implemented (P2)', request_echo: c.req.valid('json') } });
});

reportRoutes.get('/:report_id', async (c) => {
  const row = await getReport(c.get('db'), uuidParam(c, 'report_id'));
  if (!row) throw new HttpError(404, 'Report not found');
  return c.json(reportView(row));
});

reportRoutes.delete('/:report_id', async (c) => {
  if (!(await deleteReport(c.get('db'), uuidParam(c, 'report_id')))) throw new HttpError(404, 'Report not found');
  return c.body(null, 204);
});

reportRoutes.post('/:report_id/publish', async (c) => {
  const id = uuidParam(c, 'report_id');
  const body = parseWith(PUBLISH, await optionalJson(c));
  const db = c.get('db');
  const report = await getReport(db, id);
  if (!report) throw new HttpError(404, 'Report not found');
  const ids = [...new Set([...(body.destination_id ? [body.destination_id] : []), ...(body.destination_ids ?? []), ...(body.destination_instance_ids ?? [])])];
  if (!ids.length) throw new HttpError(422, 'destination_id or destination_ids is required');
  for (const d of ids) {
    if (!(DESTINATION_IDS as readonly string[]).includes(d)) throw new HttpError(404, `Destination ${d} not found`);
    if (!(await getDestination(db, d))?.enabled) throw new HttpError(409, `Destination ${d} is disabled`);
  }
  const results: Record<string, unknown>[] = [];
  for (const d of ids) {
    try {
      const out = await publishTo(c.env, db, report, d, 'manual');
      results.push({ destination_id: d, status: 'success', url: out.url });
    } catch (err) {
      results.push({ destination_id: d, status: 'failed', error: (err as Error).message, permanent: err instanceof PermanentStepError });
    }
  }
  c.executionCtx.waitUntil(notifyOutbox(c.env));
  const failed = results.filter((r) => r.status === 'failed');
  if (failed.length) throw new HttpError(502, 'Publishing failed', { detail: { message: `Publishing failed for ${failed.map((f) => f.destination_id).join(', ')}`, results } });
  return c.json({ report_id: id, results, report: reportView((await getReport(db, id))!) });
});
