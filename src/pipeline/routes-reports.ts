/**
 * /api/v1/reports: list (time_period/report_type/monitor_id filters, limit 1..100 default 20, page >= 1,
 * newest report_date first; no content), `filters` (distinct values of existing reports), detail,
 * delete, `publish` again to destinations (422 none given, 404 unknown, 409 disabled, 502 when a
 * destination fails), and `custom`, the reserved entry point (501 with the request echoed, as the original).
 */
import { Hono } from 'hono';
import type { AppEnv } from '../platform/env.ts';
import { HttpError } from '../platform/errors.ts';
import { parseWith, validate } from '../platform/validate.ts';
import { notifyOutbox } from '../platform/events.ts';
import { PermanentStepError, publishTo } from './monitor-runner.ts';
import { optionalJson, uuidParam } from './params.ts';
import { deleteReport, getReport, listReports, reportFilterValues } from './queries-reports.ts';
import { getDestination } from './queries-settings.ts';
import { DESTINATION_IDS } from './settings.ts';
import { reportSummaryView, reportView } from './views.ts';
import { reportCustom, reportList, reportPublish } from './schemas.ts';

export const reportRoutes = new Hono<AppEnv>();

reportRoutes.get('/', validate('query', reportList), async (c) => {
  const q = c.req.valid('query');
  const { rows, total } = await listReports(c.get('db'), { ...q, offset: (q.page - 1) * q.limit });
  c.header('X-Total-Count', String(total));
  return c.json(rows.map(reportSummaryView));
});

reportRoutes.get('/filters', async (c) => c.json(await reportFilterValues(c.get('db'))));

reportRoutes.post('/custom', validate('json', reportCustom), async (c) => {
  throw new HttpError(501, 'Not implemented (P2)', {
    detail: { message: 'Not implemented (P2)', request_echo: c.req.valid('json') },
  });
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
  const body = parseWith(reportPublish, await optionalJson(c));
  const db = c.get('db');
  const report = await getReport(db, id);
  if (!report) throw new HttpError(404, 'Report not found');
  const ids = [
    ...new Set([
      ...(body.destination_id ? [body.destination_id] : []),
      ...(body.destination_ids ?? []),
      ...(body.destination_instance_ids ?? []),
    ]),
  ];
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
      results.push({
        destination_id: d,
        status: 'failed',
        error: (err as Error).message,
        permanent: err instanceof PermanentStepError,
      });
    }
  }
  c.executionCtx.waitUntil(notifyOutbox(c.env));
  const failed = results.filter((r) => r.status === 'failed');
  if (failed.length)
    throw new HttpError(502, 'Publishing failed', {
      detail: { message: `Publishing failed for ${failed.map((f) => f.destination_id).join(', ')}`, results },
    });
  return c.json({ report_id: id, results, report: reportView((await getReport(db, id))!) });
});
