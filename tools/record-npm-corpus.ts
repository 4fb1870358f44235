/**
 * Records the npm resolution corpus (tools/universes/npm-corpus/) with npm's own client.
 *
 * For each root spec: `npm view` gives the root manifest; a temp project whose package.json is that
 * manifest (dependencies, optional, peer; no dev, no scripts) is resolved by
 * `npm install --package-lock-only --ignore-scripts` with a private cache; the lockfile's `packages`
 * (path -> version, flags) is kept. Afterwards every packument npm fetched is read back from that
 * cache (npm's own cacache entries, the abbreviated "corgi" documents) and trimmed to the fields
 * resolution needs. Output: roots.json, packuments.json.gz, lockfiles.json.gz.
 *
 * Usage: node tools/record-npm-corpus.ts [cacheDir]   (default /tmp/npm-corpus-cache; network: npm registry)
 *
 * Adding roots: `node tools/record-npm-corpus.ts --add [cacheDir]` (default: a fresh temp dir)
 * records only the CORPUS_ROOTS that roots.json does not hold yet, against the recorded snapshot,
 * so the roots already there keep their trees. npm must be roots.json's npm on roots.json's node
 * (put that node first in PATH: npm judges `engines` by its own process.version); it runs with a
 * private cache against a loopback registry that serves every package the corpus holds as
 * recorded and passes any other request through to the npm registry. What it passes through is
 * trimmed as above and appended (sorted by name) to packuments.json.gz, the new lockfiles to
 * lockfiles.json.gz and the new roots (with their own `recordedAt`; their `npmColdMs` is timed
 * against that loopback registry) to roots.json. Nothing already recorded changes, and a run with
 * nothing to add rewrites the same bytes.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, readFile, writeFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';

const run = promisify(execFile);
const OUT = new URL('./universes/npm-corpus/', import.meta.url).pathname;
const ADD = process.argv.includes('--add');
let CACHE = process.argv.slice(2).find((a) => !a.startsWith('--')) ?? '/tmp/npm-corpus-cache';
const UPSTREAM = 'https://registry.npmjs.org';
/** extra npm options of this run (add mode: the loopback registry) */
const NPM_EXTRA: string[] = [];

export const CORPUS_ROOTS = [
  'express',
  'webpack',
  'jest',
  'eslint',
  '@babel/core',
  'react-scripts',
  'mocha',
  'karma',
  'gulp',
  'browserify',
  'socket.io',
  'mongoose',
  'sequelize',
  'nodemon',
  'axios',
  'koa',
  'fastify',
  'ts-node',
  'webpack-dev-server',
  'rollup',
  'vite',
  'jsdom',
  'cheerio',
  'lerna',
  '@angular/cli',
  'sharp',
  'body-parser',
  'request',
  'yargs',
  'eslint-plugin-import',
  '@nestjs/core',
  'postcss-cli',
  'nyc',
  'http-server',
  'grunt',
  '@vue/cli-service',
  'typescript-eslint',
];

const KEEP_VERSION_FIELDS = [
  'dependencies',
  'optionalDependencies',
  'peerDependencies',
  'peerDependenciesMeta',
  'bundleDependencies',
  'os',
  'cpu',
  'libc',
  'engines',
] as const;

async function npm(args: string[], cwd?: string): Promise<string> {
  const { stdout } = await run(
    'npm',
    [...args, '--cache', CACHE, ...NPM_EXTRA, '--no-audit', '--no-fund', '--loglevel=error'],
    {
      cwd,
      maxBuffer: 1 << 28,
    },
  );
  return stdout;
}

async function recordRoot(spec: string) {
  const m = JSON.parse(
    await npm([
      'view',
      `${spec}@latest`,
      'name',
      'version',
      'dependencies',
      'optionalDependencies',
      'peerDependencies',
      'peerDependenciesMeta',
      '--json',
    ]),
  );
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
    for (const f of ['name', 'optional', 'peer', 'dev', 'inBundle', 'os', 'cpu', 'libc', 'engines'])
      if (p[f] !== undefined) e[f] = p[f];
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
    let doc: Packument;
    try {
      doc = JSON.parse(data.toString('utf8'));
    } catch {
      continue;
    }
    if (!doc.versions || !doc.name) continue;
    keepPackument(out, doc);
  }
  return out;
}

type Trimmed = { name: string; 'dist-tags': Record<string, string>; versions: Record<string, Record<string, unknown>> };

/** The fields of a packument this tool reads. */
interface Packument {
  name: string;
  'dist-tags': Record<string, string>;
  versions: Record<string, Record<string, unknown>>;
}

/** A packument trimmed to the fields resolution needs. */
function trimPackument(doc: Packument): Trimmed {
  const versions: Record<string, Record<string, unknown>> = {};
  for (const [v, man] of Object.entries<Record<string, unknown>>(doc.versions)) {
    const t: Record<string, unknown> = {};
    for (const f of KEEP_VERSION_FIELDS) if (man[f] !== undefined) t[f] = man[f];
    if (man.bundledDependencies && !t.bundleDependencies) t.bundleDependencies = man.bundledDependencies;
    if (man.deprecated) t.deprecated = true;
    versions[v] = t;
  }
  return { name: doc.name, 'dist-tags': doc['dist-tags'], versions };
}

/** Full-document keys can coexist with corgi ones; keep whichever has more versions. */
function keepPackument(out: Record<string, unknown>, doc: Packument) {
  const t = trimPackument(doc);
  const prev = out[doc.name] as { versions: object } | undefined;
  if (!prev || Object.keys(prev.versions).length <= Object.keys(t.versions).length) out[doc.name] = t;
}

