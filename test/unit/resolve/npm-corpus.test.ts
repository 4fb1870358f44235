import { describe, expect, test } from 'vitest';
import { buildNpmTree, optionalFailures, treeInventory } from '../../../src/resolve/npm.ts';
import { nodePath } from '../../../src/resolve/npm-tree.ts';
import { DEFAULT_NPM_ENV, engineOk, platformOk } from '../../../src/resolve/npm-pick.ts';
import { buildEdges } from '../../../src/resolve/npm-tree.ts';
import { loadCorpus, type LockEntry } from './npm-corpus.ts';

// Real packages recorded with npm's own client; the expected tree is npm's own lockfile from
// `npm install --package-lock-only --ignore-scripts` for the same root manifest.
const { meta, client, lockfiles } = loadCorpus();
const env = { ...DEFAULT_NPM_ENV, nodeVersion: meta.nodeVersion.replace(/^v/, ''), npmVersion: meta.npmVersion };

// What `npm install` removes from npm's own lockfile tree (reify's optional-set rule,
// arborist optional-set.js): optional entries whose os/cpu/engines fail linux/x64/node, then every
// entry that the root no longer reaches through the dependencies (packuments) of what is left,
// resolved by walking up the lockfile's node_modules paths.
async function lockDropped(lock: Record<string, LockEntry>, name: string, version: string): Promise<string[]> {
  const folder = (p: string) => p.slice(p.lastIndexOf('node_modules/') + 13);
  const resolve = (from: string, dep: string): string | null => {
    for (let base = from; ; base = base.slice(0, Math.max(0, base.lastIndexOf('/node_modules/')))) {
      const at = `${base ? `${base}/` : ''}node_modules/${dep}`;
      if (lock[at] && !lock[at]!.inBundle) return at;
      if (!base) return null;
    }
  };
  const info = (p: string, e: LockEntry) => ({ name: e.name ?? folder(p), version: e.version,
    attrs: { ...(e.os ? { os: e.os.join(',') } : {}), ...(e.cpu ? { cpu: e.cpu.join(',') } : {}), ...(e.engines ? { engines: JSON.stringify(e.engines) } : {}) } });
  const failing = new Set(Object.entries(lock).filter(([p, e]) => p !== '' && e.optional && !(platformOk(info(p, e), env) && engineOk(info(p, e), env))).map(([p]) => p));
  const reached = new Set<string>(['']);
  for (const q = ['']; q.length > 0;) {
    const p = q.shift()!;
    const i = p === '' ? { name, version } : info(p, lock[p]!);
    for (const e of buildEdges((await client.requirements(i.name, i.version)) ?? []).values()) {
      const t = resolve(p, e.name);
      if (t && !failing.has(t) && !reached.has(t)) { reached.add(t); q.push(t); }
    }
  }
  return Object.keys(lock).filter((p) => p !== '' && !lock[p]!.inBundle && !reached.has(p)).sort();
}

describe('npm corpus: tree equals npm lockfile', () => {
  test('corpus has at least 30 roots', () => expect(meta.roots.length).toBeGreaterThanOrEqual(30));
  test.each(meta.roots.map((r) => [`${r.manifest.name}@${r.manifest.version}`, r] as const))('%s', async (_n, r) => {
    const key = Object.keys(lockfiles).find((k) => k === r.manifest.name)!;
    const lock = lockfiles[key]!;
    // the recorded root manifest is the root version's own manifest in the packument
    const root = await buildNpmTree(client, r.manifest.name, r.manifest.version, env);
    const got = treeInventory(root!).map((n) => `${nodePath(n)} ${n.pkg}@${n.version}`).sort();
    const want = Object.entries(lock).filter(([, e]) => !e.inBundle)
      .map(([p, e]) => `${p} ${e.name ?? p.slice(p.lastIndexOf('node_modules/') + 13)}@${e.version}`).sort();
    expect(got).toEqual(want);
    // installed tree = lockfile minus the optional sets npm drops (see lockDropped)
    const dropped = [...optionalFailures(root!, env)].map((n) => nodePath(n)).sort();
    expect(dropped).toEqual(await lockDropped(lock, r.manifest.name, r.manifest.version));
  });
});
