import { describe, expect, test } from 'vitest';
import { MemoryClient } from '../../../src/resolve/memory-client.ts';
import { bundleFolders, bundleRows, type BundledManifest } from '../../../src/resolve/npm-bundle.ts';
import { resolveNpm } from '../../../src/resolve/npm.ts';
import type { Dependency } from '../../../src/resolve/types.ts';
import { render } from './resolvetest.ts';

const dep = (name: string, requirement: string, attrs: Record<string, string> = {}): Dependency => ({
  name,
  requirement,
  attrs,
});
const manifest = (path: string, name: string, version: string, deps: Dependency[] = []): BundledManifest => ({
  path,
  name,
  version,
  deps,
});

describe('bundleFolders', () => {
  test.each([
    ['node_modules/a', ['a']],
    ['node_modules/a/node_modules/@s/b', ['a', '@s/b']],
    ['node_modules/@s/b/node_modules/c/node_modules/d', ['@s/b', 'c', 'd']],
    ['lib/node_modules/a', null],
    ['node_modules/a/lib', null],
    ['node_modules/a>b', null],
    ['node_modules/', null],
  ] as const)('%s', (path, want) => expect(bundleFolders(path)).toEqual(want));
});

describe('bundleRows (GetRequirements npm.bundled[] -> mangled packages)', () => {
  test('nested and scoped folders hang under their parent folder; orphans and duplicates are left out', () => {
    const got = bundleRows('app', '1.0.0', [
      manifest('node_modules/a/node_modules/b', 'b', '2.0.0', [dep('c', '^1')]),
      manifest('node_modules/@s/x', '@s/x', '0.1.0'),
      manifest('node_modules/a', 'a', '1.0.0', [dep('b', '^2')]),
      manifest('node_modules/a', 'a', '9.9.9'),
      manifest('node_modules/gone/node_modules/y', 'y', '1.0.0'),
      manifest('node_modules/alias', 'real', '3.0.0'),
      manifest('node_modules/nover', 'nover', ''),
    ]);
    expect(got.content).toEqual([
      dep('app>1.0.0>@s/x', '0.1.0'),
      dep('app>1.0.0>a', '1.0.0'),
      dep('app>1.0.0>alias', '3.0.0'),
    ]);
    expect(got.rows).toEqual([
      { info: { name: 'app>1.0.0>@s/x', version: '0.1.0', attrs: { derivedfrom: '@s/x' } }, deps: [] },
      {
        info: { name: 'app>1.0.0>a', version: '1.0.0', attrs: { derivedfrom: 'a' } },
        deps: [dep('b', '^2'), dep('app>1.0.0>a>b', '2.0.0')],
      },
      { info: { name: 'app>1.0.0>alias', version: '3.0.0', attrs: { derivedfrom: 'real' } }, deps: [] },
      { info: { name: 'app>1.0.0>a>b', version: '2.0.0', attrs: { derivedfrom: 'b' } }, deps: [dep('c', '^1')] },
    ]);
  });
});

// A universe where `lib` (used by the root, not itself the root) bundles folders; the expected
// trees follow the rules in npm-tree.ts's header.
function universe(
  libDeps: Dependency[],
  bundled: BundledManifest[],
  extra: (c: MemoryClient) => void = () => {},
): MemoryClient {
  const c = new MemoryClient();
  c.addVersion({ name: 'root', version: '1.0.0', attrs: {} }, [dep('lib', '^1'), dep('x', '^1')]);
  const b = bundleRows('lib', '1.0.0', bundled);
  c.addVersion({ name: 'lib', version: '1.0.0', attrs: {} }, [...libDeps, ...b.content]);
  for (const r of b.rows) c.addVersion(r.info, r.deps);
  for (const v of ['1.0.0', '1.5.0']) c.addVersion({ name: 'x', version: v, attrs: {} }, []);
  c.addVersion({ name: 'y', version: '1.0.0', attrs: {} }, [dep('x', '^1')]);
  extra(c);
  return c;
}

describe('npm resolution with bundles', () => {
  test.each([
    {
      name: 'a bundled copy stays in its bundle although the root could take it, and is not deduplicated with the root copy',
      client: universe(
        [dep('x', '^1'), dep('x', '*', { scope: 'bundle' })],
        [manifest('node_modules/x', 'x', '1.0.0')],
      ),
      want: [
        'node 0 root 1.0.0',
        'node 1 lib 1.0.0',
        'node 2 lib>1.0.0>x 1.0.0 bundled',
        'node 3 x 1.5.0',
        'edge 0 -> 1 "^1"',
        'edge 0 -> 3 "^1"',
        'edge 1 -> 2 "^1"',
      ],
    },
    {
      name: 'an unmet dependency of a bundled copy is installed from the registry and hoisted',
      client: universe(
        [dep('y', '^1'), dep('y', '*', { scope: 'bundle' })],
        [manifest('node_modules/y', 'y', '1.0.0', [dep('z', '^2')])],
        (c) => c.addVersion({ name: 'z', version: '2.1.0', attrs: {} }, []),
      ),
      want: [
        'node 0 root 1.0.0',
        'node 1 lib 1.0.0',
        'node 2 lib>1.0.0>y 1.0.0 bundled',
        'node 3 x 1.5.0',
        'node 4 z 2.1.0',
        'edge 0 -> 1 "^1"',
        'edge 0 -> 3 "^1"',
        'edge 1 -> 2 "^1"',
        'edge 2 -> 4 "^2"',
      ],
    },
    {
      name: 'a bundleDependencies name without a folder in the tarball is installed from the registry',
      client: universe([dep('y', '^1'), dep('y', '*', { scope: 'bundle' })], []),
      want: [
        'node 0 root 1.0.0',
        'node 1 lib 1.0.0',
        'node 2 x 1.5.0',
        'node 3 y 1.0.0',
        'edge 0 -> 1 "^1"',
        'edge 0 -> 2 "^1"',
        'edge 1 -> 3 "^1"',
        'edge 3 -> 2 "^1"',
      ],
    },
    {
      name: 'a nested bundled folder serves its parent; a folder nothing uses is the graph error',
      client: universe(
        [dep('y', '^1')],
        [
          manifest('node_modules/y', 'y', '1.0.0', [dep('x', '~1.0.0')]),
          manifest('node_modules/y/node_modules/x', 'x', '1.0.0'),
          manifest('node_modules/@s/unused', '@s/unused', '0.0.1'),
        ],
      ),
      want: [
        'node 0 root 1.0.0',
        'node 1 lib 1.0.0',
        'node 2 lib>1.0.0>y 1.0.0 bundled',
        'node 3 lib>1.0.0>y>x 1.0.0 bundled',
        'node 4 x 1.5.0',
        'edge 0 -> 1 "^1"',
        'edge 0 -> 4 "^1"',
        'edge 1 -> 2 "^1"',
        'edge 2 -> 3 "~1.0.0"',
        'error unused bundled version @s/unused 0.0.1',
      ],
    },
  ])('$name', async ({ client, want }) => {
    expect(render(await resolveNpm(client, 'root', '1.0.0'))).toEqual(want);
  });
});
