/**
 * Records the npm resolution corpus (test/fixtures/resolve/npm-corpus/) with npm's own client.
 *
 * For each root spec: `npm view` gives the root manifest; a temp project whose package.json is that
 * manifest (dependencies, optional, peer; no dev, no scripts) is resolved by
 * `npm install --package-lock-only --ignore-scripts` with a private cache; the lockfile's `packages`
 * (path -> version, flags) is kept. Afterwards every packument npm fetched is read back from that
 * cache (npm's own cacache entries, the abbreviated "corgi" documents) and trimmed to the fields
 * resolution needs. Output: roots.json, packuments.json.gz, lockfiles.json.gz.
 *
 * Usage: node tools/record-npm-corpus.ts [cacheDir]   (default /tmp/npm-corpus-cache; network: npm registry)
 */
import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, readFile, writeFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';

const run = promisify(execFile);
const OUT = new URL('../test/fixtures/resolve/npm-corpus/', import.meta.url).pathname;
const CACHE = process.argv[2] ?? '/tmp/npm-corpus-cache';

export const CORPUS_ROOTS = [
  'express', 'webpack', 'jest', 'eslint', '@babel/core', 'react-scripts', 'mocha', 'karma', 'gulp',
  'browserify', 'socket.io', 'mongoose', 'sequelize', 'nodemon', 'axios', 'koa', 'fastify', 'ts-node',
  'webpack-dev-server', 'rollup', 'vite', 'jsdom', 'cheerio', 'lerna', '@angular/cli', 'sharp',
  'body-parser', 'request', 'yargs', 'eslint-plugin-import', '@nestjs/core', 'postcss-cli', 'nyc',
  'http-server', 'grunt',
];

const KEEP_VERSION_FIELDS = [
  'dependencies', 'optionalDependencies', 'peerDependencies', 'peerDependenciesMeta',
  'bundleDependencies', 'os', 'cpu', 'libc', 'engines',
] as const;

async function npm(args: string[], cwd?: string): Promise<string> {
  const { stdout } = await run('npm', [...args, '--cache', CACHE, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd, maxBuffer: 1 << 28,
  });
  return stdout;
}

async function recordRoot(spec: string) {
  const m = JSON.parse(await npm(['view', `${spec}@latest`, 'name', 'version', 'dependencies',
    'optionalDependencies', 'peerDependencies', 'peerDependenciesMeta', '--json']));
  const manifest: Record<string, unknown> = { name: m.name, version: m.version };
  for (const f of ['dependencies', 'optionalDependencies', 'peerDependencies', 'peerDependenciesMeta']) {
    if (m[f]) manifest[f] = m[f];
  }
  const dir = await mkdtemp(join(tmpdir(), 'npm-corpus-'));
  await writeFile(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  const t0 = performance.now();
  await npm(['install', '--package-lock-only', '--ignore-scripts'], dir);
  const ms = performance.now() - t0;
  const lock = JSON.parse(await readFile(join(dir, 'package-lock.json'), 'utf8'));
  await rm(dir, { recursive: true, force: true });
  const packages: Record<string, Record<string, unknown>> = {};
  for (const [path, p] of Object.entries<Record<string, unknown>>(lock.packages)) {
    if (path === '') continue;
    const e: Record<string, unknown> = { version: p.version };
    for (const f of ['name', 'optional', 'peer', 'dev', 'inBundle', 'os', 'cpu', 'libc', 'engines']) if (p[f] !== undefined) e[f] = p[f];
    packages[path] = e;
  }
  console.log(`${spec} ${m.version}: ${Object.keys(packages).length} packages, npm ${ms.toFixed(0)} ms`);
  return { manifest, packages, npmMs: ms };
}

async function readPackuments() {
  const require = createRequire('/usr/lib/node_modules/npm/');
  const cacache = require('cacache');
  const cachePath = join(CACHE, '_cacache');
  const entries = await cacache.ls(cachePath);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(entries)) {
    const m = /^make-fetch-happen:request-cache:https:\/\/registry\.npmjs\.org\/(.+)$/.exec(key);
    if (!m || m[1]!.includes('/-/')) continue;
    const { data } = await cacache.get(cachePath, key);
    let doc: Record<string, any>;
    try { doc = JSON.parse(data.toString('utf8')); } catch { continue; }
    if (!doc.versions || !doc.name) continue;
    const versions: Record<string, unknown> = {};
    for (const [v, man] of Object.entries<Record<string, unknown>>(doc.versions)) {
      const t: Record<string, unknown> = {};
      for (const f of KEEP_VERSION_FIELDS) if (man[f] !== undefined) t[f] = man[f];
      if (man.bundledDependencies && !t.bundleDependencies) t.bundleDependencies = man.bundledDependencies;
      if (man.deprecated) t.deprecated = true;
      versions[v] = t;
    }
    // full-document keys can coexist with corgi ones; keep whichever has more versions
    const prev = out[doc.name] as { versions: object } | undefined;
    if (!prev || Object.keys(prev.versions).length <= Object.keys(versions).length) {
      out[doc.name] = { name: doc.name, 'dist-tags': doc['dist-tags'], versions };
    }
  }
  return out;
}

async function main() {
  await mkdir(OUT, { recursive: true });
  const results: Record<string, Awaited<ReturnType<typeof recordRoot>>> = {};
  const queue = [...CORPUS_ROOTS];
  await Promise.all([0, 1, 2, 3].map(async () => {
    for (let spec = queue.shift(); spec; spec = queue.shift()) {
      try { results[spec] = await recordRoot(spec); } catch (e) { console.error(`${spec}: ${(e as Error).message}`); }
    }
  }));
  const roots = CORPUS_ROOTS.filter((r) => results[r]).map((r) => ({ manifest: results[r]!.manifest, npmColdMs: Math.round(results[r]!.npmMs) }));
  const lockfiles = Object.fromEntries(CORPUS_ROOTS.filter((r) => results[r]).map((r) => [r, results[r]!.packages]));
  const packuments = await readPackuments();
  const { stdout: npmVersion } = await run('npm', ['--version']);
  await writeFile(join(OUT, 'roots.json'), JSON.stringify({ npmVersion: npmVersion.trim(), nodeVersion: process.version, recordedAt: new Date().toISOString(), roots }, null, 1) + '\n');
  await writeFile(join(OUT, 'lockfiles.json.gz'), gzipSync(JSON.stringify(lockfiles), { level: 9 }));
  await writeFile(join(OUT, 'packuments.json.gz'), gzipSync(JSON.stringify(packuments), { level: 9 }));
  console.log(`${roots.length} roots, ${Object.keys(packuments).length} packuments`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
