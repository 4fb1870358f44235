/**
 * A local Chromium with its DevTools endpoint open on loopback: the development browser of the
 * pipeline's browser agents (src/pipeline/collectors/browser-driver.ts, `PIPELINE_BROWSER_CDP_URL`),
 * standing in for the Workers `BROWSER` binding. Debian's headless `chromium` (CHROMIUM, default
 * /usr/bin/chromium) with a throw-away profile; `wsUrl` is the browser's WebSocket, as Chromium prints
 * it on start. `args` are extra Chromium switches (tests map hosts with `--host-resolver-rules`).
 * Local use only: the browser loads whatever it is told; the pipeline checks every URL first.
 *
 *   node tools/browser-cdp.ts [port]   (default 9222; prints the ws:// URL)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface LocalCdp {
  wsUrl: string;
  httpUrl: string;
  close(): Promise<void>;
}

export async function startChromiumCdp(port = 0, args: string[] = []): Promise<LocalCdp> {
  const profile = mkdtempSync(join(tmpdir(), 'cdp-profile-'));
  const child: ChildProcess = spawn(
    process.env.CHROMIUM ?? '/usr/bin/chromium',
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--remote-debugging-address=127.0.0.1',
      `--remote-debugging-port=${port}`,
      `--user-data-dir=${profile}`,
      ...args,
      'about:blank',
    ],
    // its own process group, so close() ends the helper processes (crashpad, zygote) that write the profile too
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  const killGroup = () => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      child.kill('SIGTERM');
    }
  };
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  // A parent that exits without close() (npm start on a signal) takes its browser with it.
  const killOnExit = killGroup;
  process.once('exit', killOnExit);
  const wsUrl = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error('Chromium printed no DevTools URL within 20 s'));
    }, 20_000);
    child.stderr!.on('data', (d: Buffer) => {
      seen += d.toString();
      const m = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Chromium exited (${code}) before its DevTools endpoint opened: ${seen.trim().slice(-300)}`));
    });
  });
  return {
    wsUrl,
    httpUrl: `http://${new URL(wsUrl).host}`,
    close: async () => {
      process.off('exit', killOnExit);
      if (child.exitCode === null) killGroup();
      await exited;
      // A helper process may still be writing the profile for a moment after the browser exits (ENOTEMPTY):
      // removal is retried, and a temporary directory that outlives that is reported, not a failed close.
      try {
        rmSync(profile, { recursive: true, force: true, maxRetries: 20, retryDelay: 200 });
      } catch (e) {
        console.warn(`browser-cdp: Chromium profile ${profile} left behind: ${(e as Error).message}`);
      }
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const cdp = await startChromiumCdp(Number(process.argv[2] ?? 9222));
  console.log(`Chromium DevTools: ${cdp.httpUrl} (PIPELINE_BROWSER_CDP_URL=${cdp.httpUrl})`);
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => void cdp.close().then(() => process.exit(0)));
}
