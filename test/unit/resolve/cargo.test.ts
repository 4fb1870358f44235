import { describe, expect, test } from 'vitest';
import { resolveCargo } from '../../../src/resolve/cargo.ts';
import { LINUX_X86_64, targetMatches } from '../../../src/resolve/cargo-cfg.ts';
import { CARGO_CASES } from './cargo-cases.ts';
import { cargoClient, describeGraph } from '../../../tools/universes/cargo-universe.ts';

describe('cargo resolver (in-memory universes)', () => {
  test.each(CARGO_CASES.map((c) => [c.name, c] as const))('%s', async (_n, c) => {
    const got = await resolveCargo(cargoClient(c.u), 'root', '1.0.0', c.opts);
    expect(describeGraph(got)).toEqual(c.want);
  });

  test('an exponential conflict stops at the step budget', async () => {
    const u: Record<string, Record<string, { deps?: [string, string][] }>> = { root: { '1.0.0': { deps: [] } } };
    for (let i = 0; i < 12; i++) {
      u.root!['1.0.0']!.deps!.push([`p${i}`, '^1']);
      u[`p${i}`] = {
        '1.0.0': { deps: [['z', '=1.0.0']] },
        '1.1.0': { deps: [['z', '=1.0.0']] },
        '1.2.0': { deps: [['z', '=1.0.0']] },
      };
    }
    u.root!['1.0.0']!.deps!.push(['q', '^1']);
    u.q = Object.fromEntries(
      ['1.0.0', '1.1.0', '1.2.0', '1.3.0', '1.4.0'].map((v) => [v, { deps: [['z', '=1.1.0']] }]),
    );
    u.z = { '1.0.0': {}, '1.1.0': {} };
    const got = await resolveCargo(cargoClient(u), 'root', '1.0.0', { maxSteps: 2000 });
    expect(describeGraph(got)).toEqual(['error resolution did not finish within 2000 steps']);
  });
});

describe('cargo target filters on x86_64-unknown-linux-gnu', () => {
  test.each([
    ['', true],
    ['cfg(unix)', true],
    ['cfg(windows)', false],
    ['cfg(not(windows))', true],
    ['cfg(target_os = "linux")', true],
    ['cfg(target_os="macos")', false],
    ['cfg(all(unix, target_env = "gnu"))', true],
    ['cfg(all(unix, target_env = "musl"))', false],
    ['cfg(any(windows, unix))', true],
    ['cfg(any())', false],
    ['cfg(all())', true],
    ['cfg(target_pointer_width = "32")', false],
    ['cfg(target_has_atomic = "64")', true],
    ['x86_64-unknown-linux-gnu', true],
    ['aarch64-unknown-linux-gnu', false],
    ['cfg(unix', false],
    ['cfg(not(unix, windows))', false],
    ['cfg(feature = "std")', false],
  ] as const)('%j -> %s', (t, want) => expect(targetMatches(t, LINUX_X86_64)).toBe(want));
});
