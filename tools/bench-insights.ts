/**
 * `npm run bench:insights`: loads N npm-like packages x 10 versions into the `insights` schema with
 * set-based SQL (generate_series), then drives GetVersion, GetPackage, GetRequirements and (v3alpha)
 * GetSimilarlyNamedPackages through the
 * insights worker with concurrency and prints p50/p99 beside a `SELECT 1` floor through the same
 * driver (neon() over HTTP -> the local Neon-compatible proxy -> Postgres) and runtime, plus the
 * database round trips per request, counted as `POST /sql` requests (and WebSocket connections) at
 * the proxy.
 *
 * Runtimes:
 *  - default: the worker's fetch in this Node process (functions/insights.ts, the stack env, a real
 *    execution context); floors: a one-route worker built with the same createApp('insights')
 *    (`GET /floor` -> `SELECT 1`) and the bare driver (`createDb(env).query('SELECT 1')`).
 *  - `--workerd`: the insights function under `wrangler dev` (workerd) called over HTTP; floor:
 *    its `GET /healthz` (`SELECT now()`, one round trip through the same driver).
 *
 * Database: embedded PGlite (in memory) unless DATABASE_URL names a PostgreSQL server; then a fresh
 * database is created on it and dropped at the end.
 *
 * Options: --packages N (10000), --versions N per package (10), --requests N per operation (3000),
 * --concurrency N (16), --names N extra package names without versions, which only grow the
 * GetSimilarlyNamedPackages index (0; `--names 90000` with the default 10000 packages = 100,000 names),
 * --workerd; BENCH_VERSIONS=N (env) sets the total instead of --packages (N / --versions packages).
 * --keep leaves the loaded PostgreSQL database in place and prints its URL; BENCH_REUSE_URL=<that URL>
 * measures it again without loading (a second run at 1M versions without the ~10 minutes of load).
 * Prints the EXPLAIN ANALYZE of each read's statement.
 * Example: `DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:insights`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import insights from '../functions/insights.ts';
import { createApp } from '../src/platform/app.ts';
import { createDb, type Queryable } from '../src/platform/db.ts';
import { getPackage, getRequirements, getVersion } from '../src/insights/queries.ts';
import { similarlyNamed } from '../src/insights/similar-names.ts';
import { backfillAnswers } from '../src/insights/stored-answers.ts';
import type { Env } from '../src/platform/env.ts';
import { freePort, startStack, stopChild } from './stack/index.ts';
import { workerVars } from './stack/config.ts';
import { percentile } from './bench-stats.ts';
import { freshDatabase } from './stack/fresh-database.ts';

const { values: opts } = parseArgs({
  options: {
    packages: { type: 'string', default: '10000' },
    versions: { type: 'string', default: '10' },
    requests: { type: 'string', default: '3000' },
    concurrency: { type: 'string', default: '16' },
    names: { type: 'string', default: '0' },
    workerd: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
});
const VERSIONS = Number(opts.versions);
// BENCH_VERSIONS (env) sets the total size: that many versions, --versions per package.
const PACKAGES = process.env.BENCH_VERSIONS
  ? Math.ceil(Number(process.env.BENCH_VERSIONS) / VERSIONS)
  : Number(opts.packages);
const REQUESTS = Number(opts.requests);
const CONCURRENCY = Number(opts.concurrency);
/** Extra package names (no versions) that only grow the similar-names index (`--names 90000`: 100k names). */
const NAMES = Number(opts.names);
if (!Number.isInteger(NAMES) || NAMES < 0) throw new Error('names must be a non-negative integer');
const WARMUP = Math.min(200, REQUESTS);
/** Versions sampled (at random, fixed seed) as the keys the reads ask for. */
const KEY_SAMPLE = 50_000;
for (const [k, v] of Object.entries({ PACKAGES, VERSIONS, REQUESTS, CONCURRENCY })) {
  if (!Number.isInteger(v) || v < 1) throw new Error(`${k.toLowerCase()} must be a positive integer`);
}

