import { describe, expect, test } from 'vitest';
import { resolvePypi } from '../../../src/resolve/pypi.ts';
import { pipClient, type PipUniverse } from '../../../tools/registries/pip-index.ts';

// What `resolvelib: '1.0'` (the endpoint's PyPI resolver) follows of today's pip: pip 24.2's
// preference, resolvelib 1.0.1's rounds and backjumping, and pip >= 23.3's split of a requirement
// with extras. Each universe's expected set is what pip 24.2 (CPython 3.13) installs for root==1.0.0
// (`pip install --dry-run --report` over it as a simple index, tools/registries/pip-index.ts); the
// order of pip 21.1.3 (the default, deps.dev's vectors) gives another answer on each.
const CASES: { name: string; u: PipUniverse; pip: string[]; pip21?: string[] }[] = [
  {
    // pip 24.2 pins b (depth 2) before c (depth 3); pip 21.1.3 takes c first (a specifier beats a
    // bare requirement), pins c 2.0 and d 2.0, and then has to drop b to 1.0
    name: 'a shallower requirement is pinned before a deeper one with a specifier',
    u: {
      root: {
        '1.0.0': {
          deps: [
            ['a', ''],
            ['b', ''],
          ],
        },
      },
      a: { '1.0': {}, '2.0': { deps: [['c', '>=1']] } },
      b: { '1.0': {}, '2.0': { deps: [['d', '<2']] } },
      c: { '1.5': {}, '2.0': { deps: [['d', '>=2']] } },
      d: { '1.0': {}, '2.0': {} },
    },
    pip: ['a@2.0', 'b@2.0', 'c@1.5', 'd@1.0', 'root@1.0.0'],
    pip21: ['a@2.0', 'b@1.0', 'c@2.0', 'd@2.0', 'root@1.0.0'],
  },
  {
    // b's `a[cli]!=2.0` is also `a!=2.0` (pip >= 23.3), so a is pinned at 1.0 at once; had a been
    // pinned at 2.0 first, its `c==2.0` would have pinned c 2.0 before a[cli] moved a to 1.0
    name: 'a requirement with extras and a specifier constrains the project itself',
    u: {
      root: {
        '1.0.0': {
          deps: [
            ['b', '==1.0'],
            ['a', '>=1'],
            ['c', ''],
          ],
        },
      },
      b: { '1.0': { deps: [['a', '!=2.0', { extras: 'cli' }]] } },
      a: { '1.0': { extras: ['cli'] }, '2.0': { extras: ['cli'], deps: [['c', '==2.0']] } },
      c: { '1.0': {}, '2.0': {}, '3.0': {} },
    },
    pip: ['a@1.0', 'b@1.0', 'c@3.0', 'root@1.0.0'],
  },
];

const installs = (g: Awaited<ReturnType<typeof resolvePypi>>) =>
  g.error !== '' ? g.error : g.nodes.map((n) => `${n.name}@${n.version}`).sort();

describe("PyPI resolution as today's pip (resolvelib 1.0.1, pip 24.2's preference)", () => {
  test.each(CASES.map((c) => [c.name, c] as const))('%s', async (_n, c) => {
    expect(installs(await resolvePypi(pipClient(c.u), 'root', '1.0.0', { resolvelib: '1.0' }))).toEqual(c.pip);
    if (c.pip21) expect(installs(await resolvePypi(pipClient(c.u), 'root', '1.0.0'))).toEqual(c.pip21);
  });
});
