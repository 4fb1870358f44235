/**
 * `npm run bench:marketplace`: seeds 100,000 listed books (one generate_series INSERT) into a fresh
 * database on the PostgreSQL server DATABASE_URL names (dropped at the end; default: an in-memory local
 * stack), then drives search and listing through the marketplace worker's fetch with concurrency,
 * printing p50/p99 and req/s beside a floor measured first in the same run (a worker built by the same
 * createApp answering `SELECT 1` through the same driver and proxy; ratios in parentheses: p99 / floor
 * p99, req/s / floor req/s), and the EXPLAIN ANALYZE of each query as the worker sends it (listing by
 * offset, public and signed in, and by cursor; search for a common word, a rare phrase and a rare pair,
 * public and signed in).
 * Options (env): BENCH_BOOKS (100000), BENCH_REQUESTS (300 per scenario, after 100 untimed), BENCH_CONCURRENCY (16).
 */
import pg from 'pg';
import marketplace from '../functions/marketplace.ts';
import { createApp } from '../src/platform/app.ts';
import { createDb } from '../src/platform/db.ts';
import type { Env } from '../src/platform/env.ts';
import { tokenFor } from '../src/marketplace/auth.ts';
import { listingSql, SEARCH_SQL, SEARCH_SQL_VIEWER } from '../src/marketplace/queries-books.ts';
import { searchTsQuery } from '../src/marketplace/matching.ts';
import { freshDatabase } from './stack/fresh-database.ts';
import { startStack } from './stack/index.ts';
import { workerVars } from './stack/config.ts';
import { percentile } from './bench-stats.ts';

const BOOKS = Number(process.env.BENCH_BOOKS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const WARMUP = Math.min(100, REQUESTS); // untimed requests before each scenario

let floor: { p99: number; rps: number } | undefined;

/** Runs one scenario; the first one measured is the floor the others are compared with. */
async function measure(name: string, fn: (i: number) => Promise<void>): Promise<void> {
  // warm-up, not timed: the first requests of a code path pay for its compilation
  let w = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = w++; i < WARMUP; i = w++) await fn(i);
    }),
  );
  const times: number[] = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < REQUESTS; i = next++) {
        const t = performance.now();
        await fn(i);
        times.push(performance.now() - t);
      }
    }),
  );
  const wall = (performance.now() - start) / 1000;
  times.sort((a, b) => a - b);
  const p99 = percentile(times, 99);
  const rps = REQUESTS / wall;
  floor ??= { p99, rps };
  console.log(
    `${name.padEnd(48)} p50 ${percentile(times, 50).toFixed(1).padStart(7)} ms   p99 ${p99.toFixed(1).padStart(7)} ms (${(p99 / floor.p99).toFixed(2)}x)   ${rps.toFixed(0).padStart(5)} req/s (${(rps / floor.rps).toFixed(2)})`,
  );
}

