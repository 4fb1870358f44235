/**
 * `npm start`: the whole system on this machine. Starts the local stack (embedded PGlite with data in
 * `.data/pglite`, or the PostgreSQL named by DATABASE_URL; the Neon-compatible proxy; the
 * QStash-compatible server on :8080; the mail catcher on :8025), applies migrations, runs every
 * `tools/seed/*.ts`, then the four functions under `wrangler dev` (workerd) on :8787-:8790 with cron
 * triggers testable at `/__scheduled?cron=...`. Prints each URL when ready; Ctrl-C stops everything.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { FUNCTIONS, LOCAL, PORTS, workerVars, type FunctionName } from './stack/config.ts';
import { startStack, stopChild } from './stack/index.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const started = Date.now();
const quiet = process.argv.includes('--quiet');
const log = (line: string) => console.log(line);

export async function runSeeds(databaseUrl: string, env: Record<string, string>): Promise<string[]> {
  const dir = new URL('./seed/', import.meta.url);
  let files: string[] = [];
  try {
    files = (await readdir(dir)).filter((f) => f.endsWith('.ts')).sort();
  } catch {
    return [];
  }
  const lines: string[] = [];
  for (const f of files) {
    const mod = (await import(new URL(f, dir).href)) as { seed?: (ctx: { databaseUrl: string; env: Record<string, string> }) => Promise<string[]> };
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

async function main() {
  const databaseUrl = process.env.DATABASE_URL;
  log(databaseUrl ? `Using PostgreSQL at ${new URL(databaseUrl).host}` : 'Starting embedded PostgreSQL (PGlite, data in .data/pglite) ...');
  const stack = await startStack({ databaseUrl, dataDir: `${ROOT}.data/pglite`, log: quiet ? undefined : (l) => (l.startsWith('[qstash]') || l.startsWith('[migrate]') ? log(l) : undefined) });
  const vars = workerVars(stack.databaseUrl);
  const children: ChildProcess[] = [];
  let stopping = false;
  const stop = async (code = 0) => {
    if (stopping) return;
    stopping = true;
    log('\nStopping ...');
    await Promise.all(children.map((c) => stopGroup(c)));
    await stack.close();
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  process.on('SIGHUP', () => void stop(0));

  try {
    const seeded = await runSeeds(stack.databaseUrl, vars);
    await mkdir(`${ROOT}.wrangler`, { recursive: true });
    const envFile = `${ROOT}.wrangler/local.env`;
    await writeFile(envFile, Object.entries(vars).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join('\n') + '\n', { mode: 0o600 });
    FUNCTIONS.forEach((fn, i) => children.push(startWrangler(fn, envFile, 9230 + i)));
    await Promise.all(FUNCTIONS.map((fn, i) => waitHealthy(LOCAL.url(fn), children[i]!, 90_000)));
    const secs = ((Date.now() - started) / 1000).toFixed(1);
    log(`\nAll services are up (${secs} s):`);
    for (const fn of FUNCTIONS) log(`  ${fn.padEnd(12)} ${LOCAL.url(fn)}`);
    log(`  ${'qstash'.padEnd(12)} ${LOCAL.qstashUrl}   (dead letters: GET /v2/dlq with the dev token)`);
    log(`  ${'mail'.padEnd(12)} ${LOCAL.mailUrl}   (JSON: ${LOCAL.mailUrl}/api/messages)`);
    log(`  ${'database'.padEnd(12)} ${stack.databaseUrl}${stack.embedded ? ' (embedded PGlite)' : ''}`);
    log(`  cron:        curl '${LOCAL.url('marketplace')}/__scheduled?cron=17+3+*+*+*'`);
    if (seeded.length) log(`\n${seeded.join('\n')}`);
    log('\nPress Ctrl-C to stop.');
  } catch (err) {
    console.error(`\nstart failed: ${(err as Error).message}`);
    await stop(1);
  }
}

function startWrangler(fn: FunctionName, envFile: string, inspectorPort: number): ChildProcess {
  const wrangler = fileURLToPath(new URL('../node_modules/wrangler/bin/wrangler.js', import.meta.url));
  const child = spawn(process.execPath, [
    wrangler, 'dev', '--env', fn, '--ip', '127.0.0.1', '--port', String(PORTS[fn]), '--env-file', envFile,
    '--inspector-port', String(inspectorPort), '--test-scheduled', '--show-interactive-dev-session=false', '--log-level', 'warn',
    '--persist-to', `${ROOT}.wrangler/state/${fn}`,
  ], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', NO_D1_WARNING: 'true', FORCE_COLOR: '0' },
  });
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
