/**
 * npm itself as the oracle of the npm differential comparison: a universe's packuments served on
 * loopback, `npm install --package-lock-only --ignore-scripts` for an empty project that depends on
 * `root@version` (how a user installs a package), private cache; the lockfile's packages, or npm's
 * error. Then `lockSets` reads it as `name@version` nodes and `a@1 -> b@2` edges, node's module
 * lookup from each folder (tools/universes/npm-corpus.ts `lockResolve`).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { MemoryClient } from '../../src/resolve/memory-client.ts';
import { packumentRows, type Packument } from '../../src/resolve/npm-packument.ts';
import { buildEdges } from '../../src/resolve/npm-tree.ts';
import { lockResolve, type LockEntry } from '../universes/npm-corpus.ts';

const run = promisify(execFile);

export type NpmAnswer =
  | { ok: true; lock: Record<string, LockEntry> }
  | {
      ok: false;
      error: string /** npm itself broke: it threw a JavaScript error or did not finish */;
      crashed: boolean;
    };

/** npm's lockfile for `root@version` in an empty project, with `registry` serving the packuments. */
export async function npmInstallLock(registry: string, root: string, version: string): Promise<NpmAnswer> {
  const dir = await mkdtemp(join(tmpdir(), 'npm-oracle-'));
  try {
    await writeFile(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'differential-project', version: '0.0.0', dependencies: { [root]: version } }),
    );
    const args = ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'];
    args.push(`--registry=${registry}/`, `--cache=${join(dir, '.cache')}`, '--loglevel=error');
    try {
      await run('npm', args, { cwd: dir, timeout: 300_000 });
    } catch (e) {
      const err = e as { stderr?: string; message: string; killed?: boolean };
      const error = (err.stderr || err.message).split('\n').slice(0, 3).join(' ');
      const crashed = err.killed === true || /TypeError|Cannot read properties|Maximum call stack/.test(error);
      return { ok: false, error: err.killed ? `npm did not finish in 300 s: ${error}` : error, crashed };
    }
    const lock = JSON.parse(await readFile(join(dir, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, LockEntry>;
    };
    const { '': _project, ...packages } = lock.packages;
    return { ok: true, lock: packages };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The installed packages and package-to-package edges of a lockfile (the project itself left out). */
export async function lockSets(
  packuments: Readonly<Record<string, Packument>>,
  lock: Record<string, LockEntry>,
): Promise<{ nodes: string[]; edges: string[] }> {
  const client = new MemoryClient();
  for (const p of Object.values(packuments)) for (const r of packumentRows(p)) client.addVersion(r.info, r.deps);
  const name = (p: string) => lock[p]!.name ?? p.slice(p.lastIndexOf('node_modules/') + 13);
  const id = (p: string) => `${name(p)}@${lock[p]!.version}`;
  const copies = Object.keys(lock).filter((p) => !lock[p]!.link); // a link is the folder it points to
  const nodes = new Set(copies.map(id));
  const edges = new Set<string>();
  for (const p of copies) {
    for (const e of buildEdges((await client.requirements(name(p), lock[p]!.version)) ?? []).values()) {
      const t = lockResolve(lock, p, e.name);
      if (t) edges.add(`${id(p)} -> ${id(t)}`);
    }
  }
  return { nodes: [...nodes].sort(), edges: [...edges].sort() };
}

/**
 * The dependencies npm's lockfile leaves unmet: a regular (not optional, not peer) dependency of a
 * locked package that node's lookup finds nowhere, or the project's own on `root`. Such a lockfile is
 * not a tree npm could install (`npm ls` reports it missing).
 */
export async function lockMissing(
  packuments: Readonly<Record<string, Packument>>,
  lock: Record<string, LockEntry>,
  root: string,
): Promise<string[]> {
  const client = new MemoryClient();
  for (const p of Object.values(packuments)) for (const r of packumentRows(p)) client.addVersion(r.info, r.deps);
  const missing = lock[`node_modules/${root}`] ? [] : [`the project's ${root}`];
  for (const p of Object.keys(lock)) {
    if (lock[p]!.link) continue;
    const name = lock[p]!.name ?? p.slice(p.lastIndexOf('node_modules/') + 13);
    for (const e of buildEdges((await client.requirements(name, lock[p]!.version)) ?? []).values()) {
      if (e.type === 'prod' && !lockResolve(lock, p, e.name)) missing.push(`${name}@${lock[p]!.version}'s ${e.name}`);
    }
  }
  return missing;
}
