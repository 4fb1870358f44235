/**
 * `npm start [-- <function>...]`: the system on this machine. Starts the local stack (embedded PGlite
 * with data in `$LOCAL_DATA_DIR/pglite`, or the PostgreSQL named by DATABASE_URL; the Neon-compatible
 * proxy; the QStash-compatible server; the mail catcher; the sample blog), applies migrations, runs
 * the `tools/seed/*.ts` of the chosen functions, then the functions under `wrangler dev` (workerd) with
 * cron triggers testable at `/__scheduled?cron=...`. Named functions start with what they need
 * (every function but `delivery` publishes to the queue, so `delivery` comes along); none named = all.
 * Ports come from config.ts (each overridable by its variable). Every port is checked before anything
 * starts: a taken one ends the command with one line naming port, variable and how to find the
 * holder, exit code 1. Prints each URL and every credential the README examples need; Ctrl-C stops all.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DEFAULT_PORTS,
  FUNCTIONS,
  LOCAL,
  PASS_THROUGH_VARS,
  PORT_VARIABLES,
  QSTASH_DEV,
  portsFrom,
  workerVars,
  type FunctionName,
  type PortName,
} from './stack/config.ts';
import { PortInUseError, assertPortFree, startStack, stopChild } from './stack/index.ts';
import { SEED_OWNER, UsageError, chooseFunctions } from './stack/select.ts';
import { evalRetryDelay } from './stack/qstash-server.ts';
import { startLocalBrowser } from './stack/local-browser.ts';
import { minuteTicker, triggerScheduled, type Ticker } from './stack/cron-ticker.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const started = Date.now();
const args = process.argv.slice(2);
const quiet = args.includes('--quiet');
const log = (line: string) => console.log(line);

export async function runSeeds(
  databaseUrl: string,
  env: Record<string, string>,
  only: FunctionName[] = [...FUNCTIONS],
): Promise<string[]> {
  const dir = new URL('./seed/', import.meta.url);
  let files: string[] = [];
  try {
    files = (await readdir(dir))
      .filter((f) => f.endsWith('.ts'))
      .sort()
      .filter((f) => only.includes(SEED_OWNER[f.replace(/\.ts$/, '')] ?? 'delivery'));
  } catch {
    return [];
  }
  const lines: string[] = [];
  for (const f of files) {
    const mod = (await import(new URL(f, dir).href)) as {
      seed?: (ctx: { databaseUrl: string; env: Record<string, string> }) => Promise<string[]>;
    };
    if (typeof mod.seed !== 'function') continue;
    try {
      const out = await mod.seed({ databaseUrl, env });
      if (out.length) lines.push(`# ${f.replace(/\.ts$/, '')}`, ...out);
    } catch (err) {
      lines.push(`# ${f}: seeding failed: ${(err as Error).message}`);
    }
  }
  return lines;
}

async function waitHealthy(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: wrangler exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${url} did not become healthy within ${timeoutMs / 1000} s`);
}

function retrySettings(env: NodeJS.ProcessEnv): { qstashRetryDelay?: string; qstashRetries?: number } {
  const out: { qstashRetryDelay?: string; qstashRetries?: number } = {};
  if (env.QSTASH_RETRY_DELAY) {
    try {
      evalRetryDelay(env.QSTASH_RETRY_DELAY, 0);
    } catch (err) {
      throw new UsageError(
        `QSTASH_RETRY_DELAY: ${(err as Error).message} (example: QSTASH_RETRY_DELAY='1000 * (1 + retried)')`,
      );
    }
    out.qstashRetryDelay = env.QSTASH_RETRY_DELAY;
  }
  if (env.QSTASH_RETRIES) {
    const n = Number(env.QSTASH_RETRIES);
    if (!Number.isInteger(n) || n < 0)
      throw new UsageError(`QSTASH_RETRIES=${env.QSTASH_RETRIES} is not a whole number >= 0`);
    out.qstashRetries = n;
  }
  return out;
}

/** The ports this start needs, infrastructure first; each is checked before anything listens. */
function neededPorts(fns: FunctionName[], embedded: boolean): PortName[] {
  const infra: PortName[] = [...(embedded ? (['postgres'] as const) : []), 'neonProxy', 'qstash', 'mail', 'sample'];
  return [...infra, ...fns];
}

