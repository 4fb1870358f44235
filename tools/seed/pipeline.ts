/**
 * Demo data of the pipeline service for `npm start` (idempotent: fixed ids, ON CONFLICT DO NOTHING).
 * Providers and destinations are seeded by the migration (presets, disabled except rss). Offline
 * there is no public feed to read, so the demo sources read the sample blog the local stack serves
 * (tools/stack/sample-site.ts, SAMPLE_URL): its RSS feed (`rss`) and its index page (`blog_scraper`).
 * The demo monitor binds the feed to the rss destination, so its first report is about the blog's
 * posts. Re-seeding updates the demo sources (an older data directory's demo source read the
 * pipeline's own feed). Returns the admin token and curl examples for the console.
 */
import pg from 'pg';

export const DEMO_SOURCE_ID = '5eed0000-0000-4000-8000-000000000001';
export const DEMO_MONITOR_ID = '5eed0000-0000-4000-8000-000000000002';
export const DEMO_SITE_SOURCE_ID = '5eed0000-0000-4000-8000-000000000003';

export async function seed(ctx: { databaseUrl: string; env: Record<string, string> }): Promise<string[]> {
  const base = (ctx.env.PIPELINE_URL ?? 'http://127.0.0.1:8789').replace(/\/+$/, '');
  const token = ctx.env.PIPELINE_ADMIN_TOKEN ?? '';
  const sample = (ctx.env.SAMPLE_URL ?? 'http://127.0.0.1:8030').replace(/\/+$/, '');
  const client = new pg.Client({ connectionString: ctx.databaseUrl });
  await client.connect();
  try {
    const upsert = `INSERT INTO pipeline.sources (id, name, category, collect_method, config) VALUES ($1, $2, 'blog', $3, $4::jsonb)
      ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, collect_method = EXCLUDED.collect_method, config = EXCLUDED.config`;
    await client.query(upsert, [
      DEMO_SOURCE_ID,
      'Harbor Lane Engineering (RSS)',
      'rss',
      JSON.stringify({ feed_url: `${sample}/feed.xml`, max_items: 20 }),
    ]);
    await client.query(upsert, [
      DEMO_SITE_SOURCE_ID,
      'Harbor Lane Engineering (blog page)',
      'blog_scraper',
      JSON.stringify({ url: `${sample}/`, max_items: 20 }),
    ]);
    await client.query(
      `INSERT INTO pipeline.monitors (id, name, time_period, report_type, source_ids, destination_ids, window_hours, enabled)
       VALUES ($1, 'Demo digest', 'custom', 'research', $2::jsonb, '["rss"]', 168, true) ON CONFLICT (id) DO NOTHING`,
      [DEMO_MONITOR_ID, JSON.stringify([DEMO_SOURCE_ID])],
    );
  } finally {
    await client.end();
  }
  const auth = `-H 'Authorization: Bearer ${token}'`;
  return [
    `pipeline: admin token (PIPELINE_ADMIN_TOKEN) ${token || '(not set: the admin API refuses every call)'}`,
    `pipeline: report pages ${base}/reports, RSS ${base}/api/v1/feed.xml`,
    `pipeline: demo sources ${DEMO_SOURCE_ID} (RSS of the sample blog, ${sample}/feed.xml), ${DEMO_SITE_SOURCE_ID} (its page)`,
    `  curl ${auth} ${base}/api/v1/sources`,
    `  curl ${auth} -X POST ${base}/api/v1/sources/${DEMO_SOURCE_ID}/test`,
    `  curl ${auth} -X POST -H 'content-type: application/json' -d '{"source_id":"${DEMO_SOURCE_ID}"}' ${base}/api/v1/tasks/trigger`,
    `  curl ${auth} -X POST ${base}/api/v1/monitors/${DEMO_MONITOR_ID}/run   # writes a report (extractive without a provider key)`,
    `  curl ${auth} ${base}/api/v1/reports`,
  ];
}
