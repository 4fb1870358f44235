/**
 * `npm run bench:cold`: first contact with real npm packages. For each package of
 * tools/bench-cold-packages.txt (the 100 most depended upon within the recorded npm corpus, rule in
 * tools/bench-cold-list.ts), on a freshly started stack (embedded PGlite, or a fresh database on
 * DATABASE_URL), in one run:
 *  - floor: the packument fetched from the same registry with plain `fetch` (body read), the least any
 *    read-through can cost;
 *  - cold GetPackage (the package deleted first), cold GetVersion of the `latest` version (deleted
 *    again), then GetRequirements of that version (its tarball is read here when it bundles
 *    something) and GetDependencies of it (the database holding what earlier graphs stored);
 * each through the insights worker's fetch in this process, timed to the whole answer (`graph done`: from
 * the first GetDependencies to its 200, the build of a 503 finishing in the background); the work it
 * leaves running (waitUntil) is awaited before the next request and not timed. Background jobs are
 * not delivered (DELIVERY_URL is closed), so the figures are the requests' own. OSV is served from
 * loopback with no records (this machine does not reach it).
 *
 * Prints per operation p50/p99/max and the worst five, and ratios to the floor of the same package;
 * last line: `cold: first read p50 Xx, N/M within 1.5x fetch + 1 s, dependencies p99 W s, over 30 s K`
 * (first read = GetPackage and GetVersion; N/M counts both). Bounded: a request is cut off (counted
 * as over 30 s) at 35 s, and the run stops taking packages after --minutes (25).
 * Options: --limit N (100), --minutes M (25), NPM_REGISTRY_URL (default: npm's public registry);
 * DATABASE_URL=postgres://... runs on a fresh database of that server (dropped at the end) instead of PGlite.
 */
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import insights from '../functions/insights.ts';
import { percentile } from './bench-stats.ts';
import { startStack } from './stack/index.ts';
import { freshDatabase } from './stack/fresh-database.ts';
import { workerVars } from './stack/config.ts';
import pg from 'pg';

