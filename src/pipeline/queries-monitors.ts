/** SQL of monitors. `source_ids` and `destination_ids` are jsonb arrays (as in the original). */
import type { Queryable } from '../platform/db.ts';

export interface MonitorRow {
  id: string;
  name: string;
  time_period: string;
  report_type: string;
  source_ids: string[];
  ai_routing: Record<string, unknown>;
  /** Per bound source: {max_items, limit, max_results, keywords, usernames, subreddits} (the original's keys). */
  source_overrides: Record<string, Record<string, unknown>>;
  destination_ids: string[];
  window_hours: number;
  custom_schedule: string | null;
  enabled: boolean;
  next_run_at: Date | null;
  last_run: Date | null;
  created_at: Date;
  updated_at: Date;
}

export type MonitorInput = Omit<MonitorRow, 'id' | 'last_run' | 'created_at' | 'updated_at'>;

export async function listMonitors(db: Queryable): Promise<MonitorRow[]> {
  return db.query<MonitorRow>(`SELECT * FROM pipeline.monitors ORDER BY created_at DESC, id`);
}

export async function getMonitor(db: Queryable, id: string): Promise<MonitorRow | undefined> {
  return (await db.query<MonitorRow>(`SELECT * FROM pipeline.monitors WHERE id = $1`, [id]))[0];
}

/** Parameters $2..$12 of the monitor INSERT and UPDATE: the stored columns in one order. */
function monitorValues(m: MonitorInput): unknown[] {
  return [
    m.name,
    m.time_period,
    m.report_type,
    JSON.stringify(m.source_ids),
    JSON.stringify(m.ai_routing),
    JSON.stringify(m.destination_ids),
    m.window_hours,
    m.custom_schedule,
    m.enabled,
    m.next_run_at,
    JSON.stringify(m.source_overrides ?? {}),
  ];
}

export async function insertMonitor(db: Queryable, m: MonitorInput): Promise<MonitorRow> {
  const [row] = await db.query<MonitorRow>(
    `INSERT INTO pipeline.monitors (id, name, time_period, report_type, source_ids, ai_routing, destination_ids, window_hours, custom_schedule, enabled, next_run_at, source_overrides)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7::jsonb, $8, $9, $10, $11, $12::jsonb) RETURNING *`,
    [crypto.randomUUID(), ...monitorValues(m)],
  );
  return row!;
}

export async function saveMonitor(db: Queryable, m: MonitorRow): Promise<MonitorRow> {
  const [row] = await db.query<MonitorRow>(
    `UPDATE pipeline.monitors SET name = $2, time_period = $3, report_type = $4, source_ids = $5::jsonb, ai_routing = $6::jsonb, destination_ids = $7::jsonb,
       window_hours = $8, custom_schedule = $9, enabled = $10, next_run_at = $11, source_overrides = $12::jsonb, updated_at = now() WHERE id = $1 RETURNING *`,
    [m.id, ...monitorValues(m)],
  );
  return row!;
}

export async function deleteMonitor(db: Queryable, id: string): Promise<boolean> {
  return (await db.query(`DELETE FROM pipeline.monitors WHERE id = $1 RETURNING id`, [id])).length > 0;
}

export async function touchMonitorRun(db: Queryable, id: string, nextRunAt: Date | null): Promise<void> {
  await db.query(`UPDATE pipeline.monitors SET last_run = now(), next_run_at = $2 WHERE id = $1`, [id, nextRunAt]);
}

/** Enabled monitors whose schedule is due; claimed by moving next_run_at forward in the same statement. */
export async function dueMonitors(db: Queryable): Promise<MonitorRow[]> {
  return db.query<MonitorRow>(
    `SELECT * FROM pipeline.monitors WHERE enabled AND next_run_at IS NOT NULL AND next_run_at <= now() ORDER BY next_run_at LIMIT 50`,
  );
}

/** Claims a due run: moves next_run_at forward only if it is still due (a concurrent tick finds it moved). */
export async function claimSchedule(db: Queryable, id: string, next: Date | null): Promise<boolean> {
  return (
    (
      await db.query(
        `UPDATE pipeline.monitors SET next_run_at = $2 WHERE id = $1 AND enabled AND next_run_at <= now() RETURNING id`,
        [id, next],
      )
    ).length > 0
  );
}

/** Run summaries of a monitor: its monitor-level tasks with step counts. */
export async function monitorRuns(db: Queryable, monitorId: string, limit: number): Promise<Record<string, unknown>[]> {
  return db.query(
    `SELECT t.id AS run_id, t.id AS task_id, t.status, t.trigger_type, t.started_at, t.finished_at, t.articles_count, t.error_message, t.created_at,
       coalesce(jsonb_agg(jsonb_build_object('step', s.step, 'status', s.status, 'attempts', s.attempts, 'error', s.error) ORDER BY s.step) FILTER (WHERE s.step IS NOT NULL), '[]') AS steps
     FROM pipeline.tasks t LEFT JOIN pipeline.run_steps s ON s.run_id = t.id
     WHERE t.monitor_id = $1 GROUP BY t.id ORDER BY t.created_at DESC LIMIT $2`,
    [monitorId, limit],
  );
}
