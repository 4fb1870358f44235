/**
 * `npm run bench:resolve`: GetDependencies through the insights worker's fetch (in this process, the
 * real Neon driver through the local Neon-compatible proxy to the database), beside each ecosystem's own
 * tool in the same run on the same data:
 *  - npm: roots of the recorded corpus (tools/universes/npm-corpus) served by a loopback registry;
 *    `npm install --package-lock-only` with an empty cache (cold) and with a warm cache `--offline`;
 *  - pypi: seeded universes served as PyPI's JSON API on loopback; `pip install --dry-run --report` over
 *    the same universe as a local simple index (pip cannot read the JSON API);
 *  - cargo: seeded universes served as a sparse index on loopback; `cargo generate-lockfile --offline`
 *    over the same universe as a local registry;
 *  - rubygems: seeded gem universes served on loopback as the rubygems.org JSON API (read through by the
 *    worker) and as a compact index; `bundle lock` (Bundler 2.3, a fresh Bundler home each run, so tool cold
 *    = tool warm) over the latter;
 *  - maven: the generated repositories of the Maven end-to-end test (the largest that resolve) served on
 *    loopback; Maven 3.8.7 resolving the root's POM over that repository (tools/registries/maven-trees.ts:
 *    the graph `dependency:tree` prints) with an empty local repository (cold) and offline (`-o`) on
 *    the filled one (warm). Maven's time includes its JVM start, as a user waits for it;
 *  - go: the seeded universes of the Go end-to-end test served as a GOPROXY on loopback; `go mod graph` for a
 *    main module requiring the root, with an empty module cache (cold) and with the filled one (warm).
 * For each root: cold = emptied insights schema, the whole graph read through (time to the answer; the
 * batched write and the cache entry finish after it, through waitUntil, and are awaited before the next
 * step); warm = packages stored, cached graph deleted, asked by a new isolate (a new env object: an empty Go
 * go.mod memory); isolate = the same, asked of the isolate that answered cold (Go resolves from the go.mod
 * files in its memory, src/insights/go-mod-memory.ts; other systems have no such memory and read the store);
 * cached = the cached graph asked by a new isolate (median of 5), with the database round trips of one
 * request counted at the proxy (`POST /sql`).
 *
 * Database: embedded PGlite unless DATABASE_URL names a PostgreSQL server (a fresh database is created
 * there and dropped). Options: --systems npm,pypi,cargo,maven,go,rubygems  --roots express,webpack (npm)
 * --universes N (pypi, cargo, maven, go, rubygems; default 5).
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import insights from '../functions/insights.ts';
import { createDb } from '../src/platform/db.ts';
import type { Env } from '../src/platform/env.ts';
import { bundleLock, HAS_BUNDLER, randomGemUniverse, startGemSource } from './registries/gem-source.ts';
import { emptyInsights } from './universes/graphs.ts';
import { pypiJsonRoute } from './registries/pypi-json.ts';
import { startRegistry } from './registries/registry-server.ts';
import { cargoLock, indexLine, indexPath, randomUniverse } from './registries/cargo-registry.ts';
import { loadCorpus } from './universes/npm-corpus.ts';
import { mavenLayout, mavenUniverses, ROOT_VERSION, startMavenRepo } from './registries/maven-repo.ts';
import { HAS_MVN, mavenTrees, MVN_VERSION } from './registries/maven-trees.ts';
import { GO_VERSION, HAS_GO, proxyRoutes, randomGoUniverse, runGoModGraph } from './registries/go-proxy.ts';
import { randomPipUniverse } from './universes/pip-cases.ts';
import { pipEnvironment, pipInstallReport } from './registries/pip-index.ts';
import { workerVars } from './stack/config.ts';
import { freshDatabase } from './stack/fresh-database.ts';
import { startStack } from './stack/index.ts';

const run = promisify(execFile);
const { values: opts } = parseArgs({
  options: {
    systems: { type: 'string', default: 'npm,pypi,cargo,maven,go,rubygems' },
    roots: { type: 'string', default: 'express,webpack,eslint,jest,@babel/core' },
    universes: { type: 'string', default: '5' },
  },
});
const SYSTEMS = opts.systems!.split(',');
const UNIVERSES = Number(opts.universes);

const serverUrl = process.env.DATABASE_URL;
const fresh = serverUrl ? await freshDatabase(serverUrl, 'bench_resolve') : undefined;
const stack = await startStack({
  databaseUrl: fresh?.url,
  ports: { postgres: 0, neonProxy: 0, qstash: 0, mail: 0, sample: 0 },
});
const db = createDb({ DATABASE_URL: stack.databaseUrl, NEON_LOCAL_PROXY: stack.neonProxy });
let sqlRequests = 0;
stack.proxy.server.on('request', (req) => {
  if (req.method === 'POST' && req.url?.startsWith('/sql')) sqlRequests++;
});
const baseEnv = (extra: Record<string, string>) =>
  workerVars(stack.databaseUrl, {
    NEON_LOCAL_PROXY: stack.neonProxy,
    QSTASH_URL: stack.qstashUrl,
    MAIL_API_URL: stack.mailUrl,
    INSIGHTS_FETCH_LIMIT: '5000',
    ...extra,
  }) as unknown as Env;

/** One GET through the worker: milliseconds to the answered body; waitUntil work awaited afterwards. */
async function get(env: Env, path: string): Promise<{ ms: number; status: number }> {
  const pending: Promise<unknown>[] = [];
  const t0 = performance.now();
  const ctx = { waitUntil: (p: Promise<unknown>) => void pending.push(p), passThroughOnException() {}, props: {} };
  const res = await insights.fetch(new Request(`http://localhost${path}`), env, ctx as never);
  await res.arrayBuffer();
  const ms = performance.now() - t0;
  for (let done = 0; done < pending.length; ) {
    // work queued by work (the request's pool is closed last)
    const batch = pending.slice(done);
    done = pending.length;
    await Promise.allSettled(batch);
  }
  return { ms, status: res.status };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Row {
  system: string;
  root: string;
  cold: number;
  warm: number;
  warmSql: number;
  isolate: number;
  isolateSql: number;
  cached: number;
  cachedSql: number;
  toolCold: number;
  toolWarm: number;
  tool: string;
}
const rows: Row[] = [];

/**
 * One root, four ways. Each `mkEnv()` is a new env object, which is what a new isolate sees (the Go
 * go.mod memory lives per env: src/insights/go-mod-memory.ts): cold and warm and cached run on new ones,
 * so their figures never come from an isolate's memory; `isolate` asks again on the env that has
 * answered (graph deleted), as a running isolate does.
 */
async function measure(
  system: string,
  root: string,
  mkEnv: () => Env,
  path: string,
  tool: { name: string; cold: () => Promise<number>; warm: () => Promise<number> },
) {
  await emptyInsights(db);
  const running = mkEnv();
  const cold = await get(running, path);
  if (cold.status !== 200) throw new Error(`${system} ${root}: cold answer ${cold.status}`);
  const warm: number[] = [];
  let warmSql = 0;
  for (let i = 0; i < 3; i++) {
    await db.query('DELETE FROM insights.dependency_graphs');
    const s0 = sqlRequests;
    warm.push((await get(mkEnv(), path)).ms);
    warmSql = sqlRequests - s0;
  }
  const cached: number[] = [];
  for (let i = 0; i < 5; i++) cached.push((await get(mkEnv(), path)).ms);
  const before = sqlRequests;
  await get(mkEnv(), path);
  const cachedSql = sqlRequests - before;
  const isolate: number[] = [];
  let isolateSql = 0;
  for (let i = 0; i < 5; i++) {
    await db.query('DELETE FROM insights.dependency_graphs');
    const s0 = sqlRequests;
    isolate.push((await get(running, path)).ms);
    isolateSql = sqlRequests - s0;
  }
  const toolCold = await tool.cold();
  const toolWarm = median([await tool.warm(), await tool.warm(), await tool.warm()]);
  const row = {
    system,
    root,
    cold: cold.ms,
    warm: median(warm),
    warmSql,
    isolate: median(isolate),
    isolateSql,
    cached: median(cached),
    cachedSql,
    toolCold,
    toolWarm,
    tool: tool.name,
  };
  rows.push(row);
  console.log(
    `${system}\t${root}\tcold ${row.cold.toFixed(0)} ms (${tool.name} ${toolCold.toFixed(0)})\twarm ${row.warm.toFixed(1)} ms, ${warmSql} SQL (${tool.name} warm ${toolWarm.toFixed(0)})\tisolate ${row.isolate.toFixed(2)} ms, ${isolateSql} SQL\tcached ${row.cached.toFixed(1)} ms, ${cachedSql} SQL`,
  );
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

async function benchNpm(): Promise<void> {
  const { meta, packuments } = loadCorpus();
  const full = (name: string) => {
    const p = packuments[name] as { versions: Record<string, object> } | undefined;
    if (!p) return undefined;
    return {
      ...p,
      versions: Object.fromEntries(
        Object.entries(p.versions).map(([v, m]) => [
          v,
          { name, version: v, ...m, dist: { tarball: `http://127.0.0.1:1/${name}/-/${v}.tgz` } },
        ]),
      ),
    };
  };
  const registry = await startRegistry((p) => (p === '/v1/query' ? {} : full(p.slice(1))));
  const env = () =>
    baseEnv({
      NPM_REGISTRY_URL: registry.url,
      INSIGHTS_NPM_TARBALLS: 'off',
      OSV_API_URL: registry.url,
      RESOLVE_NODE_VERSION: meta.nodeVersion.replace(/^v/, ''),
    });
  const wanted = opts.roots!.split(',');
  for (const r of meta.roots.filter((x) => wanted.includes(x.manifest.name))) {
    const dir = await mkdtemp(join(tmpdir(), 'bench-npm-'));
    const cache = join(dir, 'cache');
    await writeFile(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'bench-root', version: '1.0.0', dependencies: { [r.manifest.name]: r.manifest.version } }),
    );
    const npm = (...extra: string[]) =>
      timed(async () => {
        await rm(join(dir, 'package-lock.json'), { force: true });
        await run(
          'npm',
          [
            'install',
            '--package-lock-only',
            '--ignore-scripts',
            '--no-audit',
            '--no-fund',
            '--loglevel=error',
            '--registry',
            `${registry.url}/`,
            '--cache',
            cache,
            ...extra,
          ],
          { cwd: dir, maxBuffer: 1 << 26 },
        );
      });
    await measure(
      'npm',
      `${r.manifest.name}@${r.manifest.version}`,
      env,
      `/v3/systems/npm/packages/${encodeURIComponent(r.manifest.name)}/versions/${r.manifest.version}:dependencies`,
      { name: 'npm', cold: () => npm(), warm: () => npm('--offline') },
    );
    await rm(dir, { recursive: true, force: true });
  }
  await registry.close();
}

