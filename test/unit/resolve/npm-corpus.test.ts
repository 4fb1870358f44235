import { describe, expect, test } from 'vitest';
import { buildNpmTree, optionalFailures, treeInventory } from '../../../src/resolve/npm.ts';
import { nodePath } from '../../../src/resolve/npm-tree.ts';
import { DEFAULT_NPM_ENV } from '../../../src/resolve/npm-pick.ts';
import { loadCorpus, lockDropped } from '../../../tools/universes/npm-corpus.ts';

// Real packages recorded with npm's own client; the expected tree is npm's own lockfile from
// `npm install --package-lock-only --ignore-scripts` for the same root manifest.
const { meta, client, lockfiles } = loadCorpus();
const env = { ...DEFAULT_NPM_ENV, nodeVersion: meta.nodeVersion.replace(/^v/, ''), npmVersion: meta.npmVersion };

describe('npm corpus: tree equals npm lockfile', () => {
  test('corpus has at least 30 roots', () => expect(meta.roots.length).toBeGreaterThanOrEqual(30));
  test.each(meta.roots.map((r) => [`${r.manifest.name}@${r.manifest.version}`, r] as const))('%s', async (_n, r) => {
    const key = Object.keys(lockfiles).find((k) => k === r.manifest.name)!;
    const lock = lockfiles[key]!;
    // the recorded root manifest is the root version's own manifest in the packument
    const root = await buildNpmTree(client, r.manifest.name, r.manifest.version, env);
    const got = treeInventory(root!)
      .map((n) => `${nodePath(n)} ${n.pkg}@${n.version}`)
      .sort();
    const want = Object.entries(lock)
      .filter(([, e]) => !e.inBundle)
      .map(([p, e]) => `${p} ${e.name ?? p.slice(p.lastIndexOf('node_modules/') + 13)}@${e.version}`)
      .sort();
    expect(got).toEqual(want);
    // installed tree = lockfile minus the optional sets npm drops (see lockDropped)
    const dropped = [...optionalFailures(root!, env)].map((n) => nodePath(n)).sort();
    expect(dropped).toEqual(await lockDropped(client, env, lock, r.manifest.name, r.manifest.version));
  });
});

describe('npm corpus: libc', () => {
  test('optional builds for musl are in the lockfile but not installed on linux x64 glibc', async () => {
    const musl: string[] = [];
    for (const r of meta.roots) {
      const lock = lockfiles[r.manifest.name]!;
      const dropped = new Set(await lockDropped(client, env, lock, r.manifest.name, r.manifest.version));
      for (const [p, e] of Object.entries(lock)) {
        if (!e.libc?.includes('musl')) continue;
        musl.push(p);
        expect(dropped.has(p), `${r.manifest.name}: ${p}`).toBe(true);
      }
      const root = await buildNpmTree(client, r.manifest.name, r.manifest.version, env);
      const failing = new Set([...optionalFailures(root!, env)].map((n) => nodePath(n)));
      for (const n of treeInventory(root!)) {
        const info = (await client.versions(n.pkg)).find((v) => v.version === n.version);
        if (info?.attrs.libc === 'musl') expect(failing.has(nodePath(n)), nodePath(n)).toBe(true);
      }
    }
    expect(musl.length).toBeGreaterThan(0);
  });
});