/**
 * The load. A helper table numbers packages (i) and versions (j); every insights table is then
 * filled by one INSERT ... SELECT from it. Names look like npm's: 1 in 5 scoped, words and digits.
 * Versions ascend with j (0.0.p, 0.1.p, ... 1.0.p, ...); in 1 of 7 packages the newest is a
 * prerelease, so `latest` (the default) is the one before it. 1 in 20 packages has its two oldest
 * versions deprecated; 1 in 10 has an advisory affecting its older half.
 */
const LOAD_SQL = [
  `CREATE TEMP TABLE bench_v AS
   SELECT i, j, n.name, n.owner, n.repo,
          (j / 4) || '.' || (j % 4) || '.' || ((i + j) % 3) || CASE WHEN i % 7 = 0 AND j = $2::int - 1 THEN '-beta.1' ELSE '' END AS version,
          (i % 7 = 0 AND j = $2::int - 1) AS pre
   FROM generate_series(1, $1::int) AS i
   CROSS JOIN LATERAL (SELECT
       CASE WHEN i % 5 = 0 THEN '@' || w.a || '/' || w.b || '-' || i ELSE w.a || '-' || w.b || '-' || i END AS name,
       w.a || '-org-' || (i % 997) AS owner, w.a || '-' || w.b || '-' || i AS repo
     FROM (SELECT (ARRAY['fast','tiny','smart','micro','super','lazy','node','react','vue','babel','eslint','data'])[1 + i % 12] AS a,
                  (ARRAY['parser','utils','cache','router','logger','config','query','stream','format','plugin','loader'])[1 + (i / 12) % 11] AS b) w) n
   CROSS JOIN generate_series(0, $2::int - 1) AS j`,
  `ALTER TABLE bench_v ADD COLUMN is_default boolean; CREATE INDEX ON bench_v (i, j); ANALYZE bench_v`,
  `UPDATE bench_v SET is_default = (j = $1::int - 1 - CASE WHEN i % 7 = 0 THEN 1 ELSE 0 END)`,
  `INSERT INTO insights.packages (system, name, dist_tags, fetched_at)
   SELECT 'NPM', name, jsonb_build_object('latest', max(version) FILTER (WHERE is_default)), now() FROM bench_v GROUP BY name`,
  `INSERT INTO insights.versions (system, name, version, upstream_version, ordinal, published_at, is_default, is_deprecated,
     deprecated_reason, licenses, links, slsa_provenances, attestations, registries, project_status, meta)
   SELECT 'NPM', name, version, version, j, timestamptz '2016-01-01 00:00:00+00' + make_interval(hours => i, days => 40 * j), is_default,
     i % 20 = 0 AND j < 2, CASE WHEN i % 20 = 0 AND j < 2 THEN 'this version is no longer supported, please upgrade' ELSE '' END,
     json_build_array((ARRAY['MIT','ISC','Apache-2.0','BSD-3-Clause','MIT OR Apache-2.0'])[1 + i % 5]),
     json_build_array(
       json_build_object('label', 'HOMEPAGE', 'url', 'https://github.com/' || owner || '/' || repo || '#readme'),
       json_build_object('label', 'ISSUE_TRACKER', 'url', 'https://github.com/' || owner || '/' || repo || '/issues'),
       json_build_object('label', 'ORIGIN', 'url', 'https://registry.npmjs.org/' || replace(name, '/', '%2F') || '/' || version),
       json_build_object('label', 'SOURCE_REPO', 'url', 'git+https://github.com/' || owner || '/' || repo || '.git')),
     '[]', '[]', '["https://registry.npmjs.org/"]', NULL,
     jsonb_build_object('os', '[]'::jsonb, 'cpu', '[]'::jsonb, 'engines', jsonb_build_object('node', '>=' || (10 + 2 * (j % 4))))
   FROM bench_v`,
  `INSERT INTO insights.requirements (system, name, version, requirements)
   SELECT 'NPM', v.name, v.version, json_build_object('npm', json_build_object(
     'dependencies', json_build_object(
       'dependencies', (SELECT COALESCE(json_agg(json_build_object('name', d.name, 'requirement', '^' || d.version) ORDER BY d.name COLLATE "C"), '[]'::json)
                        FROM bench_v d WHERE d.j = 0 AND d.i IN (1 + (v.i * 7) % $1::int, 1 + (v.i * 13) % $1::int, 1 + (v.i * 31) % $1::int) AND d.i <> v.i),
       'devDependencies', json_build_array(json_build_object('name', 'mocha', 'requirement', '^10.2.0'), json_build_object('name', 'typescript', 'requirement', '^5.4.0')),
       'optionalDependencies', '[]'::json, 'peerDependencies', '[]'::json, 'bundleDependencies', '[]'::json, 'peerDependencyMetadata', '[]'::json),
     'bundled', '[]'::json, 'os', '[]'::json, 'cpu', '[]'::json))
   FROM bench_v v`,
  `INSERT INTO insights.artifacts (system, name, version, url, hash_type, hash_value)
   SELECT 'NPM', name, version, 'https://registry.npmjs.org/' || name || '/-/' || regexp_replace(name, '^@[^/]+/', '') || '-' || version || '.tgz',
          h.t, h.v
   FROM bench_v, LATERAL (VALUES ('SHA1', substring(sha256(convert_to(name || version, 'UTF8')) from 1 for 20)), ('SHA512', sha512(convert_to(name || version, 'UTF8')))) AS h(t, v)`,
  `INSERT INTO insights.project_versions (project_id, system, name, version, relation_type, relation_provenance)
   SELECT lower('github.com/' || owner || '/' || repo), 'NPM', name, version, r.t, 'UNVERIFIED_METADATA'
   FROM bench_v, (VALUES ('ISSUE_TRACKER'), ('SOURCE_REPO')) AS r(t)`,
  `INSERT INTO insights.advisories (id, url, title, aliases, cvss3_score, cvss3_vector, modified, osv)
   SELECT a.id, 'https://osv.dev/vulnerability/' || a.id, 'Prototype pollution in ' || name, json_build_array('CVE-2024-' || (10000 + i)),
          7.5, 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:H/A:N', now(),
          jsonb_build_object('id', a.id, 'affected', jsonb_build_array(jsonb_build_object('package', jsonb_build_object('ecosystem', 'npm', 'name', name))))
   FROM bench_v, LATERAL (SELECT 'GHSA-' || substr(md5(i::text), 1, 4) || '-' || substr(md5(i::text), 5, 4) || '-' || substr(md5(i::text), 9, 4) AS id) a
   WHERE i % 10 = 0 AND j = 0`,
  `INSERT INTO insights.advisory_packages (advisory_id, system, name)
   SELECT a.id, 'NPM', v.name FROM insights.advisories a JOIN bench_v v ON a.title = 'Prototype pollution in ' || v.name AND v.j = 0`,
  `INSERT INTO insights.advisory_versions (advisory_id, system, name, version)
   SELECT a.id, 'NPM', v.name, v.version FROM insights.advisories a JOIN bench_v v ON a.title = 'Prototype pollution in ' || v.name
   WHERE v.j < $1::int / 2`,
];

