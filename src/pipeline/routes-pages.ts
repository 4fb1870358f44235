/** Public HTML pages: GET /reports (paged list) and GET /reports/{id} (detail), plus the API root linking them. */
import { Hono } from 'hono';
import type { AppEnv } from '../platform/env.ts';
import { isUuid } from './params.ts';
import { getReport, listReports } from './queries-reports.ts';
import { notFoundPage, PAGE_CSP, reportDetailPage, reportListPage } from './render/pages.ts';
import { reportSummaryView } from './views.ts';

const PAGE_SIZE = 20;

export const pageRoutes = new Hono<AppEnv>();

pageRoutes.get('/', (c) =>
  c.json({
    name: 'Insight Pipeline API',
    version: 'v1',
    api: '/api/v1',
    links: { reports_page: '/reports', feed: '/api/v1/feed.xml', health: '/healthz' },
  }),
);

pageRoutes.get('/reports', async (c) => {
  const raw = Number(c.req.query('page') ?? '1');
  const page = Number.isInteger(raw) && raw >= 1 && raw <= 100_000 ? raw : 1;
  const { rows, total } = await listReports(c.get('db'), { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
  const html = reportListPage(rows.map(reportSummaryView), page, page * PAGE_SIZE < total);
  return c.html(html, 200, { 'content-security-policy': PAGE_CSP, 'x-content-type-options': 'nosniff' });
});

pageRoutes.get('/reports/:report_id', async (c) => {
  const id = c.req.param('report_id');
  const row = isUuid(id) ? await getReport(c.get('db'), id) : undefined;
  if (!row) return c.html(notFoundPage(), 404, { 'content-security-policy': PAGE_CSP });
  const v = reportSummaryView(row);
  return c.html(
    reportDetailPage({
      ...v,
      content: row.content,
      published_to: row.published_to,
      topics: Array.isArray(row.metadata.topics) ? (row.metadata.topics as { name: string; weight: number }[]) : [],
    }),
    200,
    { 'content-security-policy': PAGE_CSP, 'x-content-type-options': 'nosniff' },
  );
});
