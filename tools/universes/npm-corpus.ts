/** Loads the recorded npm corpus (tools/record-npm-corpus.ts) into a MemoryClient. */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { MemoryClient } from '../../src/resolve/memory-client.ts';
import { engineOk, platformOk, type NpmEnv } from '../../src/resolve/npm-pick.ts';
import { buildEdges } from '../../src/resolve/npm-tree.ts';
import type { Client } from '../../src/resolve/types.ts';
import { packumentRows, type Packument } from '../../src/resolve/npm-packument.ts';

export const CORPUS_DIR = new URL('./npm-corpus/', import.meta.url).pathname;

export interface CorpusRoot {
  manifest: { name: string; version: string } & Record<string, unknown>;
  npmColdMs: number;
}
export interface LockEntry {
  version: string;
  name?: string;
  optional?: boolean;
  peer?: boolean;
  dev?: boolean;
  inBundle?: boolean;
  os?: string[];
  cpu?: string[];
  libc?: string[];
  engines?: Record<string, string>;
  /** a symbolic link npm placed to end a nesting loop: `resolved` is the folder it points to */
  link?: boolean;
  resolved?: string;
}

export function loadCorpus() {
  const meta = JSON.parse(readFileSync(`${CORPUS_DIR}roots.json`, 'utf8')) as {
    npmVersion: string;
    nodeVersion: string;
    roots: CorpusRoot[];
  };
  const packuments = JSON.parse(gunzipSync(readFileSync(`${CORPUS_DIR}packuments.json.gz`)).toString('utf8')) as Record<
    string,
    Packument
  >;
  const lockfiles = JSON.parse(gunzipSync(readFileSync(`${CORPUS_DIR}lockfiles.json.gz`)).toString('utf8')) as Record<
    string,
    Record<string, LockEntry>
  >;
  const client = new MemoryClient();
  for (const p of Object.values(packuments)) for (const r of packumentRows(p)) client.addVersion(r.info, r.deps);
  for (const r of meta.roots) rootAsInstalled(lockfiles[r.manifest.name]!, r.manifest.name, r.manifest.version);
  return { meta, client, lockfiles, packuments };
}

/**
 * The lockfiles were recorded with the root manifest as the project, where npm installs a package
 * that peer-depends on the root as a copy `node_modules/<root>` (the project's own name does not
 * count). The resolver installs the root as `npm install root@version` does, in that very folder, so
 * such a copy of the root's own version with nothing nested in it is the root itself: it is dropped.
 */
function rootAsInstalled(lock: Record<string, LockEntry>, name: string, version: string): void {
  const at = `node_modules/${name}`;
  if (lock[at]?.version !== version || Object.keys(lock).some((p) => p.startsWith(`${at}/`))) return;
  delete lock[at];
}

const folder = (p: string) => p.slice(p.lastIndexOf('node_modules/') + 13);

/**
 * The lockfile path a dependency `dep` of the package at `from` resolves to (node's lookup upwards;
 * a link, the folder it points to), or null.
 */
export function lockResolve(lock: Record<string, LockEntry>, from: string, dep: string): string | null {
  for (let base = from; ; base = base.slice(0, Math.max(0, base.lastIndexOf('/node_modules/')))) {
    const at = `${base ? `${base}/` : ''}node_modules/${dep}`;
    if (lock[at] && !lock[at]!.inBundle) return lock[at]!.link ? lock[at]!.resolved! : at;
    if (!base) return null;
  }
}

/**
 * The recorded (trimmed) packuments as a registry must serve them to npm itself: every version with
 * its name, version and a tarball address (never read: the oracle runs with --package-lock-only).
 */