async function benchPypi(): Promise<void> {
  const python = pipEnvironment().python_full_version!;
  let current = {};
  const registry = await startRegistry((p) => (p === '/v1/query' ? {} : pypiJsonRoute(current)(p)));
  const env = () => baseEnv({ PYPI_URL: registry.url, OSV_API_URL: registry.url, RESOLVE_PYTHON_VERSION: python });
  for (let i = 0; i < UNIVERSES; i++) {
    const u = randomPipUniverse(7000 + i);
    current = u;
    const pip = () => timed(() => pipInstallReport(u, ['root==1.0.0']));
    await measure('pypi', `universe ${7000 + i}`, env, '/v3/systems/pypi/packages/root/versions/1.0.0:dependencies', {
      name: 'pip',
      cold: pip,
      warm: pip,
    });
  }
  await registry.close();
}

async function benchCargo(): Promise<void> {
  let lines = new Map<string, string>();
  const registry = await startRegistry((p) =>
    p === '/config.json' ? { dl: 'http://127.0.0.1:1/crates' } : p === '/v1/query' ? {} : lines.get(p.slice(1)),
  );
  const env = () =>
    baseEnv({ CRATES_INDEX_URL: registry.url, CRATES_API_URL: registry.url, OSV_API_URL: registry.url });
  let done = 0;
  for (let seed = 1000; done < UNIVERSES && seed < 1100; seed++) {
    const u = randomUniverse(seed);
    if (!(await cargoLock(u, 'root', '1.0.0')).ok) continue;
    lines = new Map(
      Object.entries(u).map(([n, vs]) => [
        indexPath(n),
        `${Object.entries(vs)
          .map(([v, s]) => indexLine(n, v, s))
          .join('\n')}\n`,
      ]),
    );
    const cargo = () => timed(() => cargoLock(u, 'root', '1.0.0'));
    await measure('cargo', `universe ${seed}`, env, '/v3/systems/cargo/packages/root/versions/1.0.0:dependencies', {
      name: 'cargo',
      cold: cargo,
      warm: cargo,
    });
    done++;
  }
  await registry.close();
}

