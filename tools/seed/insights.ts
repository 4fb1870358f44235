/**
 * Demo data for the insights service: starts the fixture upstream (test/fixtures/insights) in this
 * process and ingests a few packages per system, their OSV advisories and the lodash project through
 * the service's own adapters and store, so every endpoint answers at once (and the GetCapabilities answer of
 * the demo Go module, whose source zip only the fixture proxy has). Idempotent (a store
 * replaces a package wholly). Uses `pg` through a small Db adapter. Demo data never shadows real data:
 * it is stored as the configured registry would have it (its URLs, not the fixture server's), marked as
 * seeded, and replaced by the registry's own data on the first read that reaches the registry.
 */
import pg from 'pg';
import type { Db, Queryable } from '../../src/platform/db.ts';
import { fetchProject } from '../../src/insights/ingest/projects.ts';
import { storeCapabilities } from '../../src/insights/capabilities.ts';
import { storeProject } from '../../src/insights/queries-write.ts';
import { ingestPackage, SEEDED_AT } from '../../src/insights/read-through.ts';
import { upstreamUrl, type UpstreamName } from '../../src/insights/ingest/http.ts';
import { canonicalPackageName } from '../../src/versions/names/index.ts';
import type { System } from '../../src/versions/index.ts';
import { startFixtureServer } from '../insights-upstream/server.ts';

export const DEMO: [System, string][] = [
  ['NPM', 'lodash'],
  ['NPM', 'pino'],
  ['NPM', '@colors/colors'],
  ['PYPI', 'django'],
  ['CARGO', 'openssl'],
  ['MAVEN', 'org.apache.logging.log4j:log4j-core'],
  ['NUGET', 'Newtonsoft.Json'],
  ['RUBYGEMS', 'rack'],
  ['GO', 'github.com/BurntSushi/toml'],
  ['GO', 'example.com/capdemo'],
];

export function pgDb(client: pg.Client): Db {
  const q: Queryable = {
    query: async (text, params = []) => (await client.query(text, params as unknown[])).rows as never,
  };
  return {
    ...q,
    async transaction(fn) {
      await client.query('BEGIN');
      try {
        const r = await fn(q);
        await client.query('COMMIT');
        return r;
      } catch (err) {
        await client.query('ROLLBACK');
        throw err;
      }
    },
    async close() {},
  };
}

/**
 * Runs `fn` with every fetch of a configured upstream (`env`'s, else the public defaults) answered by
 * the fixture server instead: the adapters build registry URLs and links from the configured upstream,
 * so what is stored is what a real read would store, never the address of a server that exists only
 * while seeding.
 */
async function fromFixtures<T>(env: Record<string, string>, fixtures: Record<string, string>, fn: () => Promise<T>) {
  const routes = Object.entries(fixtures)
    .map(([key, to]) => [upstreamUrl(env, key as UpstreamName), to] as const)
    .sort((a, b) => b[0].length - a[0].length);
  const realFetch = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const route = routes.find(([from]) => url.startsWith(from));
    return realFetch(route ? route[1] + url.slice(route[0].length) : input, init);
  };
  try {
    return await fn();
  } finally {
    globalThis.fetch = realFetch;
  }
}

export async function seed(ctx: { databaseUrl: string; env: Record<string, string> }): Promise<string[]> {
  const upstream = await startFixtureServer();
  const client = new pg.Client({ connectionString: ctx.databaseUrl });
  await client.connect();
  const env = ctx.env;
  try {
    const db = pgDb(client);
    await fromFixtures(env, upstream.env, async () => {
      for (const [system, name] of DEMO) await ingestPackage(env, db, system, name);
      await storeProject(db, await fetchProject(env, 'github.com/lodash/lodash'));
      // GetCapabilities reads a module's source zip from the Go proxy: the demo module's is read here (fixture proxy)
      await storeCapabilities(env, db, 'example.com/capdemo', 'v1.0.0');
    });
    // demo data never shadows the registry: the first read of a demo package reads it through again
    // (read-through.ts, SEEDED_AT), and the demo copy is served only while the registry cannot answer
    await client.query(
      `UPDATE insights.packages p SET fetched_at = $3 FROM unnest($1::text[], $2::text[]) AS d(system, name)
      WHERE p.system = d.system AND p.name = d.name`,
      [DEMO.map(([s]) => s), DEMO.map(([s, n]) => canonicalPackageName(s, n)), SEEDED_AT.toISOString()],
    );
    // nor were they read from the registry: no registry read is recorded for them (source_reads)
    await client.query(
      `DELETE FROM insights.source_reads r USING unnest($1::text[], $2::text[]) AS d(system, name)
      WHERE r.source = 'registry' AND r.system = d.system AND r.name = d.name`,
      [DEMO.map(([s]) => s), DEMO.map(([s, n]) => canonicalPackageName(s, n))],
    );
  } finally {
    await client.end();
    await upstream.close();
  }
  const base = ctx.env.INSIGHTS_URL ?? 'http://127.0.0.1:8787';
  return [
    `insights: ${DEMO.length} demo packages (npm, PyPI, Cargo, Maven, NuGet, RubyGems, Go) with advisories and a project`,
    `  curl ${base}/v3/systems/npm/packages/lodash/versions/4.17.20`,
    `  curl ${base}/v3/systems/maven/packages/org.apache.logging.log4j%3Alog4j-core/versions/2.14.1:requirements`,
    `  curl ${base}/v3/advisories/GHSA-jfh8-c2jp-5v3q`,
    `  curl ${base}/v3/projects/github.com%2Flodash%2Flodash`,
  ];
}
