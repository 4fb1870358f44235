/**
 * `npm start` while another process holds one of its ports: one line naming the port, its variable
 * and how to find the holder, exit code 1, no stack trace, nothing started. The held port is the
 * embedded database's (PGLITE_PORT), the one that collided in practice; every other port is moved to
 * a free one so the run cannot touch a stack a developer has running.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PORT_VARIABLES, type PortName } from '../../tools/stack/config.ts';
import { PortInUseError, freePort, startPglite } from '../../tools/stack/index.ts';

let holder: Server;
let held: number;
let dataDir: string;

beforeAll(async () => {
  holder = createServer();
  await new Promise<void>((r) => holder.listen(0, '127.0.0.1', () => r()));
  held = (holder.address() as { port: number }).port;
  dataDir = await mkdtemp(join(tmpdir(), 'start-port-taken-'));
});
afterAll(async () => {
  await new Promise((r) => holder.close(r));
  await rm(dataDir, { recursive: true, force: true });
});

function runStart(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['tools/start.ts'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

describe('npm start with a taken port', () => {
  it('prints one line naming the port, PGLITE_PORT and how to find the process, and exits 1', async () => {
    const env: Record<string, string> = { LOCAL_DATA_DIR: dataDir };
    for (const name of Object.keys(PORT_VARIABLES) as PortName[]) env[PORT_VARIABLES[name]] = String(await freePort());
    env.PGLITE_PORT = String(held);
    env.DATABASE_URL = ''; // the embedded database, whatever the caller's shell says
    const out = await runStart(env);
    expect(out.code).toBe(1);
    const lines = out.stderr.split('\n').filter((l) => l.trim() && !l.startsWith('npm warn'));
    expect(lines).toEqual([
      `npm start: port ${held} is already in use (set by PGLITE_PORT): find the process with \`ss -ltnp 'sport = :${held}'\` ` +
        `or \`lsof -i :${held}\`, stop it, or choose another port with PGLITE_PORT=<port>`,
    ]);
    expect(out.stdout).not.toContain('Starting embedded PostgreSQL');
  });

  it('names the variable of a taken function port too', async () => {
    const env: Record<string, string> = { LOCAL_DATA_DIR: dataDir };
    for (const name of Object.keys(PORT_VARIABLES) as PortName[]) env[PORT_VARIABLES[name]] = String(await freePort());
    env.MARKETPLACE_PORT = String(held);
    const out = await runStart(env);
    expect(out.code).toBe(1);
    expect(out.stderr.trim()).toContain(`port ${held} is already in use (set by MARKETPLACE_PORT)`);
    expect(out.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('refuses an unknown function name in one line', async () => {
    const out = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, ['tools/start.ts', 'billing'], {
        env: { ...process.env, LOCAL_DATA_DIR: dataDir },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('exit', (code) => resolve({ code, stderr }));
    });
    expect(out.code).toBe(1);
    expect(out.stderr.trim()).toBe(
      'npm start: unknown function billing: choose among insights, marketplace, pipeline, delivery',
    );
  });

  it('the embedded database started on a port taken after the check rejects with PortInUseError', async () => {
    const err = await startPglite(held, undefined, () => {}).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(PortInUseError);
    expect((err as PortInUseError).variable).toBe('PGLITE_PORT');
  });
});