const { values: args } = parseArgs({
  options: { limit: { type: 'string', default: '100' }, minutes: { type: 'string', default: '25' } },
});
const CUT_MS = 35_000;
// A dropped database connection surfaces as an unhandled rejection of the driver: counted and reported, not fatal.
let dropped = 0;
process.on('unhandledRejection', (err) => {
  dropped++;
  console.warn(`unhandled rejection (${dropped}): ${(err as Error)?.message ?? String(err).slice(0, 200)}`);
});
const REGISTRY = (process.env.NPM_REGISTRY_URL ?? 'https://registry.npmjs.org').replace(/\/$/, '');
const names = readFileSync(new URL('./bench-cold-packages.txt', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l && !l.startsWith('#'))
  .map((l) => l.split('\t')[0]!)
  .slice(0, Number(args.limit));
const stopAt = Date.now() + Number(args.minutes) * 60_000;

const osv = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
await new Promise<void>((r) => osv.listen(0, '127.0.0.1', () => r()));
const osvUrl = `http://127.0.0.1:${(osv.address() as { port: number }).port}`;
const fresh = process.env.DATABASE_URL ? await freshDatabase(process.env.DATABASE_URL, 'bench_cold') : undefined;
const stack = await startStack({
  databaseUrl: fresh?.url,
  ports: { postgres: 0, neonProxy: 0, qstash: 0, mail: 0, sample: 0 },
});
const env = workerVars(stack.databaseUrl, {
  NEON_LOCAL_PROXY: stack.neonProxy,
  QSTASH_URL: stack.qstashUrl,
  MAIL_API_URL: stack.mailUrl,
  DELIVERY_URL: 'http://127.0.0.1:9',
  NPM_REGISTRY_URL: REGISTRY,
  OSV_API_URL: osvUrl,
});
const sql = new pg.Client({ connectionString: stack.databaseUrl });
await sql.connect();

const path = (n: string) => (n.startsWith('@') ? `@${encodeURIComponent(n.slice(1))}` : encodeURIComponent(n));

interface Sample {
  name: string;
  ms: number;
  status: number;
}
const samples: Record<'floor' | 'package' | 'version' | 'requirements' | 'dependencies' | 'graph done', Sample[]> = {
  floor: [],
  package: [],
  version: [],
  requirements: [],
  dependencies: [],
  'graph done': [], // from the first GetDependencies to a 200 (a 503's build finishes in the background, then it is asked again)
};

async function call(url: string): Promise<{ ms: number; status: number; text: string }> {
  const pending: Promise<unknown>[] = [];
  const ctx = { waitUntil: (p: Promise<unknown>) => void pending.push(p), passThroughOnException() {} };
  const t0 = performance.now();
  const answer = (async () => {
    const res = await insights.fetch(new Request(`http://localhost${url}`), env as never, ctx as never);
    return { status: res.status, text: await res.text() };
  })();
  const cut = new Promise<null>((r) => setTimeout(() => r(null), CUT_MS).unref());
  const got = await Promise.race([answer, cut]);
  const ms = performance.now() - t0;
  if (got === null) return { ms, status: 0, text: '' }; // cut off: counted as over 30 s
  await Promise.allSettled(pending);
  return { ms, ...got };
}

const forget = (n: string) => sql.query("DELETE FROM insights.packages WHERE system = 'NPM' AND name = $1", [n]);

let done = 0;
try {
  for (const name of names) {
    if (Date.now() > stopAt) break;
    const t0 = performance.now();
    const res = await fetch(`${REGISTRY}/${path(name)}`);
    const text = await res.text();
    samples.floor.push({ name, ms: performance.now() - t0, status: res.status });
    if (!res.ok) continue;
    const latest = (JSON.parse(text) as { 'dist-tags'?: { latest?: string } })['dist-tags']?.latest;
    if (!latest) continue;
    const base = `/v3/systems/npm/packages/${encodeURIComponent(name)}`;
    const v = `${base}/versions/${encodeURIComponent(latest)}`;
    await forget(name);
    samples.package.push({ name, ...(await call(base)) });
    await forget(name);
    samples.version.push({ name, ...(await call(v)) });
    samples.requirements.push({ name, ...(await call(`${v}:requirements`)) });
    const g0 = performance.now();
    let graph = await call(`${v}:dependencies`);
    samples.dependencies.push({ name, ...graph });
    for (let i = 0; i < 3 && graph.status === 503; i++) graph = await call(`${v}:dependencies`);
    samples['graph done'].push({ name, ms: performance.now() - g0, status: graph.status });
    done++;
    const last = (k: keyof typeof samples) => `${(samples[k].at(-1)!.ms / 1000).toFixed(2)}`;
    console.log(
      `${name}@${latest}: fetch ${last('floor')} s, package ${last('package')}, version ${last('version')}, requirements ${last('requirements')}, dependencies ${last('dependencies')} (${samples.dependencies.at(-1)!.status})`,
    );
  }
} finally {
  await sql.end();
  await stack.close();
  await fresh?.drop();
  osv.close();
}

const floorOf = new Map(samples.floor.map((s) => [s.name, s.ms]));
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
console.log(`\n${done} of ${names.length} packages measured against ${REGISTRY}; unhandled rejections: ${dropped}`);
for (const [op, list] of Object.entries(samples)) {
  const ms = list.map((s) => s.ms).sort((a, b) => a - b);
  const worst = [...list]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 5)
    .map((s) => `${s.name} ${secs(s.ms)}${s.status === 200 ? '' : ` (${s.status || 'cut off'})`}`);
  const statuses = [...new Set(list.map((s) => s.status))].map(
    (st) => `${st}: ${list.filter((s) => s.status === st).length}`,
  );
  console.log(
    `${op.padEnd(13)} p50 ${secs(percentile(ms, 50))}  p99 ${secs(percentile(ms, 99))}  max ${secs(ms.at(-1) ?? 0)}  [${statuses.join(', ')}]  worst: ${worst.join(', ')}`,
  );
}
const first = [...samples.package, ...samples.version];
const ratios = first.map((s) => s.ms / floorOf.get(s.name)!).sort((a, b) => a - b);
const within = first.filter((s) => s.status === 200 && s.ms <= 1.5 * floorOf.get(s.name)! + 1000).length;
const deps = samples.dependencies.map((s) => s.ms).sort((a, b) => a - b);
const all = Object.entries(samples).flatMap(([op, l]) => (op === 'floor' || op === 'graph done' ? [] : l));
const over30 = all.filter((s) => s.ms > 30_000 || s.status === 0).length;
console.log(
  `cold: first read p50 ${percentile(ratios, 50).toFixed(1)}x, ${within}/${first.length} within 1.5x fetch + 1 s, dependencies p99 ${(percentile(deps, 99) / 1000).toFixed(1)} s, over 30 s ${over30}`,
);
process.exit(0);