// On a PostgreSQL server the bench loads a fresh database of its own and drops it after: books a
// previous run deleted would otherwise still swell the table and its indexes (and the planner's costs).
const fresh = process.env.DATABASE_URL ? await freshDatabase(process.env.DATABASE_URL, 'bench_marketplace') : undefined;
const stack = await startStack({
  databaseUrl: fresh?.url,
  ports: { postgres: 0, neonProxy: 0, qstash: 0, mail: 0, sample: 0 },
});
const env = workerVars(stack.databaseUrl, {
  NEON_LOCAL_PROXY: stack.neonProxy,
  QSTASH_URL: stack.qstashUrl,
  MAIL_API_URL: stack.mailUrl,
}) as unknown as Env;
const client = new pg.Client({ connectionString: stack.databaseUrl });
await client.connect();
try {
  console.log(
    `database: ${stack.embedded ? 'embedded PGlite (in memory)' : 'a fresh database on the PostgreSQL server at DATABASE_URL'}; ${BOOKS} books, ${REQUESTS} requests per scenario, concurrency ${CONCURRENCY}`,
  );
  const mk = async (email: string) =>
    (
      await client.query<{ id: string }>(
        `INSERT INTO market.users (email, password_hash, first_name, last_name, university, cmc, venmo_username)
     VALUES ($1, 'pbkdf2$sha256$1$AA==$AA==', 'Bench', 'User', 'Bench U', '1', 'bench-user') RETURNING id::text`,
        [email],
      )
    ).rows[0]!.id;
  const stamp = Date.now().toString(36);
  const seller = await mk(`bench-seller-${stamp}@bench.edu`);
  const viewer = await mk(`bench-viewer-${stamp}@bench.edu`);
  const t0 = performance.now();
  await client.query(
    `INSERT INTO market.books (owner_id, name, name_norm, edition, course, course_norm, price, condition, isbn, posted_at)
     SELECT $1, n.name, lower(n.name), 1 + i % 9, n.dept || ' ' || (100 + i % 300), n.dept || (100 + i % 300), 5 + (i % 150), 'Good',
            CASE WHEN i % 3 = 0 THEN '978' || lpad((i % 1000000000)::text, 10, '0') END, now() - make_interval(mins => i % 80000)
     FROM generate_series(1, $2::int) AS i,
     LATERAL (SELECT (ARRAY['Calculus','Linear Algebra','Organic Chemistry','Physics','World History','Molecular Biology','Algorithms','Microeconomics'])[1 + i % 8]
                     || ' volume ' || (i % 997) AS name,
                     (ARRAY['MTH','MTH','CHM','PHY','HIS','BIO','CSC','ECO'])[1 + i % 8] AS dept) n`,
    [seller, BOOKS],
  );
  await client.query('VACUUM ANALYZE market.books'); // the steady state autovacuum keeps: visibility map set
  console.log(`seeded ${BOOKS} books in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const sizes = await client.query<{ name: string; size: string }>(
    `SELECT c.relname AS name, pg_size_pretty(pg_relation_size(c.oid)) AS size FROM pg_class c
     JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'market' AND c.relname LIKE 'books%' ORDER BY pg_relation_size(c.oid) DESC`,
  );
  console.log(`sizes (market.books, all books in it): ${sizes.rows.map((r) => `${r.name} ${r.size}`).join(', ')}\n`);

  const db = createDb(env);
  const token = await tokenFor(env, viewer, 0);
  const call = async (path: string, auth = false) => {
    const pending: Promise<unknown>[] = [];
    const res = await marketplace.fetch(
      new Request(`http://bench${path}`, { headers: auth ? { authorization: `Bearer ${token}` } : {} }),
      env,
      { waitUntil: (p: Promise<unknown>) => void pending.push(p), passThroughOnException() {} } as never,
    );
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
    await Promise.all(pending);
  };
  const words = ['calculus', 'algebra', 'chemistry 3', 'physics volume 12', 'history', 'csc 107', 'micro', 'molecular'];
  // a cursor 2000 books deep, as a client paging by cursor would hold it
  let deep = '';
  for (let page = 0, next = ''; page < 50; page++) {
    const res = await marketplace.fetch(
      new Request(`http://bench/api/books/getBooksNoToken/40/0${next ? `?cursor=${next}` : ''}`),
      env,
      { waitUntil() {}, passThroughOnException() {} } as never,
    );
    next = res.headers.get('x-next-cursor') ?? '';
    await res.arrayBuffer();
    deep = next;
  }
  // The floor: the same worker plumbing (createApp's middleware, the request's db) answering one `SELECT 1`.
  const floorApp = createApp('marketplace');
  floorApp.get('/floor', async (c) => c.json((await c.get('db').query('SELECT 1 AS one'))[0]));
  await measure('floor: worker GET /floor (SELECT 1)', async () => {
    const res = await floorApp.fetch(new Request('http://bench/floor'), env, {
      waitUntil() {},
      passThroughOnException() {},
    } as never);
    if (res.status !== 200) throw new Error(`floor: ${res.status}`);
    await res.arrayBuffer();
  });
  await measure('driver only: SELECT 1 (neon() over HTTP)', async () => {
    await db.query('SELECT 1');
  });
  await measure('GET /api/books/getBooksNoToken/40/0', () => call('/api/books/getBooksNoToken/40/0'));
  await measure('GET /api/books/getBooksNoToken/40/2000', (i) =>
    call(`/api/books/getBooksNoToken/40/${2000 + (i % 50)}`),
  );
  await measure('GET .../getBooksNoToken/40/0?cursor= (2000 deep)', () =>
    call(`/api/books/getBooksNoToken/40/0?cursor=${deep}`),
  );
  await measure('GET /api/books/getAllBooks (token)', () => call('/api/books/getAllBooks', true));
  await measure('GET /api/books/search/public/:query', (i) =>
    call(`/api/books/search/public/${encodeURIComponent(words[i % words.length]!)}`),
  );
  await measure('GET /api/books/search/:query (token)', (i) =>
    call(`/api/books/search/${encodeURIComponent(words[i % words.length]!)}`, true),
  );
  await db.close();

  const [cursorUs, cursorId] = atob(deep.replace(/-/g, '+').replace(/_/g, '/')).split('.');
  const plans: [string, string, unknown[]][] = [
    ['listing, offset 2000', listingSql(false, false), [40, 2000]],
    ['listing signed in, offset 2000', listingSql(true, false), [40, 2000, viewer]],
    ['listing, cursor 2000 deep', listingSql(false, true), [40, 0, cursorUs, cursorId]],
    ['search public, a common word (calculus)', SEARCH_SQL, ['calculus:*', 40]],
    ['search public, a rare phrase (physics volume 12)', SEARCH_SQL, ['physics:* & volume:* & 12:*', 40]],
    [
      'search signed in, a rare phrase (physics volume 12)',
      SEARCH_SQL_VIEWER,
      ['physics:* & volume:* & 12:*', viewer, 40],
    ],
    ['search public, a rare pair (csc 107)', SEARCH_SQL, ['csc:* & 107:*', 40]],
  ];
  for (const [title, sql, params] of plans) {
    const plan = await client.query(`EXPLAIN (ANALYZE, COSTS OFF) ${sql}`, params);
    console.log(`\nEXPLAIN ANALYZE: ${title}`);
    for (const r of plan.rows) console.log(`  ${Object.values(r)[0]}`);
  }
  // every word the search scenarios ask, public and signed in: server-side execution time and the path taken
  console.log('\nsearch statements per word (EXPLAIN ANALYZE execution ms; the candidates found by):');
  for (const w of words) {
    const tsq = searchTsQuery(w)!;
    const line = [`  ${w.padEnd(20)}`];
    for (const [label, sql, params] of [
      ['public', SEARCH_SQL, [tsq, 40]],
      ['signed in', SEARCH_SQL_VIEWER, [tsq, viewer, 40]],
    ] as const) {
      const plan = (await client.query(`EXPLAIN (ANALYZE, COSTS OFF) ${sql}`, [...params])).rows
        .map((r) => String(Object.values(r)[0]))
        .join('\n');
      const ms = /Execution Time: ([\d.]+)/.exec(plan)?.[1];
      const via = /books_search_prefixes_idx/.test(plan)
        ? 'GIN'
        : /books_search_walk_idx/.test(plan)
          ? 'walk'
          : 'other';
      line.push(`${label} ${ms} ms (${via})`);
    }
    console.log(line.join('   '));
  }
} finally {
  await client.end();
  await stack.close();
  await fresh?.drop();
}
