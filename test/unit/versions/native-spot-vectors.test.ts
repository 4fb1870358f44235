/**
 * Two differences an independent differential reported (issue 32), asked again of the native tools
 * the project measures against, with their neighbours:
 *  - PyPI `===` with a pre-release or dev version: packaging 26.2 (and 26.3) compares the candidate's own
 *    text, case-insensitively, and SpecifierSet.prereleases is true for a pre-release `===` clause, so
 *    `9.1.2.dev.2` satisfies `===9.1.2.dev.2`. packaging before 26 (24.1, as vendored in pip 24) compared
 *    the *normalised* candidate (`9.1.2.dev2`) with the clause's text and answered false: the reported
 *    difference is that older packaging's, not a pre-release rule.
 *  - A RubyGems requirement that is only whitespace (`" "`): Gem::Requirement.new(" ") raises
 *    BadRequirementError (RubyGems 3.3.15: `Illformed requirement [" "]`); only the empty requirement
 *    (no requirement at all) is `>= 0`.
 * Each vector's `want` is the tool's answer as recorded here; when the tool is on the machine the test
 * asks it again (as tools/conformance-native.ts does), so a tool that answers otherwise fails it.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import * as V from '../../../src/versions/index.ts';

const PYPI: [string, string, boolean][] = [
  ['9.1.2.dev.2', '===9.1.2.dev.2', true],
  ['9.1.2.dev2', '===9.1.2.dev.2', false],
  ['1.0.A1', '===1.0.a1', true],
  ['1.0a1', '===1.0a1,>=0.1', true],
  ['1.0.post1', '===1.0-1', false],
];
const RUBYGEMS: [string, boolean][] = [
  [' ', false],
  ['\t', false],
  [' , ', false],
  ['', true],
  ['>= 0', true],
];

function ask(cmd: string, args: string[]): string[] | null {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim().split('\n') : null;
}

const PY = `
import json, sys
from packaging.specifiers import SpecifierSet
for a, b in json.loads(sys.argv[1]):
    s = SpecifierSet(b)
    print(1 if s.contains(a, prereleases=bool(s.prereleases)) else 0)
`;
const RB = `
require 'json'
JSON.parse(ARGV[0]).each do |s|
  begin; Gem::Requirement.new(*s.split(',', -1)); puts 1; rescue ArgumentError; puts 0; end
end
`;

describe('PyPI === with pre-release and dev versions', () => {
  it.each(PYPI)('%s against %s: %s', (a, b, want) => {
    expect(V.satisfies('PYPI', a, b)).toBe(want);
  });
  const native = ask('python3', ['-c', PY, JSON.stringify(PYPI.map(([a, b]) => [a, b]))]);
  it.skipIf(native === null)('packaging on this machine answers the same (python3 with packaging)', () => {
    expect(native).toEqual(PYPI.map(([, , want]) => (want ? '1' : '0')));
  });
});

describe('RubyGems requirements of whitespace only', () => {
  it.each(RUBYGEMS)('%j valid: %s', (text, want) => {
    expect(V.parseRequirement('RUBYGEMS', text).ok).toBe(want);
  });
  const native = ask('ruby', ['-e', RB, JSON.stringify(RUBYGEMS.map(([t]) => t))]);
  it.skipIf(native === null)('RubyGems on this machine answers the same (ruby)', () => {
    expect(native).toEqual(RUBYGEMS.map(([, want]) => (want ? '1' : '0')));
  });
});