export function servablePackuments(packuments: Readonly<Record<string, Packument>>): Record<string, object> {
  const out: Record<string, object> = {};
  for (const [name, doc] of Object.entries(packuments)) {
    const versions = Object.fromEntries(
      Object.entries(doc.versions).map(([v, m]) => [
        v,
        {
          name,
          version: v,
          ...m,
          dist: { tarball: `http://127.0.0.1:9/${name}/-/${name.replace(/^@[^/]+\//, '')}-${v}.tgz` },
        },
      ]),
    );
    out[name] = { name, 'dist-tags': doc['dist-tags'], versions };
  }
  return out;
}

/** A lockfile entry as a resolver VersionInfo (name, version, os/cpu/engines attrs). */
export function lockInfo(p: string, e: LockEntry) {
  return {
    name: e.name ?? folder(p),
    version: e.version,
    attrs: {
      ...(e.os ? { os: e.os.join(',') } : {}),
      ...(e.cpu ? { cpu: e.cpu.join(',') } : {}),
      ...(e.libc ? { libc: e.libc.join(',') } : {}),
      ...(e.engines ? { engines: JSON.stringify(e.engines) } : {}),
    },
  };
}
const info = lockInfo;

/**
 * What npm installs for a root, from its own lockfile: the packages (`name@version`, bundled copies
 * left out) and the package-to-package edges (`a@1 -> b@2`) of the tree left after the optional
 * sets npm drops (lockDropped). `root` is the root's lockfile path: '' when the root was the project,
 * `node_modules/<name>` for the lockfile of `npm install <name>@<version>` in an empty project.
 */
export async function lockInstalled(
  client: Client,
  env: NpmEnv,
  lock: Record<string, LockEntry>,
  name: string,
  version: string,
  root = '',
) {
  const dropped = new Set(await lockDropped(client, env, lock, name, version, root));
  const id = (p: string) => (p === '' ? `${name}@${version}` : `${info(p, lock[p]!).name}@${lock[p]!.version}`);
  const others = Object.keys(lock).filter(
    (p) => p !== '' && p !== root && !lock[p]!.inBundle && !lock[p]!.link && !dropped.has(p),
  );
  const paths = [root, ...others];
  const nodes = new Set(paths.map(id));
  const edges = new Set<string>();
  for (const p of paths) {
    const i = p === '' ? { name, version } : info(p, lock[p]!);
    for (const e of buildEdges((await client.requirements(i.name, i.version)) ?? []).values()) {
      const t = lockResolve(lock, p, e.name) ?? (e.name === name ? '' : null); // the root's own folder
      if (t !== null && !dropped.has(t)) edges.add(`${id(p)} -> ${id(t)}`);
    }
  }
  return { nodes: [...nodes].sort(), edges: [...edges].sort() };
}

// What `npm install` removes from npm's own lockfile tree (reify's optional-set rule,
// arborist optional-set.js): optional entries whose os/cpu/engines fail linux/x64/node, then every
// entry that the root no longer reaches through the dependencies (packuments) of what is left,
// resolved by walking up the lockfile's node_modules paths.
export async function lockDropped(
  client: Client,
  env: NpmEnv,
  lock: Record<string, LockEntry>,
  name: string,
  version: string,
  root = '',
): Promise<string[]> {
  const resolve = (from: string, dep: string) => lockResolve(lock, from, dep) ?? (dep === name ? '' : null);
  const failing = new Set(
    Object.entries(lock)
      .filter(([p, e]) => p !== '' && e.optional && !(platformOk(info(p, e), env) && engineOk(info(p, e), env)))
      .map(([p]) => p),
  );
  const reached = new Set<string>([root]);
  for (const q = [root]; q.length > 0; ) {
    const p = q.shift()!;
    const i = p === '' ? { name, version } : info(p, lock[p]!);
    for (const e of buildEdges((await client.requirements(i.name, i.version)) ?? []).values()) {
      const t = resolve(p, e.name);
      if (t && !failing.has(t) && !reached.has(t)) {
        reached.add(t);
        q.push(t);
      }
    }
  }
  return Object.keys(lock)
    .filter((p) => p !== '' && !lock[p]!.inBundle && !lock[p]!.link && !reached.has(p))
    .sort();
}
