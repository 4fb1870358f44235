/**
 * Universes for the pip comparison (pip-compare.test.ts): hand-written ones, one per rule of pip's
 * resolver that the PyPI resolver emulates, and a seeded generator of small random ones. Root is
 * always `root 1.0.0`. Markers that depend on the Python version are meant to be evaluated in the
 * environment of the pip being compared with (they hold on 3.11 and not on 3.12, or the reverse).
 */
import { seededRandom } from '../seeded-random.ts';
import type { PipDepSpec, PipUniverse, PipVersionSpec } from '../registries/pip-index.ts';

const leaf: PipVersionSpec = {};

export const PIP_CASES: { name: string; u: PipUniverse }[] = [
  {
    name: 'highest version; yanked and Requires-Python-excluded versions are skipped',
    u: {
      root: {
        '1.0.0': {
          deps: [
            ['a', '>=1'],
            ['b', ''],
          ],
        },
      },
      a: { '1.0.0': leaf, '1.1.0': leaf, '1.2.0': { yanked: true } },
      b: {
        '1.0.0': leaf,
        '2.0.0': { requiresPython: '>=3.7' },
        '3.0.0': { requiresPython: '>=3.99' },
        '3.1.0': { requiresPython: '<3' },
      },
    },
  },
  {
    name: 'an exact pin takes a yanked version (PEP 592)',
    u: {
      root: { '1.0.0': { deps: [['a', '==1.5.0']] } },
      a: { '1.0.0': leaf, '1.5.0': { yanked: true }, '2.0.0': leaf },
    },
  },
  {
    name: 'backtracking: the newest parent conflicts, an older one fits',
    u: {
      root: {
        '1.0.0': {
          deps: [
            ['a', ''],
            ['b', ''],
          ],
        },
      },
      a: { '1.0.0': { deps: [['c', '>=1']] }, '2.0.0': { deps: [['c', '==1.0.0']] } },
      b: { '1.0.0': { deps: [['c', '>=2']] } },
      c: { '1.0.0': leaf, '2.0.0': leaf, '2.1.0': leaf },
    },
  },
  {
    name: 'backtracking through two levels',
    u: {
      root: {
        '1.0.0': {
          deps: [
            ['a', ''],
            ['d', ''],
          ],
        },
      },
      a: { '1.0.0': { deps: [['b', '<2']] }, '2.0.0': { deps: [['b', '>=2']] } },
      b: {
        '1.0.0': { deps: [['c', '==1.0.0']] },
        '2.0.0': { deps: [['c', '==2.0.0']] },
        '2.1.0': { deps: [['c', '==2.0.0']] },
      },
      c: { '1.0.0': leaf, '2.0.0': leaf },
      d: { '1.0.0': { deps: [['c', '<2']] } },
    },
  },
  {
    name: 'a dependency missing from the index forces an older parent',
    u: {
      root: { '1.0.0': { deps: [['a', '']] } },
      a: { '1.0.0': { deps: [['b', '']] }, '2.0.0': { deps: [['nowhere', '']] } },
      b: { '1.0.0': leaf },
    },
  },
  {
    name: 'extras: requested extras add dependencies, the union over dependents',
    u: {
      root: {
        '1.0.0': {
          deps: [
            ['a', '', { extras: 'x' }],
            ['b', ''],
          ],
        },
      },
      a: {
        '1.0.0': {
          deps: [
            ['c', '', { marker: 'extra == "x"' }],
            ['d', '', { marker: 'extra == "y"' }],
            ['e', '', { marker: 'extra == "z"' }],
          ],
        },
      },
      b: { '1.0.0': { deps: [['a', '>=1', { extras: 'y' }]] } },
      c: { '1.0.0': leaf },
      d: { '1.0.0': leaf },
      e: { '1.0.0': leaf },
    },
  },
  {
    name: 'extras combined with markers and with a version constraint from the extra',
    u: {
      root: {
        '1.0.0': {
          deps: [
            ['a', '', { extras: 'fast' }],
            ['c', ''],
          ],
        },
      },
      a: {
        '1.0.0': {
          deps: [
            ['c', '<2', { marker: 'extra == "fast" and sys_platform == "linux"' }],
            ['d', '', { marker: 'extra == "fast" and sys_platform == "win32"' }],
          ],
        },
      },
      c: { '1.0.0': leaf, '2.0.0': leaf },
      d: { '1.0.0': leaf },
    },
  },
  {
    name: 'markers: platform, machine, implementation, os',
    u: {
      root: {
        '1.0.0': {
          deps: [
            ['a', '', { marker: 'sys_platform == "linux"' }],
            ['b', '', { marker: 'sys_platform == "win32"' }],
            ['c', '', { marker: 'platform_machine == "x86_64"' }],
            ['d', '', { marker: 'platform_machine == "aarch64"' }],
            ['e', '', { marker: 'implementation_name == "cpython"' }],
            ['f', '', { marker: 'implementation_name == "pypy"' }],
            ['g', '', { marker: 'os_name == "nt" or platform_system == "Linux"' }],
            ['h', '', { marker: '"linux" in sys_platform and os_name != "posix"' }],
          ],
        },
      },
      a: { '1.0.0': leaf },
      b: { '1.0.0': leaf },
      c: { '1.0.0': leaf },
      d: { '1.0.0': leaf },
      e: { '1.0.0': leaf },
      f: { '1.0.0': leaf },
      g: { '1.0.0': leaf },
      h: { '1.0.0': leaf },
    },
  },
  {
    name: 'markers: python_version and python_full_version of the compared interpreter',
    u: {
      root: {
        '1.0.0': {
          deps: [
            ['a', '', { marker: 'python_version < "3.12"' }],
            ['b', '', { marker: 'python_version >= "3.12"' }],
            ['c', '', { marker: 'python_full_version >= "3.8.1"' }],
            ['d', '', { marker: 'python_version == "2.7"' }],
            ['e', '<2', { marker: 'python_version < "3.12"' }],
            ['e', '>=2', { marker: 'python_version >= "3.12"' }],
          ],
        },
      },
      a: { '1.0.0': leaf },
      b: { '1.0.0': leaf },
      c: { '1.0.0': leaf },
      d: { '1.0.0': leaf },
      e: { '1.0.0': leaf, '2.0.0': leaf },
    },
  },
  {
    name: 'Requires-Python excludes the newest versions, the parent backtracks when none is left',
    u: {
      root: {
        '1.0.0': {
          deps: [
            ['a', ''],
            ['b', ''],
          ],
        },
      },
      a: { '1.0.0': { deps: [['c', '']] }, '2.0.0': { deps: [['c', '>=2']] } },
      b: { '1.0.0': { requiresPython: '>=3' }, '2.0.0': { requiresPython: '>=3.99' } },
      c: { '1.0.0': leaf, '2.0.0': { requiresPython: '<3' }, '2.1.0': { requiresPython: '>=4' } },
    },
  },
  {
    name: 'prereleases: only when no final release matches, or when the specifier names one',
    u: {
      root: {
        '1.0.0': {
          deps: [
            ['a', ''],
            ['b', '>=1'],
            ['c', '>=2.0b1'],
            ['d', ''],
          ],
        },
      },
      a: { '1.0.0': leaf, '2.0b1': leaf },
      b: { '1.0a1': leaf, '1.0b2': leaf },
      c: { '1.0.0': leaf, '2.0b1': leaf, '2.0rc1': leaf },
      d: { '1.0.0': { deps: [['e', '>=1']] } },
      e: { '0.9.0': leaf, '1.1rc1': leaf },
    },
  },
  {
    name: 'impossible: two dependents need disjoint versions',
    u: {
      root: {
        '1.0.0': {
          deps: [
            ['a', ''],
            ['b', ''],
          ],
        },
      },
      a: { '1.0.0': { deps: [['c', '<2']] } },
      b: { '1.0.0': { deps: [['c', '>=2']] } },
      c: { '1.0.0': leaf, '2.0.0': leaf },
    },
  },
  {
    name: 'impossible: every version needs a missing project',
    u: {
      root: { '1.0.0': { deps: [['a', '']] } },
      a: { '1.0.0': { deps: [['b', '']] }, '2.0.0': { deps: [['b', '']] } },
      b: { '1.0.0': { deps: [['c', '']] } },
    },
  },
  {
    name: 'impossible: the root itself requires another Python',
    u: { root: { '1.0.0': { requiresPython: '>=3.99', deps: [['a', '']] } }, a: { '1.0.0': leaf } },
  },
  {
    name: 'two requirements of one version on one project both count (resolvelib 1.0)',
    u: {
      root: { '1.0.0': { deps: [['a', '']] } },
      a: {
        '1.0.0': {
          deps: [
            ['b', '>=1'],
            ['b', '<2'],
          ],
        },
        '2.0.0': {
          deps: [
            ['b', '==1.0.0'],
            ['b', '==2.0.0'],
          ],
        },
      },
      b: { '1.0.0': leaf, '1.5.0': leaf, '2.0.0': leaf },
    },
  },
  {
    name: 'an extras identifier is held to the version its project is pinned at',
    u: {
      root: {
        '1.0.0': {
          deps: [
            ['a', '>=1', { extras: 'x' }],
            ['b', ''],
          ],
        },
      },
      a: { '1.0.0': { deps: [['c', '', { marker: 'extra == "y"' }]] }, '2.0.0': leaf },
      b: { '1.0.0': { deps: [['a', '<2', { extras: 'y' }]] }, '2.0.0': { deps: [['a', '<2', { extras: 'x,y' }]] } },
      c: { '1.0.0': leaf },
    },
  },
  {
    name: 'dependency cycles are fine',
    u: {
      root: { '1.0.0': { deps: [['a', '']] } },
      a: { '1.0.0': { deps: [['b', '']] }, '2.0.0': { deps: [['b', '>=2']] } },
      b: { '1.0.0': { deps: [['a', '']] }, '2.0.0': { deps: [['a', '<2']] } },
    },
  },
];