async function benchRubygems(): Promise<void> {
  // the universes of the end-to-end test's seeds that Bundler locks, largest first
  const seeds = Array.from({ length: 40 }, (_, i) => 2000 + i).sort(
    (a, b) => Object.keys(randomGemUniverse(b)).length - Object.keys(randomGemUniverse(a)).length,
  );
  const universes = seeds.map(randomGemUniverse);
  const source = await startGemSource(universes);
  let done = 0;
  for (let i = 0; i < seeds.length && done < UNIVERSES; i++) {
    const url = `${source.url}/u${i}`;
    if (!(await bundleLock(`${url}/`, 'root', '1.0.0')).ok) continue;
    const env = () => baseEnv({ RUBYGEMS_URL: url, OSV_API_URL: source.url });
    const bundle = () => timed(() => bundleLock(`${url}/`, 'root', '1.0.0'));
    await measure(
      'rubygems',
      `universe ${seeds[i]}`,
      env,
      '/v3/systems/rubygems/packages/root/versions/1.0.0:dependencies',
      { name: 'bundle', cold: bundle, warm: bundle },
    );
    done++;
  }
  await source.close();
}

async function benchMaven(): Promise<void> {
  const all = mavenUniverses(44).filter((u) => !u.expectFailure);
  const picked = [...all].sort((a, b) => b.poms.length - a.poms.length).slice(0, UNIVERSES);
  const repo = await startMavenRepo(mavenLayout(all), { extra: (p) => (p.startsWith('/v1/') ? '{}' : undefined) });
  const env = () => baseEnv({ MAVEN_REPO_URL: repo.url, OSV_API_URL: repo.url });
  console.log(`maven: ${MVN_VERSION}`);
  for (const u of picked) {
    const local = await mkdtemp(join(tmpdir(), 'bench-m2-'));
    const mvnTime = async (offline: boolean) => {
      const run = await mavenTrees([u], { repoUrl: repo.url, localRepo: local, offline });
      if (!run.outcomes[0]?.ok)
        throw new Error(`maven ${u.label}: mvn failed: ${JSON.stringify(run.outcomes[0]).slice(0, 300)}`);
      return run.invocations.reduce((t, x) => t + x.millis, 0);
    };
    await measure(
      'maven',
      u.label,
      env,
      `/v3/systems/maven/packages/${encodeURIComponent(u.root)}/versions/${ROOT_VERSION}:dependencies`,
      { name: 'mvn', cold: () => mvnTime(false), warm: () => mvnTime(true) },
    );
    await rm(local, { recursive: true, force: true });
  }
  await repo.close();
}

