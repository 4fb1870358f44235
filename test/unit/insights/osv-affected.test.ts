/**
 * OSV evaluation (src/insights/osv-affected.ts) on its own: the range events over each system's version
 * order, the `versions` list, which `affected[]` entries apply to a package, and the packages a record names.
 */
import { describe, expect, it } from 'vitest';
import { inRange, isAffected, osvPackages, rangeEvents, type Osv } from '../../../src/insights/osv-affected.ts';
import type { System } from '../../../src/versions/index.ts';

const record = (ecosystem: string, name: string, entry: Osv): Osv => ({
  affected: [{ package: { ecosystem, name }, ...entry }],
});
const range = (events: Osv[], type = 'ECOSYSTEM') => ({ ranges: [{ type, events }] });

describe('rangeEvents', () => {
  it('sorts by the system\'s order ("0" first) and drops other kinds', () => {
    const events = [
      { fixed: '1.10.0' },
      { introduced: '1.9.0' },
      { introduced: '0' },
      { fixed: '0.5.0' },
      { note: 'x' },
    ];
    expect(rangeEvents('NPM', events)).toEqual([
      { kind: 'introduced', version: '0' },
      { kind: 'fixed', version: '0.5.0' },
      { kind: 'introduced', version: '1.9.0' },
      { kind: 'fixed', version: '1.10.0' },
    ]);
  });
  it('reads a missing or malformed list as no events', () => {
    expect(rangeEvents('NPM', undefined)).toEqual([]);
    expect(rangeEvents('NPM', [null, 'x'])).toEqual([]);
  });
});

describe('inRange', () => {
  const cases: [string, System, Osv[], [string, boolean][]][] = [
    [
      'introduced/fixed, then introduced/last_affected',
      'NPM',
      [{ introduced: '1.0.0' }, { fixed: '1.2.0' }, { introduced: '2.0.0' }, { last_affected: '2.1.0' }],
      [
        ['0.9.0', false],
        ['1.0.0', true],
        ['1.1.9', true],
        ['1.2.0', false],
        ['2.1.0', true],
        ['2.1.1', false],
      ],
    ],
    [
      'introduced 0: every version below the fix',
      'NPM',
      [{ introduced: '0' }, { fixed: '1.10.0' }],
      [
        ['0.0.1', true],
        ['1.9.0', true],
        ['1.10.0', false],
      ],
    ],
    [
      'limit excludes its own version',
      'CARGO',
      [{ introduced: '0.1.0' }, { limit: '0.3.0' }],
      [
        ['0.2.9', true],
        ['0.3.0', false],
      ],
    ],
    [
      'open-ended introduced',
      'GO',
      [{ introduced: 'v1.2.0' }],
      [
        ['v1.1.0', false],
        ['v1.10.0', true],
      ],
    ],
    [
      'PEP 440 order: a release candidate is below its release',
      'PYPI',
      [{ introduced: '1.0rc1' }, { fixed: '1.0' }],
      [
        ['1.0.0b1', false],
        ['1.0.0rc1', true],
        ['1.0.0', false],
        ['1.0.0.post1', false],
      ],
    ],
    [
      'Maven order: a qualifier is below the release',
      'MAVEN',
      [{ introduced: '1.0-alpha-1' }, { fixed: '1.0' }],
      [
        ['1.0-alpha-1', true],
        ['1.0-beta-1', true],
        ['1.0', false],
      ],
    ],
  ];
  for (const [what, system, events, versions] of cases) {
    it.each(versions)(`${what}: ${system} %s -> %s`, (v, want) =>
      expect(inRange(system, v, rangeEvents(system, events))).toBe(want),
    );
  }
});

describe('isAffected', () => {
  it('matches listed versions as published or canonical', () => {
    const osv = record('PyPI', 'Django', { versions: ['2.1'] });
    expect(isAffected(osv, 'PYPI', 'django', '2.1.0')).toBe(true);
    expect(isAffected(osv, 'PYPI', 'django', '2.2.0')).toBe(false);
  });
  it('applies an entry only to its own system and canonical name', () => {
    const osv = record('PyPI', 'Flask_Login', range([{ introduced: '0' }]));
    expect(isAffected(osv, 'PYPI', 'flask-login', '1.0.0')).toBe(true);
    expect(isAffected(osv, 'PYPI', 'flask', '1.0.0')).toBe(false);
    expect(isAffected(osv, 'NPM', 'flask-login', '1.0.0')).toBe(false);
  });
  it('ignores an ecosystem suffix and GIT ranges', () => {
    expect(isAffected(record('Maven:central', 'g:a', range([{ introduced: '0' }])), 'MAVEN', 'g:a', '1.0')).toBe(true);
    expect(isAffected(record('npm', 'x', range([{ introduced: '0' }], 'GIT')), 'NPM', 'x', '1.0.0')).toBe(false);
  });
  it('is affected when any entry or range says so', () => {
    const osv: Osv = {
      affected: [
        {
          package: { ecosystem: 'npm', name: 'x' },
          ranges: [{ type: 'SEMVER', events: [{ introduced: '1.0.0' }, { fixed: '1.1.0' }] }],
        },
        { package: { ecosystem: 'npm', name: 'x' }, ranges: [{ type: 'SEMVER', events: [{ introduced: '3.0.0' }] }] },
      ],
    };
    const affected = ['0.1.0', '1.0.5', '2.0.0', '3.2.0'].map((v) => isAffected(osv, 'NPM', 'x', v));
    expect(affected).toEqual([false, true, false, true]);
  });
});

describe('osvPackages', () => {
  it('names each served package once, canonically', () => {
    const osv: Osv = {
      affected: [
        { package: { ecosystem: 'PyPI', name: 'Foo.Bar' } },
        { package: { ecosystem: 'PyPI', name: 'foo_bar' } },
        { package: { ecosystem: 'NuGet', name: 'Some.Lib' } },
        { package: { ecosystem: 'Debian:12', name: 'openssl' } },
        { package: { ecosystem: 'crates.io' } },
      ],
    };
    expect(osvPackages(osv)).toEqual([
      { system: 'PYPI', name: 'foo-bar' },
      { system: 'NUGET', name: 'some.lib' },
    ]);
  });
});