const POOL = ['0.9', '1.0', '1.1', '1.1.1', '1.5', '2.0', '2.1', '3.0b1', '3.0'];
const FINALS = POOL.filter((v) => !/[a-z]/.test(v));
const MARKERS = [
  'sys_platform == "linux"',
  'sys_platform == "win32"',
  'sys_platform != "darwin"',
  'platform_machine == "x86_64"',
  'platform_machine == "aarch64"',
  'implementation_name == "cpython"',
  'implementation_name == "pypy"',
  'python_version < "3.12"',
  'python_version >= "3.12"',
  'python_full_version >= "3.11.2"',
  'os_name == "nt"',
  'platform_system == "Linux" and python_version > "3.6"',
  'extra == "fast"',
  'extra == "fast" and sys_platform == "linux"',
  'extra == "cli"',
];
const PYTHONS = ['>=3.8', '>=3.12', '<3.11', '>=3.7,<4', '>=3.99'];

/**
 * A random universe: projects p0..pN, pi depending mostly on pj (j > i) and rarely back (cycles),
 * requirement forms ==, >=, <, ranges, ~=, !=, ==x.*, bare, a prerelease-naming >=; markers on
 * platform, machine, implementation, Python version and extras; extras asked by dependents;
 * Requires-Python; yanked versions; prereleases in the version pool.
 */