async function benchGo(): Promise<void> {
  const routes = new Map<string, string>();
  const picked = Array.from({ length: UNIVERSES }, (_, i) => randomGoUniverse(2000 + i));
  for (const { u } of picked) proxyRoutes(u, routes);
  const proxy = await startRegistry((p) => (p.startsWith('/v1/') ? '{}' : routes.get(p)));
  const env = () => baseEnv({ GO_PROXY_URL: proxy.url, OSV_API_URL: proxy.url });
  console.log(`go: ${GO_VERSION.stdout.trim()}`);
  for (const [i, { root }] of picked.entries()) {
    const home = await mkdtemp(join(tmpdir(), 'bench-go-'));
    const goTime = (fresh: boolean) =>
      timed(async () => {
        const h = fresh ? await mkdtemp(join(tmpdir(), 'bench-go-cold-')) : home;
        try {
          await runGoModGraph(proxy.url, root, 'v1.0.0', h);
        } finally {
          if (fresh) await rm(h, { recursive: true, force: true });
        }
      });
    await runGoModGraph(proxy.url, root, 'v1.0.0', home); // fills the module cache the warm runs read
    const path = `/v3/systems/go/packages/${encodeURIComponent(root)}/versions/v1.0.0:dependencies`;
    await measure('go', `universe ${2000 + i}`, env, path, {
      name: 'go',
      cold: () => goTime(true),
      warm: () => goTime(false),
    });
    await rm(home, { recursive: true, force: true });
  }
  await proxy.close();
}