async function main() {
  const databaseUrl = process.env.DATABASE_URL;
  let ports: Record<PortName, number>;
  let fns: FunctionName[];
  let retry: ReturnType<typeof retrySettings>;
  try {
    ports = portsFrom(process.env);
    fns = chooseFunctions(args.filter((a) => !a.startsWith('--')));
    retry = retrySettings(process.env);
    for (const name of neededPorts(fns, !databaseUrl)) await assertPortFree(ports[name], name);
    for (const fn of fns) await assertPortFree(ports.inspector + FUNCTIONS.indexOf(fn), 'inspector');
  } catch (err) {
    return fail(err);
  }
  const dataDir = resolve(ROOT, process.env.LOCAL_DATA_DIR ?? '.data');
  log(
    databaseUrl
      ? `Using PostgreSQL at ${new URL(databaseUrl).host}`
      : `Starting embedded PostgreSQL (PGlite, data in ${dataDir}/pglite) ...`,
  );
  let stack: Awaited<ReturnType<typeof startStack>>;
  try {
    stack = await startStack({
      databaseUrl,
      dataDir: `${dataDir}/pglite`,
      ports,
      ...retry,
      log: quiet ? undefined : (l) => (l.startsWith('[qstash]') || l.startsWith('[migrate]') ? log(l) : undefined),
    });
  } catch (err) {
    return fail(err);
  }
  const passed = Object.fromEntries(PASS_THROUGH_VARS.filter((k) => process.env[k]).map((k) => [k, process.env[k]!]));
  const browser =
    fns.includes('pipeline') || fns.includes('delivery') ? await startLocalBrowser(process.env) : undefined;
  const vars = workerVars(
    stack.databaseUrl,
    // wrangler dev's own BROWSER binding would download a browser: the local one is the DevTools endpoint
    { PIPELINE_BROWSER_BINDING: 'off', ...passed, ...(typeof browser === 'object' ? browser.vars : {}) },
    LOCAL,
  );
  const children: ChildProcess[] = [];
  let ticker: Ticker | undefined;
  let stopping = false;
  const stop = async (code = 0) => {
    if (stopping) return;
    stopping = true;
    log('\nStopping ...');
    ticker?.stop();
    await Promise.all(children.map((c) => stopGroup(c)));
    if (typeof browser === 'object') await browser.close();
    await stack.close();
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  process.on('SIGHUP', () => void stop(0));

  try {
    const seeded = await runSeeds(stack.databaseUrl, { ...vars, SAMPLE_URL: stack.sampleUrl }, fns);
    await mkdir(dataDir, { recursive: true });
    const envFile = `${dataDir}/local.env`;
    await writeFile(
      envFile,
      `${Object.entries(vars)
        .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
        .join('\n')}\n`,
      { mode: 0o600 },
    );
    for (const fn of fns)
      children.push(
        startWrangler(fn, envFile, ports[fn], ports.inspector + FUNCTIONS.indexOf(fn), `${dataDir}/wrangler/${fn}`),
      );
    await Promise.all(fns.map((fn, i) => waitHealthy(LOCAL.url(fn), children[i]!, 90_000)));
    // the insights change feeds run every minute as deployed (wrangler dev runs crons only when asked)
    if (fns.includes('insights')) ticker = minuteTicker((cron) => triggerScheduled(LOCAL.url('insights'), cron));
    const secs = ((Date.now() - started) / 1000).toFixed(1);
    log(
      `\n${fns.length === FUNCTIONS.length ? 'All services are' : `${fns.join(', ')} ${fns.length === 1 ? 'is' : 'are'}`} up (${secs} s):`,
    );
    for (const fn of fns) log(`  ${fn.padEnd(12)} ${LOCAL.url(fn)}`);
    log(`  ${'qstash'.padEnd(12)} ${LOCAL.qstashUrl}   token (QSTASH_TOKEN): ${QSTASH_DEV.token}`);
    log(
      `  ${''.padEnd(12)} dead letters: curl -H 'Authorization: Bearer ${QSTASH_DEV.token}' ${LOCAL.qstashUrl}/v2/dlq`,
    );
    log(`  ${'mail'.padEnd(12)} ${LOCAL.mailUrl}   (JSON: ${LOCAL.mailUrl}/api/messages)`);
    log(
      `  ${'sample blog'.padEnd(12)} ${stack.sampleUrl}   (feed: ${stack.sampleUrl}/feed.xml; read by the pipeline demo sources)`,
    );
    if (browser) log(typeof browser === 'object' ? `  ${browser.line}` : `  ${browser}`);
    log(`  ${'database'.padEnd(12)} ${stack.databaseUrl}${stack.embedded ? ' (embedded PGlite)' : ''}`);
    if (fns.includes('insights'))
      log(`  feeds:       ${LOCAL.url('insights')}/healthz/feeds   (change feeds, followed every minute)`);
    if (fns.includes('marketplace'))
      log(`  cron:        curl '${LOCAL.url('marketplace')}/__scheduled?cron=17+3+*+*+*'`);
    if (seeded.length) log(`\n${seeded.join('\n')}`);
    log('\nPress Ctrl-C to stop.');
  } catch (err) {
    console.error(`\nstart failed: ${(err as Error).message}`);
    await stop(1);
  }
}

/** One line for the person at the terminal, no stack trace; exit code 1. */
function fail(err: unknown): never {
  const e = err as NodeJS.ErrnoException & { port?: number };
  let line: string;
  if (err instanceof PortInUseError || err instanceof UsageError) line = err.message;
  else if (e.code === 'EADDRINUSE' && e.port) {
    const name = (Object.keys(DEFAULT_PORTS) as PortName[]).find((n) => portsFrom(process.env)[n] === e.port);
    line = new PortInUseError(e.port, name ? PORT_VARIABLES[name] : 'its variable').message;
  } else line = `could not start: ${e.message ?? String(err)}`;
  console.error(`npm start: ${line}`);
  process.exit(1);
}

function startWrangler(
  fn: FunctionName,
  envFile: string,
  port: number,
  inspectorPort: number,
  persistTo: string,
): ChildProcess {
  const wrangler = fileURLToPath(new URL('../node_modules/wrangler/bin/wrangler.js', import.meta.url));
  const child = spawn(
    process.execPath,
    [
      wrangler,
      'dev',
      '--env',
      fn,
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--env-file',
      envFile,
      '--inspector-port',
      String(inspectorPort),
      '--test-scheduled',
      '--show-interactive-dev-session=false',
      '--log-level',
      'warn',
      '--persist-to',
      persistTo,
    ],
    {
      cwd: ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        WRANGLER_SEND_METRICS: 'false',
        // wrangler's debug logs beside its state, under LOCAL_DATA_DIR (its default is ~/.config/.wrangler/logs)
        WRANGLER_LOG_PATH: `${persistTo}/logs`,
        CLOUDFLARE_CF_FETCH_ENABLED: 'false',
        NO_D1_WARNING: 'true',
        FORCE_COLOR: '0',
      },
    },
  );
  const prefix = `[${fn}] `;
  const forward = (d: Buffer) => {
    for (const line of d.toString().split('\n')) if (line.trim() && !quiet) console.log(prefix + line);
  };
  child.stdout!.on('data', forward);
  child.stderr!.on('data', forward);
  return child;
}

async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    // already gone
  }
  await Promise.race([new Promise((r) => child.once('exit', r)), new Promise((r) => setTimeout(r, 5000))]);
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // exited
  }
  await stopChild(child);
}

await main();
