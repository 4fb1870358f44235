/** The insights cron (every minute in wrangler.toml): one run of the change feeds on its own database handle. */
import { createDb } from '../../platform/db.ts';
import type { Env } from '../../platform/env.ts';
import { runFeeds, type RunReport } from './run.ts';

export async function runFeedsScheduled(env: Env, opts: { until?: number } = {}): Promise<RunReport> {
  const db = createDb(env);
  try {
    const report = await runFeeds(env, db, opts);
    if (report.queued || report.refreshed || report.failed)
      console.log(
        `feeds: ${report.changes} changes read, ${report.queued} stored packages queued, ${report.refreshed} refreshed, ${report.failed} failed`,
      );
    return report;
  } finally {
    await db.close();
  }
}
