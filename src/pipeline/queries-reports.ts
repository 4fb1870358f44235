/** SQL of reports: list (filters, paging, newest report_date first), filter values, detail, publish trace. */
import type { Queryable } from '../platform/db.ts';

export interface ReportRow {
  id: string;
  run_id: string | null;
  monitor_id: string | null;
  time_period: string;
  report_type: string;
  title: string;
  content: string;
  article_ids: string[];
  metadata: Record<string, unknown>;
  published_to: string[];
  publish_trace: Record<string, unknown>[];
  report_date: Date | string;
  created_at: Date;
}

export interface ReportFilter {
  time_period?: string;
  report_type?: string;
  monitor_id?: string;
  limit: number;
  offset: number;
}

export async function listReports(db: Queryable, f: ReportFilter): Promise<{ rows: ReportRow[]; total: number }> {
  const where = `($1::text IS NULL OR time_period = $1) AND ($2::text IS NULL OR report_type = $2) AND ($3::uuid IS NULL OR monitor_id = $3)`;
  const params = [f.time_period ?? null, f.report_type ?? null, f.monitor_id ?? null];
  const rows = await db.query<ReportRow>(
    `SELECT * FROM pipeline.reports WHERE ${where} ORDER BY report_date DESC, created_at DESC, id LIMIT $4 OFFSET $5`,
    [...params, f.limit, f.offset],
  );
  const [count] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pipeline.reports WHERE ${where}`,
    params,
  );
  return { rows, total: count?.n ?? 0 };
}

export async function recentReports(db: Queryable, limit: number): Promise<ReportRow[]> {
  return db.query<ReportRow>(`SELECT * FROM pipeline.reports ORDER BY created_at DESC, id LIMIT $1`, [limit]);
}

export async function getReport(db: Queryable, id: string): Promise<ReportRow | undefined> {
  return (await db.query<ReportRow>(`SELECT * FROM pipeline.reports WHERE id = $1`, [id]))[0];
}

export async function getReportByRun(db: Queryable, runId: string): Promise<ReportRow | undefined> {
  return (await db.query<ReportRow>(`SELECT * FROM pipeline.reports WHERE run_id = $1`, [runId]))[0];
}

export async function deleteReport(db: Queryable, id: string): Promise<boolean> {
  return (await db.query(`DELETE FROM pipeline.reports WHERE id = $1 RETURNING id`, [id])).length > 0;
}

export async function insertReport(
  db: Queryable,
  r: Omit<ReportRow, 'id' | 'created_at' | 'published_to' | 'publish_trace' | 'report_date'>,
): Promise<ReportRow> {
  const [row] = await db.query<ReportRow>(
    `INSERT INTO pipeline.reports (id, run_id, monitor_id, time_period, report_type, title, content, article_ids, metadata, published_to, publish_trace, report_date)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, '["database"]', '[]', current_date) RETURNING *`,
    [
      crypto.randomUUID(),
      r.run_id,
      r.monitor_id,
      r.time_period,
      r.report_type,
      r.title,
      r.content,
      JSON.stringify(r.article_ids),
      JSON.stringify(r.metadata),
    ],
  );
  return row!;
}

/** Appends one publish attempt to the trace; on success adds the sink to published_to (once). */
export async function recordPublish(db: Queryable, id: string, entry: Record<string, unknown>): Promise<void> {
  await db.query(
    `UPDATE pipeline.reports SET publish_trace = publish_trace || $2::jsonb,
       published_to = CASE WHEN $3::text IS NOT NULL AND NOT published_to ? $3 THEN published_to || to_jsonb($3::text) ELSE published_to END
     WHERE id = $1`,
    [id, JSON.stringify([entry]), entry.status === 'success' ? String(entry.sink) : null],
  );
}

export async function reportFilterValues(db: Queryable): Promise<{
  time_periods: string[];
  report_types: string[];
  categories: string[];
  monitors: { id: string; name: string }[];
}> {
  const [row] = await db.query<{
    time_periods: string[] | null;
    report_types: string[] | null;
    categories: string[] | null;
    monitors: { id: string; name: string }[] | null;
  }>(
    `SELECT
       (SELECT jsonb_agg(v ORDER BY v) FROM (SELECT DISTINCT time_period AS v FROM pipeline.reports) a) AS time_periods,
       (SELECT jsonb_agg(v ORDER BY v) FROM (SELECT DISTINCT report_type AS v FROM pipeline.reports) b) AS report_types,
       (SELECT jsonb_agg(v ORDER BY v) FROM (SELECT DISTINCT jsonb_array_elements_text(CASE WHEN jsonb_typeof(metadata->'categories') = 'array' THEN metadata->'categories' ELSE '[]' END) AS v FROM pipeline.reports) c) AS categories,
       (SELECT jsonb_agg(jsonb_build_object('id', id, 'name', name) ORDER BY name, id) FROM (SELECT DISTINCT monitor_id::text AS id, metadata->>'monitor_name' AS name FROM pipeline.reports WHERE monitor_id IS NOT NULL) d) AS monitors`,
  );
  return {
    time_periods: row?.time_periods ?? [],
    report_types: row?.report_types ?? [],
    categories: row?.categories ?? [],
    monitors: row?.monitors ?? [],
  };
}
