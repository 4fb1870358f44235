import { describe, expect, test } from 'vitest';
import { MemoryClient } from '../../../src/resolve/memory-client.ts';
import { packumentRows, type PackumentVersion } from '../../../src/resolve/npm-packument.ts';
import { DEFAULT_NPM_ENV } from '../../../src/resolve/npm-pick.ts';
import { nodePath } from '../../../src/resolve/npm-tree.ts';
import { buildNpmTree, resolveNpm, treeInventory } from '../../../src/resolve/npm.ts';

// Peer-set placement against npm itself: each universe was served to npm 11.19.1 by a loopback
// registry and `npm install --package-lock-only` run for a project with `root`'s dependencies; `npm`
// is its lockfile, each entry as `folder/folder version` (node_modules/ left out). `latest` is the
// highest version unless `tags` says otherwise; dependencies are declared in the order written.
// Every case but the control (a copy another dependent needs stays) differed before the rule its
// title names was modelled (docs/resolve.md, npm, "Peer sets").
interface Universe {
  title: string;
  root: Record<string, string>;
  pkgs: Record<string, { deps?: Record<string, string>; peers?: Record<string, string>; optionalPeers?: string[] }>;
  tags?: Record<string, string>;
  npm: string[];
}

const UNIVERSES: Universe[] = [
  {
    title: "a peer's older version replaces a newer copy above it when every dependent of that copy accepts it",
    root: { p: '*', y: '1' },
    pkgs: {
      'p@1.0.0': {},
      'p@2.0.0': {},
      'y@1.0.0': { deps: { z: '1' } },
      'z@1.0.0': { peers: { p: '^1' } },
    },
    npm: ['p 1.0.0', 'y 1.0.0', 'z 1.0.0'],
  },
  {
    title: 'the same for an optional peer',
    root: { p: '*', y: '1' },
    pkgs: {
      'p@1.0.0': {},
      'p@2.0.0': {},
      'y@1.0.0': { deps: { z: '1' } },
      'z@1.0.0': { peers: { p: '^1' }, optionalPeers: ['p'] },
    },
    npm: ['p 1.0.0', 'y 1.0.0', 'z 1.0.0'],
  },
  {
    title: 'the same for a peer of a peer',
    root: { p: '*', y: '1' },
    pkgs: {
      'p@1.0.0': {},
      'p@2.0.0': {},
      'w@1.0.0': { peers: { p: '^1' } },
      'y@1.0.0': { deps: { z: '1' } },
      'z@1.0.0': { peers: { w: '1' } },
    },
    npm: ['p 1.0.0', 'w 1.0.0', 'y 1.0.0', 'z 1.0.0'],
  },
  {
    title: 'the same when the newer copy was hoisted from deeper',
    root: { b: '1', y: '1' },
    pkgs: {
      'b@1.0.0': { deps: { p: '*' } },
      'p@1.0.0': {},
      'p@2.0.0': {},
      'x@1.0.0': { deps: { z: '1' } },
      'y@1.0.0': { deps: { x: '1' } },
      'z@1.0.0': { peers: { p: '^1' } },
    },
    npm: ['b 1.0.0', 'p 1.0.0', 'x 1.0.0', 'y 1.0.0', 'z 1.0.0'],
  },
  {
    title: 'a newer copy that another dependent needs stays; the peer set nests',
    root: { a: '1', y: '1' },
    pkgs: {
      'a@1.0.0': { deps: { p: '^2' } },
      'p@1.0.0': {},
      'p@2.0.0': {},
      'y@1.0.0': { deps: { z: '1' } },
      'z@1.0.0': { peers: { p: '^1' } },
    },
    npm: ['a 1.0.0', 'p 2.0.0', 'y 1.0.0', 'y/p 1.0.0', 'y/z 1.0.0'],
  },
  {
    title: 'what only the replaced copy needed goes with it',
    root: { p: '*', y: '1' },
    pkgs: {
      'p@1.0.0': {},
      'p@2.0.0': { deps: { q: '1' } },
      'q@1.0.0': { deps: { r: '1' } },
      'r@1.0.0': {},
      'y@1.0.0': { deps: { z: '1' } },
      'z@1.0.0': { peers: { p: '^1' } },
    },
    npm: ['p 1.0.0', 'y 1.0.0', 'z 1.0.0'],
  },
  {
    title: 'an ordinary replacement removes what only the old copy needed',
    root: { a: '1', c: '1' },
    pkgs: {
      'a@1.0.0': { deps: { b: '*' } },
      'b@1.0.0': { deps: { q: '1' } },
      'b@1.1.0': {},
      'c@1.0.0': { deps: { d: '1' } },
      'd@1.0.0': { deps: { b: '>=1.1.0' } },
      'q@1.0.0': { deps: { r: '1' } },
      'r@1.0.0': {},
    },
    tags: { b: '1.0.0' },
    npm: ['a 1.0.0', 'b 1.1.0', 'c 1.0.0', 'd 1.0.0'],
  },
  {
    title: 'an ordinary replacement keeps what another copy still needs',
    root: { a: '1', c: '1', s: '1' },
    pkgs: {
      'a@1.0.0': { deps: { b: '*' } },
      'b@1.0.0': { deps: { q: '1' } },
      'b@1.1.0': {},
      'c@1.0.0': { deps: { d: '1' } },
      'd@1.0.0': { deps: { b: '>=1.1.0' } },
      'q@1.0.0': { deps: { r: '1' } },
      'r@1.0.0': {},
      's@1.0.0': { deps: { r: '1' } },
    },
    tags: { b: '1.0.0' },
    npm: ['a 1.0.0', 'b 1.1.0', 'c 1.0.0', 'd 1.0.0', 'r 1.0.0', 's 1.0.0'],
  },
  {
    title:
      "a peer range the dependent's own edge rejects: the dependent's pick joins the set, the peer is placed later where it fits",
    root: { a: '1', y: '1' },
    pkgs: {
      'a@1.0.0': { deps: { p: '^1.0.0', q: '2' } },
      'p@1.0.0': {},
      'p@1.1.0': { peers: { q: '1' } },
      'q@1.0.0': {},
      'q@2.0.0': {},
      'y@1.0.0': { deps: { p: '^1.1.0' } },
    },
    npm: ['a 1.0.0', 'a/q 2.0.0', 'p 1.1.0', 'q 1.0.0', 'y 1.0.0'],
  },
  {
    title:
      "a version a peer range narrowed for one dependency is reused for the dependent's own edge on it (declaration order: z before p)",
    root: { x: '1' },
    pkgs: {
      'p@1.0.0': {},
      'p@2.0.0': {},
      'w@1.0.0': { deps: { p: '^2' } },
      'x@1.0.0': { deps: { z: '1', p: '*', w: '1' } },
      'z@1.0.0': { peers: { p: '^1' } },
    },
    npm: ['p 1.0.0', 'w 1.0.0', 'w/p 2.0.0', 'x 1.0.0', 'z 1.0.0'],
  },
  {
    title: 'an optional peer met by a copy it does not accept is placed once that copy arrives',
    root: { b: '1' },
    pkgs: {
      'b@1.0.0': { deps: { d: '1' }, peers: { f: '^2' }, optionalPeers: ['f'] },
      'd@1.0.0': { deps: { f: '^1' } },
      'f@1.0.0': {},
      'f@2.0.0': {},
    },
    npm: ['b 1.0.0', 'd 1.0.0', 'd/f 1.0.0', 'f 2.0.0'],
  },
  {
    title: 'a peer that fits nowhere for a dependent the root does not own is left unmet',
    root: { a: '1', e: '^2' },
    pkgs: {
      'a@1.0.0': { deps: { d: '1', e: '>=2' } },
      'd@1.0.0': { peers: { e: '^1' } },
      'e@1.0.0': {},
      'e@2.0.0': {},
    },
    npm: ['a 1.0.0', 'd 1.0.0', 'e 2.0.0'],
  },
  {
    title: "every peer edge inside the set is checked: the set nests when a member conflicts for another member's edge",
    root: { g: '^3' },
    pkgs: {
      'a@1.0.0': { peers: { f: '^2', g: '^3' }, optionalPeers: ['f', 'g'] },
      'f@2.0.0': { peers: { g: '^1' } },
      'g@1.0.0': {},
      'g@3.0.0': { deps: { a: '*' } },
    },
    npm: ['g 3.0.0', 'g/a 1.0.0'],
  },
  {
    title: 'a member of the set is not placed for a regular dependency of the same name',
    root: { b: '*' },
    pkgs: {
      'a@2.1.0': { deps: { h: '>=2.0.0' }, peers: { c: '^2.0.0' } },
      'b@1.1.0': { deps: { f: '>=2.0.0' }, peers: { h: '^1.1.0' } },
      'c@2.1.0': { peers: { h: '^1.0.0 || ^2.0.0' } },
      'f@2.1.0': { deps: { a: '>=2.0.0' } },
      'h@1.1.0': {},
      'h@3.0.0': {},
    },
    npm: ['a 2.1.0', 'a/h 3.0.0', 'b 1.1.0', 'c 2.1.0', 'f 2.1.0', 'h 1.1.0'],
  },
  {
    title: "a peer's walk starts above the dependents that also peer on it; where nothing fits it stays unmet",
    root: { d: '2.x', h: '^1.1.0' },
    pkgs: {
      'd@2.1.0': { deps: { f: '^1.0.0' }, peers: { h: '>=1.1.0' } },
      'f@1.1.0': { peers: { h: '>=2.0.0' } },
      'h@1.1.0': {},
      'h@3.0.0': {},
    },
    npm: ['d 2.1.0', 'd/f 1.1.0', 'h 1.1.0'],
  },
];

