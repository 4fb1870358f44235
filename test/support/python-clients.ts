/**
 * A Python virtual environment with the pinned third-party clients of ../shared/clients installed, for
 * the client compatibility suites. Created once under .tmp/clients-venv (git-ignored); pip installs the
 * client archives from ../shared/clients and their ordinary dependencies from the machine's configured
 * index (the local one at /opt/pypi/simple when present, so pip does not wait on an unreachable pypi.org).
 * `pythonClients()` answers null, with the reason, where python3 or its venv module is missing.
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = new URL('../../', import.meta.url).pathname;
export const CLIENTS_DIR = join(ROOT, '..', 'shared', 'clients');
const VENV = join(ROOT, '.tmp', 'clients-venv');

export interface PythonClients {
  python: string;
  versions: Record<string, string>;
}

export function pythonMissing(): string | null {
  const r = spawnSync('python3', ['-c', 'import venv, ensurepip'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) return 'python3 with the venv module is not available';
  if (!existsSync(CLIENTS_DIR)) return `${CLIENTS_DIR} is missing`;
  return null;
}

function pipEnv(): NodeJS.ProcessEnv {
  const local = '/opt/pypi/simple';
  return {
    ...process.env,
    PIP_DISABLE_PIP_VERSION_CHECK: '1',
    ...(existsSync(local) ? { PIP_INDEX_URL: `file://${local}` } : {}),
  };
}

/** Installs (once) the given archives of ../shared/clients (or a plain dependency by name) into the venv. */
export async function pythonClients(
  archives: { file: string; module: string; args?: string[]; env?: Record<string, string> }[],
): Promise<PythonClients> {
  const python = join(VENV, 'bin', 'python');
  if (!existsSync(python)) await run('python3', ['-m', 'venv', VENV]);
  const versions: Record<string, string> = {};
  for (const a of archives) {
    const has = spawnSync(python, ['-c', `import ${a.module}`]).status === 0;
    if (!has) {
      const target = a.file.endsWith('.tar.gz') ? join(CLIENTS_DIR, a.file) : a.file; // else a dependency by name
      await run(python, ['-m', 'pip', 'install', '-q', ...(a.args ?? []), target], {
        env: { ...pipEnv(), ...(a.env ?? {}) },
        maxBuffer: 1 << 24,
        timeout: 300_000,
      });
    }
    versions[a.file] = a.file.replace(/\.tar\.gz$/, '');
  }
  return { python, versions };
}

/** Runs a driver script with the venv's python; stdout lines of JSON become records. */
export async function runDriver(
  python: string,
  script: string,
  args: string[],
): Promise<{ code: number; records: { op: string; ok: boolean; detail: unknown }[]; stderr: string }> {
  try {
    const { stdout, stderr } = await run(python, [script, ...args], { maxBuffer: 1 << 24, timeout: 120_000 });
    return { code: 0, records: parse(stdout), stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof e.code === 'number' ? e.code : 1,
      records: parse(e.stdout ?? ''),
      stderr: e.stderr ?? String(err),
    };
  }
}

function parse(stdout: string) {
  return stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { op: string; ok: boolean; detail: unknown });
}
