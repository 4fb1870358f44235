/**
 * Starts the local stack in-process (used by `npm start` and by the test suites): embedded PGlite in
 * a child process (unless a DATABASE_URL is given), the Neon-compatible proxy, the QStash-compatible
 * server and the mail catcher, then applies the migrations. Port 0 picks free ports (tests).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { migrate } from '../migrate.ts';
import { PORTS, QSTASH_DEV, DEV_SECRETS } from './config.ts';
import { startMailCatcher, type MailCatcher } from './mail-catcher.ts';
import { startNeonProxy, type NeonProxy } from './neon-proxy.ts';
import { startQstashServer, type QstashServer } from './qstash-server.ts';

export interface StackOptions {
  /** Use this PostgreSQL instead of PGlite. */
  databaseUrl?: string;
  /** PGlite data directory; undefined = in memory. */
  dataDir?: string;
  ports?: Partial<{ postgres: number; neonProxy: number; qstash: number; mail: number }>;
  qstashRetryBaseMs?: number;
  log?: (line: string) => void;
  migrate?: boolean;
}

export interface Stack {
  databaseUrl: string;
  neonProxy: string;
  qstashUrl: string;
  mailUrl: string;
  embedded: boolean;
  qstash: QstashServer;
  mail: MailCatcher;
  proxy: NeonProxy;
  close(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export async function startPglite(port: number, dataDir: string | undefined, log: (l: string) => void): Promise<ChildProcess> {
  const script = fileURLToPath(new URL('./pglite-server.ts', import.meta.url));
  const child = spawn(process.execPath, [script, '--port', String(port), ...(dataDir ? ['--data', dataDir] : ['--memory'])], { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`PGlite did not start within 60 s: ${out}`)), 60_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('READY')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr!.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`PGlite exited with ${code}: ${out}`));
    });
  });
  child.stderr!.on('data', (d: Buffer) => log(`[pglite] ${d.toString().trim()}`));
  return child;
}

export async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve();
    }, 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export async function startStack(opts: StackOptions = {}): Promise<Stack> {
  const log = opts.log ?? (() => {});
  const port = async (name: keyof typeof PORTS, fallback: number) => (opts.ports?.[name as 'postgres'] === 0 ? freePort() : (opts.ports?.[name as 'postgres'] ?? fallback));
  let pglite: ChildProcess | undefined;
  let databaseUrl = opts.databaseUrl;
  if (!databaseUrl) {
    const pgPort = await port('postgres', PORTS.postgres);
    pglite = await startPglite(pgPort, opts.dataDir, log);
    databaseUrl = `postgres://postgres:postgres@127.0.0.1:${pgPort}/postgres`;
  }
  const closers: (() => Promise<void>)[] = [async () => stopChild(pglite)];
  try {
    const proxy = await startNeonProxy(await port('neonProxy', PORTS.neonProxy));
    closers.unshift(() => proxy.close());
    const qstash = await startQstashServer({ port: await port('qstash', PORTS.qstash), retryBaseMs: opts.qstashRetryBaseMs, log: (l) => log(`[qstash] ${l}`) });
    closers.unshift(() => qstash.close());
    const mail = await startMailCatcher(await port('mail', PORTS.mail), { apiKey: DEV_SECRETS.MAIL_API_KEY });
    closers.unshift(() => mail.close());
    if (opts.migrate !== false) await migrate(databaseUrl, (l) => log(`[migrate] ${l}`));
    return {
      databaseUrl,
      neonProxy: `127.0.0.1:${proxy.port}`,
      qstashUrl: qstash.url,
      mailUrl: mail.url,
      embedded: !!pglite,
      qstash,
      mail,
      proxy,
      async close() {
        for (const c of closers) await c().catch(() => undefined);
      },
    };
  } catch (err) {
    for (const c of closers) await c().catch(() => undefined);
    throw err;
  }
}

export { QSTASH_DEV };