/**
 * Loopback registry for add mode: packages in `recorded` are served as recorded (each version
 * with its name, version and a tarball URL), anything else is fetched from the npm registry with
 * the client's Accept header, passed through, and kept (trimmed) in `fetched`.
 */
async function snapshotRegistry(recorded: Record<string, Trimmed>) {
  const fetched: Record<string, unknown> = {};
  const server = createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? '/').split('?')[0]!;
      const name = decodeURIComponent(path.slice(1));
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const doc = path.includes('/-/') ? undefined : recorded[name];
      if (doc) {
        const versions = Object.fromEntries(
          Object.entries(doc.versions).map(([v, m]) => [
            v,
            {
              name,
              version: v,
              ...m,
              dist: { tarball: `${base}/${name}/-/${name.replace(/^@[^/]+\//, '')}-${v}.tgz` },
            },
          ]),
        );
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ name, 'dist-tags': doc['dist-tags'], versions }));
        return;
      }
      const up = await fetch(UPSTREAM + path, {
        headers: { accept: String(req.headers.accept ?? 'application/json') },
      });
      const body = Buffer.from(await up.arrayBuffer());
      if (up.ok && !path.includes('/-/')) {
        const d = JSON.parse(body.toString('utf8'));
        if (d.versions && d.name) keepPackument(fetched, d);
      }
      res.writeHead(up.status, { 'content-type': up.headers.get('content-type') ?? 'application/json' });
      res.end(body);
    })().catch((e: Error) => {
      res.writeHead(502);
      res.end(e.message);
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    fetched,
    close: () => new Promise((ok) => server.close(ok)),
  };
}

/** Records the CORPUS_ROOTS missing from roots.json against the recorded snapshot (see the header). */
async function addRoots() {
  const meta = JSON.parse(await readFile(join(OUT, 'roots.json'), 'utf8'));
  const packuments = JSON.parse(gunzipSync(await readFile(join(OUT, 'packuments.json.gz'))).toString('utf8'));
  const lockfiles = JSON.parse(gunzipSync(await readFile(join(OUT, 'lockfiles.json.gz'))).toString('utf8'));
  const have = new Set(meta.roots.map((r: { manifest: { name: string } }) => r.manifest.name));
  const add = CORPUS_ROOTS.filter((r) => !have.has(r));
  const { npm: npmV, node: nodeV } = JSON.parse((await run('npm', ['version', '--json'], { cwd: tmpdir() })).stdout);
  if (npmV !== meta.npmVersion || `v${nodeV}` !== meta.nodeVersion) {
    throw new Error(
      `npm ${npmV} on node ${nodeV}: the corpus was recorded with npm ${meta.npmVersion} on node ${meta.nodeVersion}`,
    );
  }
  if (!process.argv.slice(2).some((a) => !a.startsWith('--')))
    CACHE = await mkdtemp(join(tmpdir(), 'npm-corpus-cache-'));
  const registry = await snapshotRegistry(packuments);
  NPM_EXTRA.push('--registry', registry.url);
  for (const spec of add) {
    const r = await recordRoot(spec);
    meta.roots.push({ manifest: r.manifest, npmColdMs: Math.round(r.npmMs), recordedAt: new Date().toISOString() });
    lockfiles[spec] = r.packages;
  }
  await registry.close();
  for (const name of Object.keys(registry.fetched).sort())
    if (!packuments[name]) packuments[name] = registry.fetched[name];
  await writeFile(join(OUT, 'roots.json'), `${JSON.stringify(meta, null, 1)}\n`);
  await writeFile(join(OUT, 'lockfiles.json.gz'), gzipSync(JSON.stringify(lockfiles), { level: 9 }));
  await writeFile(join(OUT, 'packuments.json.gz'), gzipSync(JSON.stringify(packuments), { level: 9 }));
  console.log(
    `added ${add.join(', ') || 'nothing'}: ${meta.roots.length} roots, ${Object.keys(packuments).length} packuments`,
  );
}

async function main() {
  await mkdir(OUT, { recursive: true });
  const results: Record<string, Awaited<ReturnType<typeof recordRoot>>> = {};
  const queue = [...CORPUS_ROOTS];
  await Promise.all(
    [0, 1, 2, 3].map(async () => {
      for (let spec = queue.shift(); spec; spec = queue.shift()) {
        try {
          results[spec] = await recordRoot(spec);
        } catch (e) {
          console.error(`${spec}: ${(e as Error).message}`);
        }
      }
    }),
  );
  const roots = CORPUS_ROOTS.filter((r) => results[r]).map((r) => ({
    manifest: results[r]!.manifest,
    npmColdMs: Math.round(results[r]!.npmMs),
  }));
  const lockfiles = Object.fromEntries(CORPUS_ROOTS.filter((r) => results[r]).map((r) => [r, results[r]!.packages]));
  const packuments = await readPackuments();
  const { stdout: npmVersion } = await run('npm', ['--version']);
  await writeFile(
    join(OUT, 'roots.json'),
    `${JSON.stringify({ npmVersion: npmVersion.trim(), nodeVersion: process.version, recordedAt: new Date().toISOString(), roots }, null, 1)}\n`,
  );
  await writeFile(join(OUT, 'lockfiles.json.gz'), gzipSync(JSON.stringify(lockfiles), { level: 9 }));
  await writeFile(join(OUT, 'packuments.json.gz'), gzipSync(JSON.stringify(packuments), { level: 9 }));
  console.log(`${roots.length} roots, ${Object.keys(packuments).length} packuments`);
}

if (import.meta.url === `file://${process.argv[1]}`) await (ADD ? addRoots() : main());