function client(u: Universe): MemoryClient {
  const docs = new Map<
    string,
    { name: string; 'dist-tags': Record<string, string>; versions: Record<string, PackumentVersion> }
  >();
  const pkgs: Universe['pkgs'] = { ...u.pkgs, 'root@1.0.0': { deps: u.root } };
  for (const [id, m] of Object.entries(pkgs)) {
    const [name, version] = id.split('@') as [string, string];
    const doc = docs.get(name) ?? { name, 'dist-tags': {}, versions: {} };
    docs.set(name, doc);
    doc.versions[version] = {
      ...(m.deps ? { dependencies: m.deps } : {}),
      ...(m.peers ? { peerDependencies: m.peers } : {}),
      ...(m.optionalPeers
        ? { peerDependenciesMeta: Object.fromEntries(m.optionalPeers.map((n) => [n, { optional: true }])) }
        : {}),
    };
    const latest = doc['dist-tags'].latest;
    if (!latest || version.localeCompare(latest, 'en', { numeric: true }) > 0) doc['dist-tags'].latest = version;
  }
  for (const [name, v] of Object.entries(u.tags ?? {})) docs.get(name)!['dist-tags'].latest = v;
  const c = new MemoryClient();
  for (const doc of docs.values()) for (const r of packumentRows(doc)) c.addVersion(r.info, r.deps);
  return c;
}

