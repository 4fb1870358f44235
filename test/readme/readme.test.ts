/**
 * The README is tested: every shell example of README.md and docs/*.md (tools/readme/examples.ts)
 * runs in order, as a reader pastes them, against a fresh stack that this test starts with
 * `tools/start.ts` on free ports and a temporary data directory (so a developer's running `npm start`
 * is never touched). The examples use the documented default addresses; each `127.0.0.1:<default
 * port>` / `localhost:<default port>` is pointed at the test stack's port before the example runs.
 * Variables set by one example (`T=$(curl ...)`) are seen by the later ones. Every curl an example
 * makes must answer 2xx unless the example declares otherwise (`# → 404`); an assignment must set a
 * non-empty value other than `null`; no `<placeholder>` may be left.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PORTS, PORT_VARIABLES, type PortName } from '../../tools/stack/config.ts';
import { assertPortFree, freePort } from '../../tools/stack/index.ts';
import { extractExamples, placeholder, retarget, type Example } from '../../tools/readme/examples.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FILES = [
  'README.md',
  ...(await readdir(join(ROOT, 'docs')))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];
const EXAMPLES: Example[] = [];
for (const f of FILES) EXAMPLES.push(...extractExamples(await readFile(join(ROOT, f), 'utf8'), f));
const RUNNABLE = EXAMPLES.filter((e) => e.kind !== 'other');

/** Commands that start, test or deploy the project: .ci/run runs them (npm install, npm test, bundles). */
const RUN_BY_CI = [
  /^npm install\b/,
  /^npm start\b/,
  /^npm test\b/,
  /^npm run (test|bench|bundle)/,
  /^npx wrangler deploy\b/,
];

let stack: ChildProcess | undefined;
let dir: string;
let output = '';
const ports: Record<number, number> = {};

/** The first of `n` consecutive ports below 32768 that are free now, none of them in `avoid`. */
async function freeRun(n: number, avoid: Set<number>): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 12_000);
    const run = Array.from({ length: n }, (_, i) => base + i);
    if (run.some((p) => avoid.has(p))) continue;
    const free = await Promise.all(
      run.map((p) =>
        assertPortFree(p, 'inspector').then(
          () => true,
          () => false,
        ),
      ),
    );
    if (free.every(Boolean)) return base;
  }
  throw new Error(`no ${n} free ports in a row below 32768`);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'readme-test-'));
  const env: Record<string, string> = {
    LOCAL_DATA_DIR: join(dir, 'data'),
    DATABASE_URL: '',
    QSTASH_RETRY_DELAY: '500',
  };
  for (const name of Object.keys(DEFAULT_PORTS) as PortName[]) {
    const p = await freePort();
    env[PORT_VARIABLES[name]] = String(p);
    if (name !== 'inspector') ports[DEFAULT_PORTS[name]] = p;
  }
  // Four inspector ports in a row from INSPECTOR_PORT, all free: taken below the kernel's ephemeral range
  // (32768 up), where no port of another test or outgoing connection can be handed out next to ours
  // between this check and npm start's own (a run of four from freePort() once met one such).
  env.INSPECTOR_PORT = String(await freeRun(4, new Set(Object.values(ports))));
  stack = spawn(process.execPath, ['tools/start.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the stack did not start within 200 s:\n${output}`)), 200_000);
    const take = (d: Buffer) => {
      output += d.toString();
      if (output.includes('Press Ctrl-C to stop.')) {
        clearTimeout(timer);
        resolve();
      }
    };
    stack!.stdout!.on('data', take);
    stack!.stderr!.on('data', take);
    stack!.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
  });
  await writeFile(join(dir, 'state.sh'), '');
});

afterAll(async () => {
  if (stack?.pid && stack.exitCode === null) {
    const exited = new Promise((r) => stack!.once('exit', r));
    process.kill(-stack.pid, 'SIGINT');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
    try {
      process.kill(-stack.pid, 'SIGKILL');
    } catch {
      // stopped
    }
  }
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Runs one example in bash with the state of the earlier ones; returns curl statuses and output. */
function run(e: Example): { statuses: number[]; out: string; rc: number } {
  const statusFile = join(dir, 'statuses');
  const script = `
set -o pipefail
source "${dir}/state.sh"
: > "${statusFile}"
curl() {
  local body; body=$(mktemp)
  command curl -sS -o "$body" -w '%{http_code}\\n' "$@" >> "${statusFile}"; local rc=$?
  cat "$body"; rm -f "$body"
  return $rc
}
${retarget(e.command, ports)}
rc=$?
${e.variable ? `printf '%s=%q\\n' ${e.variable} "$${e.variable}" >> "${dir}/state.sh"; echo "[$${e.variable}]"` : ''}
exit $rc
`;
  const r = spawnSync('bash', ['-c', script], { encoding: 'utf8', timeout: 50_000 });
  let statuses: number[] = [];
  try {
    statuses = readFileSync(statusFile, 'utf8').split('\n').filter(Boolean).map(Number);
  } catch {
    statuses = [];
  }
  return { statuses, out: `${r.stdout}${r.stderr}`.slice(0, 2000), rc: r.status ?? -1 };
}

describe('README and docs examples', () => {
  it('finds the examples, and every command it does not run is one CI runs', () => {
    expect(RUNNABLE.length).toBeGreaterThan(100);
    const unknown = EXAMPLES.filter((e) => e.kind === 'other' && !RUN_BY_CI.some((re) => re.test(e.command)));
    expect(unknown.map((e) => `${e.file}:${e.line} ${e.command}`)).toEqual([]);
  });

  for (const e of RUNNABLE) {
    it(`${e.file}:${e.line} ${e.command.slice(0, 110)}`, () => {
      expect(placeholder(e.command), 'a placeholder is left for the reader to fill in').toBeUndefined();
      const r = run(e);
      const bad = r.statuses.filter((s) => (e.expect ? !e.expect.includes(s) : s < 200 || s > 299));
      expect(bad, `unexpected HTTP status (declare it with # → NNN if intended)\n${r.out}`).toEqual([]);
      if (e.kind === 'curl') expect(r.statuses.length, `no request was made\n${r.out}`).toBeGreaterThan(0);
      expect(r.rc, r.out).toBe(0);
      if (e.variable)
        expect(r.out.trim().split('\n').pop(), `${e.variable} is empty or null\n${r.out}`).not.toMatch(/^\[(null)?\]$/);
    });
  }
});
