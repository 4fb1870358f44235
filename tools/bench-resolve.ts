/**
 * Bench: resolves every root of the npm corpus (test/fixtures/resolve/npm-corpus) with the npm
 * resolver over an in-memory client holding the recorded packuments (a warm data store), and in
 * the same run times npm's own `npm install --package-lock-only --ignore-scripts --prefer-offline`
 * for the same root manifest from a warm cache (the recorder's cache, warmed first if missing).
 * Prints per-root milliseconds, node counts, the speed-up, and totals.
 *
 * Usage: npm run bench:resolve [-- --roots express,webpack] [--cache /tmp/npm-corpus-cache] [--no-npm]
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { resolveNpm } from '../src/resolve/npm.ts';
import { DEFAULT_NPM_ENV } from '../src/resolve/npm-pick.ts';
import { loadCorpus } from '../test/unit/resolve/npm-corpus.ts';

const run = promisify(execFile);
const arg = (k: string) => { const i = process.argv.indexOf(k); return i > 0 ? process.argv[i + 1] : undefined; };
const cache = arg('--cache') ?? '/tmp/npm-corpus-cache';
const only = arg('--roots')?.split(',');
const withNpm = !process.argv.includes('--no-npm');

async function npmLockOnly(manifest: Record<string, unknown>): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-resolve-'));
  await writeFile(join(dir, 'package.json'), JSON.stringify(manifest));
  const t0 = performance.now();
  await run('npm', ['install', '--package-lock-only', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', '--cache', cache], { cwd: dir, maxBuffer: 1 << 26 });
  const ms = performance.now() - t0;
  await rm(dir, { recursive: true, force: true });
  return ms;
}

const { meta, client } = loadCorpus();
const env = { ...DEFAULT_NPM_ENV, nodeVersion: meta.nodeVersion.replace(/^v/, ''), npmVersion: meta.npmVersion };
const roots = meta.roots.filter((r) => !only || only.includes(r.manifest.name));
if (withNpm && !existsSync(cache)) console.log(`npm cache ${cache} missing: npm timings below include warming it over the network`);

let oursTotal = 0;
let npmTotal = 0;
console.log(['root', 'nodes', 'ours ms', 'npm ms', 'x faster'].join('\t'));
for (const r of roots) {
  await resolveNpm(client, r.manifest.name, r.manifest.version, env); // warm JIT and client memo
  const reps = 5;
  const t0 = performance.now();
  let nodes = 0;
  for (let i = 0; i < reps; i++) nodes = (await resolveNpm(client, r.manifest.name, r.manifest.version, env)).nodes.length;
  const ours = (performance.now() - t0) / reps;
  oursTotal += ours;
  let npmMs = NaN;
  if (withNpm) {
    await npmLockOnly(r.manifest); // warm npm's cache for this root
    npmMs = await npmLockOnly(r.manifest);
    npmTotal += npmMs;
  }
  console.log([`${r.manifest.name}@${r.manifest.version}`, nodes, ours.toFixed(1), withNpm ? npmMs.toFixed(0) : '-', withNpm ? (npmMs / ours).toFixed(0) : '-'].join('\t'));
}
console.log(`total: ours ${oursTotal.toFixed(0)} ms for ${roots.length} graphs (${(oursTotal / roots.length).toFixed(1)} ms/graph)` +
  (withNpm ? `, npm ${npmTotal.toFixed(0)} ms (${(npmTotal / roots.length).toFixed(0)} ms/graph), ${(npmTotal / oursTotal).toFixed(0)}x` : ''));