const has = (cmd: string, args: string[]) => spawnSync(cmd, args, { encoding: 'utf8' }).status === 0;
console.log(
  `database: ${fresh ? 'PostgreSQL' : 'embedded PGlite'}; tools: npm ${spawnSync('npm', ['--version'], { encoding: 'utf8' }).stdout.trim()}`,
);
try {
  if (SYSTEMS.includes('npm')) await benchNpm();
  if (SYSTEMS.includes('pypi')) {
    if (has('python3', ['-m', 'pip', '--version'])) await benchPypi();
    else console.log('pypi: skipped, python3 -m pip is not available');
  }
  if (SYSTEMS.includes('cargo')) {
    if (has('cargo', ['--version'])) await benchCargo();
    else console.log('cargo: skipped, cargo is not installed');
  }
  if (SYSTEMS.includes('rubygems')) {
    if (HAS_BUNDLER) await benchRubygems();
    else console.log('rubygems: skipped, bundle is not installed');
  }
  if (SYSTEMS.includes('maven')) {
    if (HAS_MVN) await benchMaven();
    else console.log(`maven: skipped, ${MVN_VERSION}`);
  }
  if (SYSTEMS.includes('go')) {
    if (HAS_GO) await benchGo();
    else console.log('go: skipped, go is not installed (apt-get install golang-go)');
  }
  console.log(
    '\nsystem\troot\tcold ms\ttool cold ms\ttool/cold\twarm ms\ttool warm ms\ttool/warm\tisolate ms\ttool/isolate\tisolate SQL\tcached ms\tcached SQL',
  );
  for (const r of rows) {
    console.log(
      [
        r.system,
        r.root,
        r.cold.toFixed(0),
        r.toolCold.toFixed(0),
        (r.toolCold / r.cold).toFixed(2),
        r.warm.toFixed(1),
        r.toolWarm.toFixed(0),
        (r.toolWarm / r.warm).toFixed(1),
        r.isolate.toFixed(2),
        (r.toolWarm / r.isolate).toFixed(1),
        r.isolateSql,
        r.cached.toFixed(1),
        r.cachedSql,
      ].join('\t'),
    );
  }
  const geomean = (xs: number[]) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);
  for (const system of [...new Set(rows.map((r) => r.system))]) {
    const of = rows.filter((r) => r.system === system);
    console.log(
      `${system}: geometric mean over ${of.length} roots: tool cold / our cold ${geomean(of.map((r) => r.toolCold / r.cold)).toFixed(2)}, ` +
        `tool warm / our cold ${geomean(of.map((r) => r.toolWarm / r.cold)).toFixed(2)} (target >= 1: a cold graph at least as fast as the tool on a warm cache)`,
    );
  }
  console.log(
    'cold: new isolate, empty store; warm: new isolate, packages stored, graph deleted; isolate: the isolate that ' +
      'answered cold asked again, graph deleted (Go: go.mod files from its memory); cached: new isolate, graph stored',
  );
  console.log(
    'targets: tool/cold >= 1 (cold at least as fast as the tool), tool/warm >= 10 for a warm service (the tool warm ' +
      'reads its local module cache: compare the isolate column; warm from the store is printed beside it), cached = 1 SQL round trip',
  );
} finally {
  await db.close();
  await stack.close();
  await fresh?.drop();
}
