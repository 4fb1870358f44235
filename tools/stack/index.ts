/**
 * Starts the local stack in-process (used by `npm start` and by the test suites): embedded PGlite in
 * a child process (unless a DATABASE_URL is given), the Neon-compatible proxy, the QStash-compatible
 * server, the mail catcher and the sample blog of the pipeline's demo sources, then applies the
 * migrations. Port 0 picks free ports (tests). A port that is taken rejects with PortInUseError.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { migrate } from '../migrate.ts';
import { PORTS, PORT_VARIABLES, QSTASH_DEV, DEV_SECRETS, type PortName } from './config.ts';
import { startMailCatcher, type MailCatcher } from './mail-catcher.ts';
import { startNeonProxy, type NeonProxy } from './neon-proxy.ts';
import { startQstashServer, type QstashServer } from './qstash-server.ts';
import { startSampleSite, type SampleSite } from './sample-site.ts';

export interface StackOptions {
  /** Use this PostgreSQL instead of PGlite. */
  databaseUrl?: string;
  /** PGlite data directory; undefined = in memory. */
  dataDir?: string;
  ports?: Partial<Record<'postgres' | 'neonProxy' | 'qstash' | 'mail' | 'sample', number>>;
  qstashRetryBaseMs?: number;
  /** QStash retry-delay expression for messages without their own (default: production's schedule). */
  qstashRetryDelay?: string;
  /** Retries for messages that do not set Upstash-Retries (default 3). */
  qstashRetries?: number;
  log?: (line: string) => void;
  migrate?: boolean;
}

export interface Stack {
  databaseUrl: string;
  neonProxy: string;
  qstashUrl: string;
  mailUrl: string;
  sampleUrl: string;
  embedded: boolean;
  qstash: QstashServer;
  mail: MailCatcher;
  sample: SampleSite;
  proxy: NeonProxy;
  close(): Promise<void>;
}

/** A local port another process holds: `npm start` prints `message` as its one line and exits 1. */
export class PortInUseError extends Error {
  readonly port: number;
  readonly variable: string;
  constructor(port: number, variable: string) {
    super(
      `port ${port} is already in use (set by ${variable}): find the process with \`ss -ltnp 'sport = :${port}'\` ` +
        `or \`lsof -i :${port}\`, stop it, or choose another port with ${variable}=<port>`,
    );
    this.port = port;
    this.variable = variable;
  }
}

/** Resolves when nothing listens on 127.0.0.1:port; rejects with PortInUseError otherwise. */
export async function assertPortFree(port: number, name: PortName): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const s = createServer();
    s.once('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'EADDRINUSE' || err.code === 'EACCES' ? new PortInUseError(port, PORT_VARIABLES[name]) : err),
    );
    s.listen(port, '127.0.0.1', () => s.close(() => resolve()));
  });
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

export async function startPglite(
  port: number,
  dataDir: string | undefined,
  log: (l: string) => void,
): Promise<ChildProcess> {
  const script = fileURLToPath(new URL('./pglite-server.ts', import.meta.url));
  const child = spawn(
    process.execPath,
    [script, '--port', String(port), ...(dataDir ? ['--data', dataDir] : ['--memory'])],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
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
      reject(
        out.includes('EADDRINUSE')
          ? new PortInUseError(port, PORT_VARIABLES.postgres)
          : new Error(`PGlite exited with ${code}: ${out}`),
      );
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
  const port = async (name: 'postgres' | 'neonProxy' | 'qstash' | 'mail' | 'sample') => {
    const wanted = opts.ports?.[name] ?? PORTS[name];
    if (wanted === 0) return freePort();
    await assertPortFree(wanted, name);
    return wanted;
  };
  let pglite: ChildProcess | undefined;
  let databaseUrl = opts.databaseUrl;
  if (!databaseUrl) {
    const pgPort = await port('postgres');
    pglite = await startPglite(pgPort, opts.dataDir, log);
    databaseUrl = `postgres://postgres:postgres@127.0.0.1:${pgPort}/postgres`;
  }
  const closers: (() => Promise<void>)[] = [async () => stopChild(pglite)];
  try {
    const proxy = await startNeonProxy(await port('neonProxy'));
    closers.unshift(() => proxy.close());
    const qstash = await startQstashServer({
      port: await port('qstash'),
      retryBaseMs: opts.qstashRetryBaseMs,
      retryDelay: opts.qstashRetryDelay,
      defaultRetries: opts.qstashRetries,
      log: (l) => log(`[qstash] ${l}`),
    });
    closers.unshift(() => qstash.close());
    const mail = await startMailCatcher(await port('mail'), { apiKey: DEV_SECRETS.MAIL_API_KEY });
    closers.unshift(() => mail.close());
    const sample = await startSampleSite(await port('sample'));
    closers.unshift(() => sample.close());
    if (opts.migrate !== false) await migrate(databaseUrl, (l) => log(`[migrate] ${l}`));
    return {
      databaseUrl,
      neonProxy: `127.0.0.1:${proxy.port}`,
      qstashUrl: qstash.url,
      mailUrl: mail.url,
      sampleUrl: sample.url,
      embedded: !!pglite,
      qstash,
      mail,
      sample,
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
