import { describe, expect, test } from 'vitest';
import { resolvePypi } from '../../../src/resolve/pypi.ts';
import { evaluateMarker } from '../../../src/resolve/pypi-markers.ts';
import { loadCases, render } from './resolvetest.ts';

// Harness rules from deps.dev's pypi/resolve_test.go: exact graph equality (edge requirement and
// type included); `Flag error` only requires a graph-level error.
const cases = [
  ...loadCases('pypi/pip-tests.data'),
  ...loadCases('pypi/additional-tests.data'),
  ...loadCases('pypi/prerelease.data', 'pypi/prerelease.want'),
  ...loadCases('pypi/loops.data', 'pypi/loops.want'),
  ...loadCases('pypi/pypi-2020-02-13-chalice.data'),
];

describe('pypi conformance vectors', () => {
  test('all 56 cases are loaded', () => expect(cases.length).toBe(56));
  test.each(cases.map((c) => [c.name, c] as const))('%s', async (_n, c) => {
    const got = await resolvePypi(c.client, c.root.name, c.root.version);
    if (c.flags.has('error')) {
      expect(got.error).not.toBe('');
      return;
    }
    expect(render(got, { keepAttrs: true })).toEqual(render(c.want, { keepAttrs: true }));
  });
});

describe('pep 508 markers (CPython 3.12, linux x86_64)', () => {
  test.each([
    ['python_version >= "3.4"', [], true],
    ['python_version == "2.7"', [], false],
    ['python_version < "3.10"', [], false],
    ['sys_platform == "win32"', [], false],
    ['sys_platform == "linux" and platform_machine == "x86_64"', [], true],
    ['os_name == "nt" or implementation_name == "cpython"', [], true],
    ['extra == "docs"', [], false],
    ['extra == "docs"', ['docs'], true],
    ['extra == "Foo_Bar"', ['foo-bar'], true],
    ["sys_platform=='win32' and extra == 'ssl'", ['ssl'], false],
    ['"linux" in sys_platform', [], true],
    ['python_full_version >= "3.12.0"', [], true],
    ['not a marker', [], false],
  ] as const)('%s with %j -> %s', (m, extras, want) => {
    expect(evaluateMarker(m, new Set(extras))).toBe(want);
  });
});
