/**
 * Cargo resolution cases: small universes with the graph expected on x86_64-unknown-linux-gnu.
 * Shared by cargo.test.ts (exact graphs) and cargo-lock.test.ts (the same universes through real
 * cargo, compared with Cargo.lock).
 */
import type { CargoOptions } from '../../../src/resolve/cargo.ts';
import type { CargoUniverse } from '../../../tools/universes/cargo-universe.ts';

// Expected graphs are written from Cargo's documented behaviour (The Cargo Book: "Dependency
// Resolution", "Features", "Specifying Dependencies"); root is always `root 1.0.0`.
export interface CargoCase {
  name: string;
  u: CargoUniverse;
  want: string[];
  opts?: CargoOptions;
}

const leaf = {};
export const CARGO_CASES: CargoCase[] = [
  {
    name: 'highest matching version; caret is the default operator',
    u: {
      root: { '1.0.0': { deps: [['a', '1.2']] } },
      a: { '1.1.0': leaf, '1.2.0': leaf, '1.9.3': leaf, '2.0.0': leaf },
    },
    want: ['root@1.0.0 -> a@1.9.3 1.2'],
  },
  {
    name: 'yanked versions are skipped',
    u: { root: { '1.0.0': { deps: [['a', '^1']] } }, a: { '1.0.0': leaf, '1.1.0': { yanked: true } } },
    want: ['root@1.0.0 -> a@1.0.0 ^1'],
  },
  {
    name: 'build dependencies are kept, dev dependencies are not',
    u: {
      root: {
        '1.0.0': {
          deps: [
            ['a', '^1', { scope: 'build' }],
            ['b', '^1', { scope: 'dev' }],
            ['c', '^1', { dev: '' }],
          ],
        },
      },
      a: { '1.0.0': { deps: [['d', '^1', { scope: 'dev' }]] } },
      b: { '1.0.0': leaf },
      c: { '1.0.0': leaf },
      d: { '1.0.0': leaf },
    },
    want: ['root@1.0.0 -> a@1.0.0 ^1 [scope=build]'],
  },
  {
    name: 'several semver-incompatible versions coexist (majors, 0.x minors, 0.0.x patches)',
    u: {
      root: {
        '1.0.0': {
          deps: [
            ['a', '^1'],
            ['b', '^1'],
            ['c', '^0.1'],
            ['d', '^0.0.1'],
          ],
        },
      },
      a: {
        '1.0.0': {
          deps: [
            ['x', '^1'],
            ['c', '^0.2'],
            ['d', '^0.0.2'],
          ],
        },
      },
      b: { '1.0.0': { deps: [['x', '^2']] } },
      x: { '1.0.0': leaf, '1.5.0': leaf, '2.0.0': leaf, '2.1.0': leaf },
      c: { '0.1.0': leaf, '0.1.4': leaf, '0.2.0': leaf, '0.2.7': leaf },
      d: { '0.0.1': leaf, '0.0.2': leaf },
    },
    want: [
      'root@1.0.0 -> a@1.0.0 ^1',
      'root@1.0.0 -> b@1.0.0 ^1',
      'root@1.0.0 -> c@0.1.4 ^0.1',
      'root@1.0.0 -> d@0.0.1 ^0.0.1',
      'a@1.0.0 -> c@0.2.7 ^0.2',
      'a@1.0.0 -> d@0.0.2 ^0.0.2',
      'a@1.0.0 -> x@1.5.0 ^1',
      'b@1.0.0 -> x@2.1.0 ^2',
    ],
  },
  {
    name: 'one version per compatible range: an exact pin elsewhere pulls the caret range down',
    u: {
      root: {
        '1.0.0': {
          deps: [
            ['a', '^1'],
            ['b', '^1'],
          ],
        },
      },
      a: { '1.0.0': { deps: [['c', '^1.0']] } },
      b: { '1.0.0': { deps: [['c', '=1.1.0']] } },
      c: { '1.0.0': leaf, '1.1.0': leaf, '1.2.0': leaf },
    },
    want: [
      'root@1.0.0 -> a@1.0.0 ^1',
      'root@1.0.0 -> b@1.0.0 ^1',
      'a@1.0.0 -> c@1.1.0 ^1.0',
      'b@1.0.0 -> c@1.1.0 =1.1.0',
    ],
  },
  {
    name: 'a range spanning majors takes the highest major even when a lower one is active',
    u: {
      root: {
        '1.0.0': {
          deps: [
            ['a', '=1.0.0'],
            ['c', '>=1.0'],
          ],
        },
      },
      a: { '1.0.0': { deps: [['c', '~1.0']] } },
      c: { '1.0.0': leaf, '1.0.5': leaf, '2.0.0': leaf },
    },
    want: ['root@1.0.0 -> a@1.0.0 =1.0.0', 'root@1.0.0 -> c@2.0.0 >=1.0', 'a@1.0.0 -> c@1.0.5 ~1.0'],
  },
  {
    name: 'backtracking: the newest parent pins a version that conflicts, an older one fits',
    u: {
      root: {
        '1.0.0': {
          deps: [
            ['a', '^1'],
            ['b', '^1'],
          ],
        },
      },
      a: { '1.0.0': { deps: [['c', '^1']] }, '1.1.0': { deps: [['c', '=1.0.0']] } },
      b: { '1.0.0': { deps: [['c', '^1.1']] } },
      c: { '1.0.0': leaf, '1.1.0': leaf },
    },
    want: ['root@1.0.0 -> a@1.0.0 ^1', 'root@1.0.0 -> b@1.0.0 ^1', 'a@1.0.0 -> c@1.1.0 ^1', 'b@1.0.0 -> c@1.1.0 ^1.1'],
  },
  {
    name: 'backtracking away from a parent version whose requirement matches nothing',
    u: {
      root: { '1.0.0': { deps: [['a', '^1']] } },
      a: { '1.0.0': { deps: [['c', '^1']] }, '1.1.0': { deps: [['c', '^9']] } },
      c: { '1.0.0': leaf },
    },
    want: ['root@1.0.0 -> a@1.0.0 ^1', 'a@1.0.0 -> c@1.0.0 ^1'],
  },
  {
    name: 'links: only one package may link a native library',
    u: {
      root: {
        '1.0.0': {
          deps: [
            ['a', '^1'],
            ['b', '^1'],
          ],
        },
      },
      a: { '1.0.0': { links: 'z' } },
      b: { '1.0.0': leaf, '1.1.0': { links: 'z' } },
    },
    want: ['root@1.0.0 -> a@1.0.0 ^1', 'root@1.0.0 -> b@1.0.0 ^1'],
  },
  {
    name: 'unresolvable: exact pins in one compatible range',
    u: {
      root: {
        '1.0.0': {
          deps: [
            ['a', '=1.0.0'],
            ['b', '=1.0.0'],
          ],
        },
      },
      a: { '1.0.0': { deps: [['c', '=1.0.0']] } },
      b: { '1.0.0': { deps: [['c', '=1.1.0']] } },
      c: { '1.0.0': leaf, '1.1.0': leaf },
    },
    want: ['error failed to select a version for the requirement `c = "=1.1.0"`'],
  },
  {
    name: 'a requirement nothing satisfies is a node error when nothing else can be chosen',
    u: {
      root: {
        '1.0.0': {
          deps: [
            ['a', '^1'],
            ['nope', '^1'],
            ['a', 'not a req'],
          ],
        },
      },
      a: { '1.0.0': { deps: [['c', '^2']] } },
      c: { '1.0.0': leaf },
    },
    want: [
      'root@1.0.0 -> a@1.0.0 ^1',
      'root@1.0.0 ERROR a@not a req: no version of a matches "not a req"',
      'root@1.0.0 ERROR nope@^1: no version of nope matches "^1"',
      'a@1.0.0 ERROR c@^2: no version of c matches "^2"',
    ],
  },
  {
    name: 'prereleases only when a comparator names one',
    u: {
      root: {
        '1.0.0': {
          deps: [
            ['a', '^1'],
            ['b', '^2.0.0-beta.1'],
            ['c', '*'],
          ],
        },
      },
      a: { '1.0.0': leaf, '1.1.0-beta.1': leaf },
      b: { '1.0.0': leaf, '2.0.0-beta.1': leaf, '2.0.0-beta.2': leaf },
      c: { '0.9.0': leaf, '1.0.0-rc.1': leaf },
    },
    want: ['root@1.0.0 -> a@1.0.0 ^1', 'root@1.0.0 -> b@2.0.0-beta.2 ^2.0.0-beta.1', 'root@1.0.0 -> c@0.9.0 *'],
  },
  {
    name: 'default features enable optional dependencies (explicit dep: and implicit feature)',
    u: {
      root: {
        '1.0.0': {
          features: { default: ['json', 'tls'], json: ['dep:sj'], yaml: ['dep:sy'] },
          deps: [
            ['sj', '^1', { opt: '' }],
            ['sy', '^1', { opt: '' }],
            ['tls', '^1', { opt: '' }],
            ['zz', '^1', { opt: '' }],
          ],
        },
      },
      sj: { '1.0.0': leaf },
      sy: { '1.0.0': leaf },
      tls: { '1.0.0': leaf },
      zz: { '1.0.0': leaf },
    },
    want: ['root@1.0.0 -> sj@1.0.0 ^1 [opt]', 'root@1.0.0 -> tls@1.0.0 ^1 [opt]'],
  },
  {
    name: 'dep/feature turns on the dependency feature and the optional dependency itself',
    u: {
      root: {
        '1.0.0': {
          features: { default: ['a/extra', 'b/more'] },
          deps: [
            ['a', '^1'],
            ['b', '^1', { opt: '' }],
          ],
        },
      },
      a: { '1.0.0': { features: { extra: ['dep:x'] }, deps: [['x', '^1', { opt: '' }]] } },
      b: { '1.0.0': { features: { more: ['y'] }, deps: [['y', '^1', { opt: '' }]] } },
      x: { '1.0.0': leaf },
      y: { '1.0.0': leaf },
    },
    want: [
      'root@1.0.0 -> a@1.0.0 ^1',
      'root@1.0.0 -> b@1.0.0 ^1 [opt]',
      'a@1.0.0 -> x@1.0.0 ^1 [opt]',
      'b@1.0.0 -> y@1.0.0 ^1 [opt]',
    ],
  },
  {
    name: 'dep?/feature is weak: it does not enable the optional dependency',
    u: {
      root: {
        '1.0.0': {
          features: { default: ['b?/more', 'c?/more', 'c'] },
          deps: [
            ['b', '^1', { opt: '' }],
            ['c', '^1', { opt: '' }],
          ],
        },
      },
      b: { '1.0.0': { features: { more: ['dep:y'] }, deps: [['y', '^1', { opt: '' }]] } },
      c: { '1.0.0': { features: { more: ['dep:y'] }, deps: [['y', '^1', { opt: '' }]] } },
      y: { '1.0.0': leaf },
    },
    want: ['root@1.0.0 -> c@1.0.0 ^1 [opt]', 'c@1.0.0 -> y@1.0.0 ^1 [opt]'],
  },
  {
    name: 'features requested by different dependents are unified',
    u: {
      root: {
        '1.0.0': {
          deps: [
            ['p', '^1'],
            ['q', '^1'],
          ],
        },
      },
      p: { '1.0.0': { deps: [['c', '^1', { features: 'f1' }]] } },
      q: { '1.0.0': { deps: [['c', '^1', { features: 'f2,f3' }]] } },
      c: {
        '1.0.0': {
          features: { f1: ['dep:x'], f2: ['y'], f3: [] },
          deps: [
            ['x', '^1', { opt: '' }],
            ['y', '^1', { opt: '' }],
            ['z', '^1', { opt: '' }],
          ],
        },
      },
      x: { '1.0.0': leaf },
      y: { '1.0.0': leaf },
      z: { '1.0.0': leaf },
    },
    want: [
      'root@1.0.0 -> p@1.0.0 ^1',
      'root@1.0.0 -> q@1.0.0 ^1',
      'c@1.0.0 -> x@1.0.0 ^1 [opt]',
      'c@1.0.0 -> y@1.0.0 ^1 [opt]',
      'p@1.0.0 -> c@1.0.0 ^1',
      'q@1.0.0 -> c@1.0.0 ^1',
    ],
  },
  {
    name: 'default-features = false, unless another dependent keeps the defaults',
    u: {
      root: {
        '1.0.0': {
          deps: [
            ['c', '^1', { nodefault: '' }],
            ['d', '^1', { nodefault: '' }],
            ['e', '^1'],
          ],
        },
      },
      c: { '1.0.0': { features: { default: ['dep:x'] }, deps: [['x', '^1', { opt: '' }]] } },
      d: { '1.0.0': { features: { default: ['dep:x'] }, deps: [['x', '^1', { opt: '' }]] } },
      e: { '1.0.0': { deps: [['d', '^1']] } },
      x: { '1.0.0': leaf },
    },
    want: [
      'root@1.0.0 -> c@1.0.0 ^1',
      'root@1.0.0 -> d@1.0.0 ^1',
      'root@1.0.0 -> e@1.0.0 ^1',
      'd@1.0.0 -> x@1.0.0 ^1 [opt]',
      'e@1.0.0 -> d@1.0.0 ^1',
    ],
  },
  {
    name: 'a later dependent adding features re-activates a package and pulls its optional dependencies',
    u: {
      root: {
        '1.0.0': {
          deps: [
            ['a', '=1.0.0', { nodefault: '' }],
            ['b', '^1'],
          ],
        },
      },
      b: { '1.0.0': leaf, '1.1.0': { deps: [['a', '^1', { features: 'fast' }]] } },
      a: { '1.0.0': { features: { fast: ['simd/avx'] }, deps: [['simd', '^1', { opt: '' }]] } },
      simd: { '1.0.0': { features: { avx: ['dep:cc'] }, deps: [['cc', '^1', { opt: '', scope: 'build' }]] } },
      cc: { '1.0.0': leaf },
    },
    want: [
      'root@1.0.0 -> a@1.0.0 =1.0.0',
      'root@1.0.0 -> b@1.1.0 ^1',
      'a@1.0.0 -> simd@1.0.0 ^1 [opt]',
      'b@1.1.0 -> a@1.0.0 ^1',
      'simd@1.0.0 -> cc@1.0.0 ^1 [opt scope=build]',
    ],
  },
  {
    name: 'a candidate lacking a requested feature is skipped',
    u: {
      root: { '1.0.0': { deps: [['c', '^1', { features: 'fancy' }]] } },
      c: { '1.0.0': { features: { fancy: [] } }, '1.1.0': leaf },
    },
    want: ['root@1.0.0 -> c@1.0.0 ^1'],
  },
  {
    name: 'package renames: the graph shows the real crate; features address the local name',
    u: {
      root: {
        '1.0.0': {
          features: { default: ['serde1/derive'] },
          deps: [
            ['serde', '^1', { knownas: 'serde1' }],
            ['serde', '^0.9', { knownas: 'serde_old', opt: '' }],
          ],
        },
      },
      serde: {
        '0.9.15': leaf,
        '1.0.0': { features: { derive: ['dep:serde_derive'] }, deps: [['serde_derive', '^1', { opt: '' }]] },
      },
      serde_derive: { '1.0.0': leaf },
    },
    want: ['root@1.0.0 -> serde@1.0.0 ^1 [knownas=serde1]', 'serde@1.0.0 -> serde_derive@1.0.0 ^1 [opt]'],
  },
  {
    name: 'target-specific dependencies for x86_64-unknown-linux-gnu',
    u: {
      root: {
        '1.0.0': {
          deps: [
            ['unix', '^1', { environment: 'cfg(unix)' }],
            ['win', '^1', { environment: 'cfg(windows)' }],
            ['linux', '^1', { environment: 'cfg(target_os = "linux")' }],
            ['mac', '^1', { environment: 'cfg(target_os = "macos")' }],
            ['notwin', '^1', { environment: 'cfg(not(windows))' }],
            ['all', '^1', { environment: 'cfg(all(unix, target_arch = "x86_64", target_pointer_width = "64"))' }],
            ['anyw', '^1', { environment: 'cfg(any(windows, target_arch = "aarch64"))' }],
            ['triple', '^1', { environment: 'x86_64-unknown-linux-gnu' }],
            ['msvc', '^1', { environment: 'x86_64-pc-windows-msvc' }],
            ['wasm', '^1', { environment: 'cfg(target_family = "wasm")', scope: 'build' }],
          ],
        },
      },
      unix: { '1.0.0': leaf },
      win: { '1.0.0': leaf },
      linux: { '1.0.0': leaf },
      mac: { '1.0.0': leaf },
      notwin: { '1.0.0': leaf },
      all: { '1.0.0': leaf },
      anyw: { '1.0.0': leaf },
      triple: { '1.0.0': leaf },
      msvc: { '1.0.0': leaf },
      wasm: { '1.0.0': leaf },
    },
    want: [
      'root@1.0.0 -> all@1.0.0 ^1',
      'root@1.0.0 -> linux@1.0.0 ^1',
      'root@1.0.0 -> notwin@1.0.0 ^1',
      'root@1.0.0 -> triple@1.0.0 ^1',
      'root@1.0.0 -> unix@1.0.0 ^1',
    ],
  },
  {
    name: 'features asked only by a Windows dependency do not apply on Linux',
    u: {
      root: {
        '1.0.0': {
          deps: [
            ['c', '^1'],
            ['c', '^1', { environment: 'cfg(windows)', features: 'extra' }],
          ],
        },
      },
      c: { '1.0.0': { features: { extra: ['dep:x'] }, deps: [['x', '^1', { opt: '' }]] } },
      x: { '1.0.0': leaf },
    },
    want: ['root@1.0.0 -> c@1.0.0 ^1'],
  },
  {
    name: 'platform null keeps every target (the Cargo.lock view)',
    opts: { platform: null },
    u: {
      root: {
        '1.0.0': {
          deps: [
            ['c', '^1'],
            ['c', '^1', { environment: 'cfg(windows)', features: 'extra' }],
            ['w', '^1', { environment: 'x86_64-pc-windows-msvc' }],
          ],
        },
      },
      c: { '1.0.0': { features: { extra: ['dep:x'] }, deps: [['x', '^1', { opt: '' }]] } },
      x: { '1.0.0': leaf },
      w: { '1.0.0': leaf },
    },
    want: ['root@1.0.0 -> c@1.0.0 ^1', 'root@1.0.0 -> w@1.0.0 ^1', 'c@1.0.0 -> x@1.0.0 ^1 [opt]'],
  },
  {
    name: 'a Windows-only dependency still constrains versions, as in Cargo.lock',
    u: {
      root: {
        '1.0.0': {
          deps: [
            ['c', '^1'],
            ['w', '^1', { environment: 'cfg(windows)' }],
          ],
        },
      },
      w: { '1.0.0': { deps: [['c', '=1.0.0']] } },
      c: { '1.0.0': leaf, '1.1.0': leaf },
    },
    want: ['root@1.0.0 -> c@1.0.0 ^1'],
  },
  {
    name: 'a cycle through a build dependency is an error, as cargo rejects it',
    u: {
      root: { '1.0.0': { deps: [['a', '^1']] } },
      a: { '1.0.0': { deps: [['b', '^1', { scope: 'build', nodefault: '' }]] } },
      b: { '1.0.0': { deps: [['a', '^1', { nodefault: '' }]] } },
    },
    want: [
      'root@1.0.0 -> a@1.0.0 ^1',
      'a@1.0.0 -> b@1.0.0 ^1 [scope=build]',
      'b@1.0.0 -> a@1.0.0 ^1',
      'error cyclic package dependency: package `a v1.0.0` depends on itself',
    ],
  },
  {
    name: 'an unknown root version',
    u: { root: { '2.0.0': leaf } },
    want: ['error root@1.0.0 not found'],
  },
];
