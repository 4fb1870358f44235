/**
 * `npm run bench:freshness [-- --publications N --window S --libs K]`: how soon a release published on a
 * registry shows in the insights API. Loopback fakes of all six feeds and their registries
 * (tools/registries/feeds/), the insights function on the local stack (PGlite, proxy, queue) with its
 * scheduled handler fired at the start of every minute by the same ticker `npm start` uses
 * (tools/stack/cron-ticker.ts) and the default feed settings (a run follows the feeds for 55 s, reading
 * every 5 s). Per registry K libraries are indexed (read through GetPackage) and, where a new patch
 * release changes what the package manager picks (npm, PyPI, Cargo, RubyGems; Go's minimal version
 * selection and NuGet's lowest applicable version do not move), K apps depending on them with their graphs
 * cached. Then N new patch releases are published at random moments over S seconds; an observer polls
 * GetPackage of each library with a release pending, and GetDependencies of its app, every second:
 * publish -> visible is the first GetPackage that lists the release, publish -> graph re-resolved the first
 * graph that picks it (or a later one). A stale answer is a GetPackage that no longer lists a release
 * once listed, or a graph asked for after a release was visible that picks an older version.
 * Figures include the observer's up-to-one-second polling. Last line:
 * `freshness: published N, visible N, p99 visible S s, p99 graph S s, stale answers N`.
 */
import { parseArgs } from 'node:util';
import insights from '../functions/insights.ts';
import { runFeedsScheduled } from '../src/insights/feeds/scheduled.ts';
import type { Env } from '../src/platform/env.ts';
import { percentile } from './bench-stats.ts';
import { startStack } from './stack/index.ts';
import { workerVars } from './stack/config.ts';
import { minuteTicker } from './stack/cron-ticker.ts';
import { startFeedRegistries, type BenchLibrary } from './bench-freshness/setup.ts';
import { observe, type Publication } from './bench-freshness/observe.ts';
import { seededRandom } from './seeded-random.ts';

const { values: args } = parseArgs({
  options: {
    publications: { type: 'string', default: '540' },
    window: { type: 'string', default: '150' },
    libs: { type: 'string', default: '4' },
    seed: { type: 'string', default: '35' },
  },
});
const N = Number(args.publications);
const WINDOW_MS = Number(args.window) * 1000;
const random = seededRandom(Number(args.seed));

const stack = await startStack({ ports: { postgres: 0, neonProxy: 0, qstash: 0, mail: 0, sample: 0 } });
const registries = await startFeedRegistries();
const env = workerVars(stack.databaseUrl, {
  NEON_LOCAL_PROXY: stack.neonProxy,
  QSTASH_URL: stack.qstashUrl,
  MAIL_API_URL: stack.mailUrl,
  DELIVERY_URL: 'http://127.0.0.1:9', // npm's pending tarball reads are off; nothing needs the delivery function
  INSIGHTS_NPM_TARBALLS: 'off',
  INSIGHTS_NPM_ATTESTATIONS: 'off',
  ...registries.env,
}) as unknown as Env;

const call = async (path: string): Promise<{ status: number; body: unknown }> => {
  const work: Promise<unknown>[] = [];
  const ctx = { waitUntil: (p: Promise<unknown>) => void work.push(p), passThroughOnException: () => {} };
  // biome-ignore lint/suspicious/noExplicitAny: a Workers-style context, as test/support/env.ts passes one
  const res = await insights.fetch(new Request(`http://localhost${path}`), env, ctx as any);
  const body = res.status === 200 ? await res.json() : await res.text();
  await Promise.allSettled(work);
  return { status: res.status, body };
};

let ticker: ReturnType<typeof minuteTicker> | undefined;
const running: Promise<unknown>[] = [];
try {
  console.log(
    `bench:freshness: ${registries.list.length} registries, embedded PGlite, ${N} publications over ${WINDOW_MS / 1000} s`,
  );
  const libs: BenchLibrary[] = await registries.index(Number(args.libs), call);
  console.log(`indexed ${libs.length} libraries (${libs.filter((l) => l.app).length} with a cached dependent graph)`);
  // the first run starts every cursor and ends before the first minute tick, as a running `npm start` would have
  const nextMinute = Date.now() + 60_000 - (Date.now() % 60_000);
  await runFeedsScheduled(env, { until: Math.max(Date.now(), nextMinute - 3000) });
  ticker = minuteTicker(async (cron) => {
    const ctx = { waitUntil: (p: Promise<unknown>) => void running.push(p) };
    await insights.scheduled({ cron, scheduledTime: Date.now() }, env, ctx);
  });
  const pubs: Publication[] = [];
  const start = Date.now();
  const times = Array.from({ length: N }, () => random() * WINDOW_MS).sort((a, b) => a - b);
  const publishing = (async () => {
    for (const at of times) {
      await new Promise((r) => setTimeout(r, Math.max(0, start + at - Date.now())));
      const lib = libs[Math.floor(random() * libs.length)]!;
      lib.patch++;
      const version = lib.version(lib.patch);
      lib.registry.publish(lib.name, version);
      pubs.push({ lib, patch: lib.patch, version, publishedAt: Date.now() });
    }
  })();
  const result = await observe(call, pubs, publishing, start + WINDOW_MS + 150_000);
  console.log(`stale answers: ${result.staleListings} GetPackage, ${result.staleGraphs} GetDependencies`);
  report(pubs, result.stale);
} finally {
  ticker?.stop();
  await Promise.allSettled(running);
  await registries.close();
  await stack.close();
}

function report(pubs: Publication[], stale: number): void {
  const secs = (ms: number) => (ms / 1000).toFixed(1);
  const fig = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length ? `p50 ${secs(percentile(s, 50))} s, p99 ${secs(percentile(s, 99))} s` : 'none';
  };
  const visible = pubs.filter((p) => p.visibleAt !== undefined);
  const graphs = pubs.filter((p) => p.lib.app && p.graphAt !== undefined);
  for (const r of registries.list) {
    const mine = pubs.filter((p) => p.lib.registry === r);
    const v = mine.filter((p) => p.visibleAt !== undefined).map((p) => p.visibleAt! - p.publishedAt);
    const g = mine.filter((p) => p.lib.app && p.graphAt !== undefined).map((p) => p.graphAt! - p.publishedAt);
    const withGraph = mine.filter((p) => p.lib.app).length;
    console.log(
      `  ${r.registry.padEnd(9)} published ${mine.length}, visible ${v.length}: ${fig(v)}; graph ${withGraph ? `${g.length}/${withGraph}: ${fig(g)}` : 'n/a'}`,
    );
  }
  const v = visible.map((p) => p.visibleAt! - p.publishedAt).sort((a, b) => a - b);
  const g = graphs.map((p) => p.graphAt! - p.publishedAt).sort((a, b) => a - b);
  console.log(
    `all: visible p50 ${secs(percentile(v, 50))} s; graph re-resolved ${g.length}/${pubs.filter((p) => p.lib.app).length}, p50 ${secs(percentile(g, 50))} s`,
  );
  console.log(
    `freshness: published ${pubs.length}, visible ${visible.length}, p99 visible ${secs(percentile(v, 99))} s, p99 graph ${secs(percentile(g, 99))} s, stale answers ${stale}`,
  );
}