describe('npm peer sets: the tree equals npm 11 lockfile', () => {
  test.each(UNIVERSES.map((u) => [u.title, u] as const))('%s', async (_t, u) => {
    const root = await buildNpmTree(client(u), 'root', '1.0.0', DEFAULT_NPM_ENV);
    const got = treeInventory(root!).map(
      (n) =>
        `${nodePath(n)
          .replace(/^node_modules\//, '')
          .replaceAll('/node_modules/', '/')} ${n.version}`,
    );
    expect(got.sort()).toEqual([...u.npm].sort());
  });
});

// The root as a user installs it (`npm install root@1.0.0` in an empty project, npm 11.19.1): its
// folder is the top `node_modules/root`, so a package that peer-depends on the root is met by the
// root itself; before, a second copy of root's newest version was placed with its dependencies.
describe('npm: a peer on the root is met by the root', () => {
  test.each([
    ['a peer on any version of the root', '*'],
    ["a peer whose range the root's version meets", '1'],
  ])('%s', async (_t, range) => {
    const u: Universe = {
      title: 'peer on the root',
      root: { p: '1' },
      pkgs: { 'p@1.0.0': { peers: { root: range } }, 'root@2.0.0': { deps: { q: '1' } }, 'q@1.0.0': {} },
      npm: ['p 1.0.0'],
    };
    const root = await buildNpmTree(client(u), 'root', '1.0.0', DEFAULT_NPM_ENV);
    expect(treeInventory(root!).map((n) => `${nodePath(n)} ${n.version}`)).toEqual(['node_modules/p 1.0.0']);
    const g = await resolveNpm(client(u), 'root', '1.0.0');
    const edges = g.edges.map(
      (e) => `${g.nodes[e.from]!.name}@${g.nodes[e.from]!.version} -> ${g.nodes[e.to]!.name}@${g.nodes[e.to]!.version}`,
    );
    expect(g.nodes.length).toBe(2);
    expect(edges.sort()).toEqual(['p@1.0.0 -> root@1.0.0', 'root@1.0.0 -> p@1.0.0']);
  });
});