export function randomPipUniverse(seed: number): PipUniverse {
  const r = seededRandom(seed);
  const int = (n: number) => Math.floor(r() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  const n = 4 + int(5);
  const names = Array.from({ length: n }, (_, i) => `p${i}`);
  const versions = new Map<string, string[]>();
  for (const name of names)
    versions.set(
      name,
      POOL.filter(() => r() < 0.35)
        .concat(pick(FINALS), pick(FINALS))
        .filter((v, i, a) => a.indexOf(v) === i),
    );
  const req = (target: string): string => {
    const v = pick(versions.get(target)!);
    const [maj, min] = v.split('.');
    const k = int(20);
    if (k < 1) return `==${v}`;
    if (k < 2) return `<${v}`;
    if (k < 5) return `>=${maj}.${min?.replace(/\D.*/, '')},<${Number(maj) + 1}`;
    if (k < 7) return `~=${maj}.${min?.replace(/\D.*/, '')}`;
    if (k < 8) return `!=${v}`;
    if (k < 9) return `==${maj}.*`;
    if (k < 10) return '>=3.0b1';
    if (k < 15) return `>=${v}`;
    return '';
  };
  const mkVersion = (i: number): PipVersionSpec => {
    const deps: PipDepSpec[] = [];
    const later = names.slice(i + 1);
    const targets = later.filter(() => r() < 0.3).slice(0, 3);
    if (i > 0 && r() < 0.08) targets.push(names[int(i)]!);
    for (const t of targets) {
      const o: { extras?: string; marker?: string } = {};
      if (r() < 0.3) o.marker = pick(MARKERS);
      if (r() < 0.25) o.extras = pick(['fast', 'cli', 'fast,cli']);
      deps.push(Object.keys(o).length ? [t, req(t), o] : [t, req(t)]);
    }
    return {
      deps,
      ...(r() < 0.12 ? { requiresPython: pick(PYTHONS) } : {}),
      ...(r() < 0.06 ? { yanked: true } : {}),
    };
  };
  const u: Record<string, Record<string, PipVersionSpec>> = {};
  names.forEach((name, i) => {
    u[name] = Object.fromEntries(versions.get(name)!.map((v) => [v, mkVersion(i)]));
  });
  const rootDeps = names.filter(() => r() < 0.5).slice(0, 4);
  u.root = {
    '1.0.0': {
      deps: (rootDeps.length ? rootDeps : [names[0]!]).map(
        (t): PipDepSpec => (r() < 0.2 ? [t, req(t), { extras: 'fast' }] : [t, req(t)]),
      ),
    },
  };
  return u;
}