/** The insights function under `wrangler dev` on a free port; resolves once /healthz answers. */
async function startWorkerd(vars: Record<string, string>, dir: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const envFile = join(dir, 'bench.env');
  await writeFile(
    envFile,
    `${Object.entries(vars)
      .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
      .join('\n')}\n`,
    { mode: 0o600 },
  );
  const root = fileURLToPath(new URL('../', import.meta.url));
  const wrangler = join(root, 'node_modules/wrangler/bin/wrangler.js');
  const child = spawn(
    process.execPath,
    [
      wrangler,
      'dev',
      '--env',
      'insights',
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--env-file',
      envFile,
      '--inspector-port',
      String(await freePort()),
      '--show-interactive-dev-session=false',
      '--log-level',
      'error',
      '--persist-to',
      join(dir, 'state'),
    ],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', FORCE_COLOR: '0' },
    },
  );
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler exited with ${child.exitCode}: ${out.slice(-2000)}`);
    try {
      if ((await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) })).ok) return { url, child };
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  await stopChild(child);
  throw new Error(`wrangler dev did not answer within 120 s: ${out.slice(-2000)}`);
}

interface Row {
  op: string;
  requests: number;
  p50: number;
  p99: number;
  sqlPerRequest: number;
  wsPerRequest: number;
  rps: number;
}

const serverUrl = process.env.DATABASE_URL;
/** A database a `--keep` run loaded: measured again without loading (same --versions/--names). */
const REUSE = process.env.BENCH_REUSE_URL;
const fresh = serverUrl && !REUSE ? await freshDatabase(serverUrl, 'bench_insights') : undefined;
const stack = await startStack({
  databaseUrl: REUSE ?? fresh?.url,
  ports: { postgres: 0, neonProxy: 0, qstash: 0, mail: 0, sample: 0 },
});
const env = workerVars(stack.databaseUrl, {
  NEON_LOCAL_PROXY: stack.neonProxy,
  QSTASH_URL: stack.qstashUrl,
  MAIL_API_URL: stack.mailUrl,
  // the bench measures stored reads: an unknown package must not reach a registry
  INSIGHTS_READ_THROUGH: 'off',
  NPM_REGISTRY_URL: 'http://127.0.0.1:9/',
});

// Round trips, counted at the proxy: every neon() query is one `POST /sql`, every Pool connection one WebSocket.
let sqlPosts = 0;
let wsConnections = 0;
stack.proxy.server.on('request', (req) => {
  if (req.method === 'POST' && req.url?.split('?')[0] === '/sql') sqlPosts++;
});
stack.proxy.server.on('upgrade', () => void wsConnections++);

const client = new pg.Client({ connectionString: stack.databaseUrl });
await client.connect();
const tmp = await mkdtemp(join(tmpdir(), 'bench-insights-'));
let workerd: ChildProcess | undefined;
try {
  const where = stack.embedded
    ? 'embedded PGlite (in memory, one backend)'
    : `PostgreSQL ${(await client.query('SHOW server_version')).rows[0].server_version} (fresh database on DATABASE_URL)`;
  console.log(`database: ${where}`);
  console.log(
    `runtime: ${opts.workerd ? 'insights worker under wrangler dev (workerd), over HTTP' : `insights worker fetch in-process (Node ${process.version})`}; driver: neon() over HTTP -> local Neon proxy`,
  );

  if (REUSE) {
    console.log(`reusing the database a --keep run loaded (BENCH_REUSE_URL): no load`);
  } else {
    const t0 = performance.now();
    const params: Record<number, number[]> = { 0: [PACKAGES, VERSIONS], 2: [VERSIONS], 5: [PACKAGES], 10: [VERSIONS] };
    await client.query('BEGIN');
    for (const [i, sql] of LOAD_SQL.entries()) {
      await client.query(sql, params[i]).catch((err: Error) => {
        throw new Error(`load statement ${i}: ${err.message}`);
      });
    }
    await client.query('DROP TABLE bench_v');
    if (NAMES > 0) {
      await client.query(
        `INSERT INTO insights.packages (system, name, fetched_at)
        SELECT 'NPM', (ARRAY['', '@x/'])[1 + i % 2] || substr(md5(i::text), 1, 4 + i % 9), now() FROM generate_series(1, $1::int) AS i
        ON CONFLICT DO NOTHING`,
        [NAMES],
      );
    }
    await client.query('COMMIT');
    // The stored GetVersion/GetPackage answers that ingestion writes (src/insights/stored-answers.ts), set-based.
    const tAnswers = performance.now();
    const written = await backfillAnswers({
      query: async (sql: string, p?: readonly unknown[]) => (await client.query(sql, p as unknown[])).rows,
    } as Queryable);
    const answersSeconds = (performance.now() - tAnswers) / 1000;
    await client.query('ANALYZE');
    const counts = (
      await client.query(`SELECT (SELECT count(*) FROM insights.packages) AS packages, (SELECT count(*) FROM insights.versions) AS versions,
        (SELECT count(*) FROM insights.requirements) AS requirements, (SELECT count(*) FROM insights.artifacts) AS artifacts,
        (SELECT count(*) FROM insights.project_versions) AS project_versions, (SELECT count(*) FROM insights.advisory_versions) AS advisory_versions,
        (SELECT count(*) FROM insights.package_name_keys) AS package_name_keys`)
    ).rows[0];
    console.log(
      `loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${Object.entries(counts)
        .map(([k, v]) => `${v} ${k}`)
        .join(', ')}`,
    );
    console.log(
      `of which stored answers: ${answersSeconds.toFixed(1)} s ` +
        `(${written.versions} versions, ${written.packages} packages)`,
    );
  }
  const sizes = await client.query<{ name: string; size: string }>(
    `SELECT c.relname AS name, pg_size_pretty(pg_total_relation_size(c.oid)) AS size FROM pg_class c
     JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'insights' AND c.relkind = 'r'
     ORDER BY pg_total_relation_size(c.oid) DESC LIMIT 10`,
  );
  console.log(`sizes (table + indexes + toast): ${sizes.rows.map((r) => `${r.name} ${r.size}`).join(', ')}`);

  // The keys asked for: a fixed random sample of KEY_SAMPLE versions, not every version. At 1M versions
  // the whole list held ~200 MB of small objects in this process (which also runs the worker and the
  // proxy), and its major collections landed as p99 spikes on whichever operation was running.
  await client.query('SELECT setseed(0.2026)');
  const keys = (
    await client.query<{ name: string; version: string }>(
      'SELECT name, version FROM insights.versions ORDER BY random() LIMIT $1',
      [KEY_SAMPLE],
    )
  ).rows;
  const names = [...new Set(keys.map((k) => k.name))];
  let seed = 20261117;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const enc = (name: string) => encodeURIComponent(name);

  let call: (path: string) => Promise<string>;
  let floors: { op: string; path?: string; fn?: () => Promise<void> }[];
  if (opts.workerd) {
    const started = await startWorkerd(env, tmp);
    workerd = started.child;
    call = async (path) => {
      const res = await fetch(started.url + path);
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${text}`);
      return text;
    };
    floors = [{ op: 'floor: GET /healthz (SELECT now())', path: '/healthz' }];
  } else {
    const floorApp = createApp('insights');
    floorApp.get('/floor', async (c) => c.json((await c.get('db').query('SELECT 1 AS one'))[0]));
    const invoke = async (
      worker: { fetch: (r: Request, e: never, c: never) => Response | Promise<Response> },
      path: string,
    ) => {
      const pending: Promise<unknown>[] = [];
      const ctx = { waitUntil: (p: Promise<unknown>) => void pending.push(p), passThroughOnException() {} };
      const res = await worker.fetch(new Request(`http://insights.local${path}`), env as never, ctx as never);
      const text = await res.text();
      await Promise.all(pending);
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${text}`);
      return text;
    };
    call = (path) => (path === '/floor' ? invoke(floorApp, path) : invoke(insights, path));
    const db = createDb(env as unknown as Env);
    floors = [
      { op: 'floor: worker GET /floor (SELECT 1)', path: '/floor' },
      { op: 'driver only: createDb().query(SELECT 1)', fn: async () => void (await db.query('SELECT 1')) },
    ];
  }

  // Correctness of what is measured: a default version with an advisory, a scoped package.
  const probe = keys.find((k) => k.name.startsWith('@'))!;
  const v = JSON.parse(await call(`/v3/systems/npm/packages/${enc(probe.name)}/versions/${probe.version}`));
  const p = JSON.parse(await call(`/v3/systems/npm/packages/${enc(probe.name)}`));
  if (
    v.versionKey.name !== probe.name ||
    v.links.length !== 4 ||
    v.relatedProjects.length !== 2 ||
    p.versions.length !== VERSIONS
  ) {
    throw new Error(`unexpected responses: ${JSON.stringify(v)} ${JSON.stringify(p)}`);
  }

  const ops: { op: string; path?: (i: number) => string; fn?: () => Promise<void> }[] = [
    ...floors.map((f) => ({ op: f.op, fn: f.fn, path: f.path ? () => f.path! : undefined })),
    {
      op: 'GetVersion',
      path: () => {
        const k = keys[rand(keys.length)]!;
        return `/v3/systems/npm/packages/${enc(k.name)}/versions/${k.version}`;
      },
    },
    { op: 'GetPackage', path: () => `/v3/systems/npm/packages/${enc(names[rand(names.length)]!)}` },
    {
      op: 'GetRequirements',
      path: () => {
        const k = keys[rand(keys.length)]!;
        return `/v3/systems/npm/packages/${enc(k.name)}/versions/${k.version}:requirements`;
      },
    },
    {
      op: 'GetSimilarlyNamedPackages',
      path: () => `/v3alpha/systems/npm/packages/${enc(names[rand(names.length)]!)}:similarlyNamedPackages`,
    },
  ];

  const run = async (o: (typeof ops)[number], n: number): Promise<{ times: number[]; wall: number }> => {
    const times: number[] = [];
    let next = 0;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next++ < n) {
          const target = o.path?.(next);
          const t = performance.now();
          if (target !== undefined) await call(target);
          else await o.fn!();
          times.push(performance.now() - t);
        }
      }),
    );
    return { times, wall: performance.now() - start };
  };

  console.log(
    `\n${PACKAGES} packages, ${VERSIONS} versions each; ${REQUESTS} requests per operation in 5 interleaved rounds (after ${WARMUP} warm-up each), ${CONCURRENCY} in flight\n`,
  );
  // Server-side execution time of each read's one statement (EXPLAIN ANALYZE over 50 keys, the
  // statement captured from src/insights/queries.ts), to tell database work from transport.
  const capture = async (read: (db: Queryable) => Promise<unknown>) => {
    let stmt: { sql: string; params: readonly unknown[] } | undefined;
    const capture = async (sql: string, params: readonly unknown[] = []) => {
      stmt = { sql, params };
      return [];
    };
    await read({ query: capture } as Queryable);
    return stmt!;
  };
  const execMs = async (make: () => Promise<{ sql: string; params: readonly unknown[] }>) => {
    let total = 0;
    for (let i = 0; i < 50; i++) {
      const st = await make();
      const plan = (await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${st.sql}`, st.params as unknown[])).rows[0][
        'QUERY PLAN'
      ];
      total += (typeof plan === 'string' ? JSON.parse(plan) : plan)[0]['Execution Time'];
    }
    return total / 50;
  };
  const serverMs: Record<string, number> = {
    floor: await execMs(async () => ({ sql: 'SELECT 1', params: [] })),
    GetVersion: await execMs(() => {
      const k = keys[rand(keys.length)]!;
      return capture((db) => getVersion(db, 'NPM', k.name, k.version));
    }),
    GetPackage: await execMs(() => capture((db) => getPackage(db, 'NPM', names[rand(names.length)]!))),
    GetRequirements: await execMs(() => {
      const k = keys[rand(keys.length)]!;
      return capture((db) => getRequirements(db, 'NPM', k.name, k.version));
    }),
    GetSimilarlyNamedPackages: await execMs(() =>
      capture((db) => similarlyNamed(db, 'NPM', names[rand(names.length)]!)),
    ),
  };

  // The plan of each read's one statement, for one random key.
  const plans: [string, () => Promise<{ sql: string; params: readonly unknown[] }>][] = [
    [
      'GetVersion',
      () => {
        const k = keys[rand(keys.length)]!;
        return capture((db) => getVersion(db, 'NPM', k.name, k.version));
      },
    ],
    ['GetPackage', () => capture((db) => getPackage(db, 'NPM', names[rand(names.length)]!))],
    [
      'GetRequirements',
      () => {
        const k = keys[rand(keys.length)]!;
        return capture((db) => getRequirements(db, 'NPM', k.name, k.version));
      },
    ],
    ['GetSimilarlyNamedPackages', () => capture((db) => similarlyNamed(db, 'NPM', names[rand(names.length)]!))],
  ];
  for (const [op, make] of plans) {
    const st = await make();
    const plan = await client.query(`EXPLAIN (ANALYZE, COSTS OFF) ${st.sql}`, st.params as unknown[]);
    console.log(`EXPLAIN ANALYZE: ${op}`);
    for (const r of plan.rows) console.log(`  ${Object.values(r)[0]}`);
  }
  console.log('');

  // Warm every path first, then measure in interleaved rounds so drift (JIT, caches, the host)
  // spreads over all operations alike instead of favouring whichever runs last.
  for (const o of ops) await run(o, WARMUP);
  const ROUNDS = 5;
  const acc = ops.map(() => ({ times: [] as number[], wall: 0, sql: 0, ws: 0 }));
  for (let r = 0; r < ROUNDS; r++) {
    for (const [i, o] of ops.entries()) {
      const n = Math.floor(REQUESTS / ROUNDS) + (r < REQUESTS % ROUNDS ? 1 : 0);
      const sql0 = sqlPosts;
      const ws0 = wsConnections;
      const { times, wall } = await run(o, n);
      acc[i]!.times.push(...times);
      acc[i]!.wall += wall;
      acc[i]!.sql += sqlPosts - sql0;
      acc[i]!.ws += wsConnections - ws0;
    }
  }
  const rows: Row[] = ops.map((o, i) => {
    const a = acc[i]!;
    a.times.sort((x, y) => x - y);
    return {
      op: o.op,
      requests: a.times.length,
      p50: percentile(a.times, 50),
      p99: percentile(a.times, 99),
      sqlPerRequest: a.sql / a.times.length,
      wsPerRequest: a.ws / a.times.length,
      rps: a.times.length / (a.wall / 1000),
    };
  });
  const floor = rows[0]!;
  const head = [
    'operation',
    'requests',
    'p50 ms',
    'p99 ms',
    'p99 / floor p99',
    'db round trips / request',
    'req/s',
    'SQL exec ms',
  ];
  const body = rows.map((r) => [
    r.op,
    String(r.requests),
    r.p50.toFixed(2),
    r.p99.toFixed(2),
    (r.p99 / floor.p99).toFixed(2),
    `${r.sqlPerRequest.toFixed(2)} POST /sql${r.wsPerRequest ? ` + ${r.wsPerRequest.toFixed(2)} ws` : ''}`,
    r.rps.toFixed(0),
    (serverMs[r.op] ?? serverMs.floor!).toFixed(3),
  ]);
  const width = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(width[i]!) : c.padStart(width[i]!))).join(' | ')} |`;
  console.log(line(head));
  console.log(`|${width.map((w, i) => (i === 0 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
  for (const b of body) console.log(line(b));
  console.log(`\nfloor = "${floor.op}"; round trips counted at the Neon proxy (POST /sql, WebSocket connections);`);
  console.log('SQL exec ms = mean server-side execution time of the statement (EXPLAIN ANALYZE, 50 random keys).');
} finally {
  await stopChild(workerd);
  await client.end().catch(() => undefined);
  await stack.close();
  if (opts.keep && fresh) console.log(`kept the loaded database: BENCH_REUSE_URL=${fresh.url}`);
  else await fresh?.drop();
  await rm(tmp, { recursive: true, force: true });
}
