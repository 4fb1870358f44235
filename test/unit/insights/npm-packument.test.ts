/**
 * The npm packument's schema (src/insights/ingest/npm-manifest.ts) holds its structure only: the odd
 * shapes of old manifests pass it and are read as they were before it (expectations taken from the
 * reader without the schema): `dependencies` as a list or a string, `license` as an object, a list or
 * a number, `repository` and `bugs` as a string, `{url}` or a number, `bundleDependencies` as true, a
 * list or an object, `engines` as a list, `dist` null, a `time` entry that is a number or an object.
 */
import { describe, expect, it } from 'vitest';
import { npmFromPackument } from '../../../src/insights/ingest/npm.ts';
import { type npmDependencies, NpmPackument } from '../../../src/insights/ingest/npm-manifest.ts';
import { parseUpstream } from '../../../src/insights/ingest/upstream-doc.ts';

const ODD = {
  name: 'odd',
  'dist-tags': { latest: '1.0.0' },
  time: { created: '2010-01-01T00:00:00Z', '1.0.0': '2011-01-01T00:00:00Z', '0.1.0': 12345, unpublished: { x: 1 } },
  versions: {
    '0.0.1': {
      dependencies: ['a', 'b'],
      license: { type: 'MIT', url: 'u' },
      repository: 'github:o/r',
      bugs: { url: 'https://b' },
      bundleDependencies: { a: '1' },
      engines: ['node >= 0.4'],
      dist: { shasum: '0123456789abcdef0123456789abcdef01234567', tarball: 'https://t/1.tgz' },
    },
    '0.0.2': {
      dependencies: 'a b',
      licenses: [{ type: 'MIT' }, 'BSD', { url: 'x' }],
      repository: { type: 'git', url: 'git://x' },
      bundledDependencies: true,
      peerDependenciesMeta: { p: { optional: true }, q: true },
      deprecated: true,
      os: 'linux',
      cpu: ['x64', 3],
      dist: null,
    },
    '0.1.0': {
      dependencies: { a: '^1', b: { version: '1' } },
      license: ['MIT'],
      bugs: 'https://issues',
      homepage: '',
      engines: { node: '>=4' },
      bundleDependencies: ['a', 1],
      dist: { integrity: 'sha512-abc sha1-x sha256-def', tarball: 'https://t/2.tgz' },
    },
    '1.0.0': {
      deprecated: 'use x',
      license: 5,
      repository: 5,
      bugs: null,
      libc: ['glibc'],
      peerDependencies: { p: '3' },
    },
  },
};

describe("old manifests' shapes pass the schema and read as before", () => {
  const pkg = npmFromPackument(parseUpstream(NpmPackument, ODD, 'https://registry.test/odd'), 'odd');
  const v = (version: string) => pkg.versions.find((x) => x.version === version)!;
  type NpmRequirements = { dependencies: ReturnType<typeof npmDependencies>; os: string[]; cpu: string[] };
  const npm = (version: string) => (v(version).requirements as { npm: NpmRequirements }).npm;

  it('the package', () => {
    expect(pkg.versions.map((x) => x.version)).toEqual(['0.0.1', '0.0.2', '0.1.0', '1.0.0']);
    expect([pkg.defaultVersion, pkg.distTags]).toEqual(['1.0.0', { latest: '1.0.0' }]);
    expect(pkg.versions.map((x) => x.publishedAt)).toEqual([
      null,
      null,
      '1970-01-01T00:00:12.345Z',
      '2011-01-01T00:00:00.000Z',
    ]);
  });

  it.each([
    ['0.0.1', ['MIT'], ['ISSUE_TRACKER https://b', 'SOURCE_REPO github:o/r'], null],
    ['0.0.2', ['MIT', 'non-standard'], ['SOURCE_REPO git://x'], ''],
    ['0.1.0', ['MIT'], ['ISSUE_TRACKER https://issues'], null],
    ['1.0.0', [], [], 'use x'],
  ])('%s: licenses, links, deprecation', (version, licenses, links, deprecated) => {
    const x = v(version);
    expect(x.licenses).toEqual(licenses);
    expect(x.links.filter((l) => l.label !== 'ORIGIN').map((l) => `${l.label} ${l.url}`)).toEqual(links);
    expect(x.deprecated).toBe(deprecated);
  });

  it('requirements of each shape', () => {
    const deps = (version: string) => npm(version).dependencies;
    expect(deps('0.0.1').dependencies).toEqual([
      { name: '0', requirement: 'a' },
      { name: '1', requirement: 'b' },
    ]);
    expect(deps('0.0.1').bundleDependencies).toEqual([]);
    expect(deps('0.0.2').dependencies).toEqual([]);
    expect(deps('0.0.2').peerDependencyMetadata).toEqual([
      { name: 'p', optional: true },
      { name: 'q', optional: false },
    ]);
    expect(deps('0.1.0').dependencies).toEqual([
      { name: 'a', requirement: '^1' },
      { name: 'b', requirement: '' },
    ]);
    expect(deps('0.1.0').bundleDependencies).toEqual(['a']);
    expect(deps('1.0.0').peerDependencies).toEqual([{ name: 'p', requirement: '3' }]);
    expect([npm('0.0.2').os, npm('0.0.2').cpu]).toEqual([[], ['x64']]);
  });

  it('artifacts and meta', () => {
    expect(v('0.0.1').artifacts).toEqual([
      { url: 'https://t/1.tgz', hashes: [{ type: 'SHA1', value: 'ASNFZ4mrze8BI0VniavN7wEjRWc=' }] },
    ]);
    expect(v('0.0.2').artifacts).toEqual([]);
    expect(v('0.1.0').artifacts).toEqual([
      {
        url: 'https://t/2.tgz',
        hashes: [
          { type: 'SHA512', value: 'abc' },
          { type: 'SHA256', value: 'def' },
        ],
      },
    ]);
    expect(v('0.0.1').meta.engines).toEqual(['node >= 0.4']);
    expect(v('0.1.0').meta.engines).toEqual({ node: '>=4' });
    expect(v('1.0.0').meta).toEqual({ os: [], cpu: [], libc: ['glibc'], engines: {}, deprecated: 'use x' });
  });
});
