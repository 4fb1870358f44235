/**
 * The npm tarball reader: tar headers (ustar prefix, pax path, GNU long name, checksum), which
 * manifests count as bundled packages, the gunzip + read of a whole tarball, and the tarball URL
 * through the configured registry.
 */
import { describe, expect, it } from 'vitest';
import {
  bundledFolder,
  bundledFromTarball,
  parsePax,
  parseTarHeader,
  readTar,
  tarballUrl,
} from '../../../src/insights/ingest/npm-tarball.ts';
import { buildTar, buildTgz, type TarInput } from '../../../tools/insights-upstream/tar.ts';

const stream = (bytes: Uint8Array, chunk = 700) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      for (let i = 0; i < bytes.length; i += chunk) c.enqueue(bytes.slice(i, i + chunk));
      c.close();
    },
  });

const noDeps = {
  dependencies: [],
  devDependencies: [],
  optionalDependencies: [],
  peerDependencies: [],
  bundleDependencies: [],
  peerDependencyMetadata: [],
};
const deep = `package/node_modules/${Array.from({ length: 12 }, (_, i) => `very-long-package-name-${i}`).join('/node_modules/')}/package.json`;

const ENTRIES: TarInput[] = [
  { path: 'package', type: '5' },
  { path: 'package/package.json', content: { name: 'root', version: '1.0.0', bundleDependencies: ['a'] } },
  { path: 'package/index.js', content: 'module.exports = 1;\n' },
  {
    path: 'package/node_modules/a/package.json',
    content: {
      name: 'a',
      version: '2.0.0',
      dependencies: { z: '^1.0.0', b: '~3.1.0' },
      peerDependencies: { react: '>=16' },
      peerDependenciesMeta: { react: { optional: true } },
    },
  },
  { path: 'package/node_modules/a/lib/package.json', content: { name: 'not-a-package-root' } },
  {
    path: 'package/node_modules/a/node_modules/b/package.json',
    content: { name: 'b', version: '3.1.4', optionalDependencies: { fsevents: '*' } },
  },
  { path: 'package/node_modules/@scope/c/package.json', content: { name: '@scope/c', version: '0.0.1-beta.2' } },
  { path: 'package/node_modules/broken/package.json', content: '{ not json' },
  { path: 'package/node_modules/nameless/package.json', content: { dependencies: { q: '1' } } },
  { path: deep, content: { name: 'very-long-package-name-11', version: '1.1.1' } },
];

const EXPECTED = [
  { path: 'node_modules/@scope/c', name: '@scope/c', version: '0.0.1-beta.2', dependencies: noDeps },
  {
    path: 'node_modules/a',
    name: 'a',
    version: '2.0.0',
    dependencies: {
      ...noDeps,
      dependencies: [
        { name: 'b', requirement: '~3.1.0' },
        { name: 'z', requirement: '^1.0.0' },
      ],
      peerDependencies: [{ name: 'react', requirement: '>=16' }],
      peerDependencyMetadata: [{ name: 'react', optional: true }],
    },
  },
  {
    path: 'node_modules/a/node_modules/b',
    name: 'b',
    version: '3.1.4',
    dependencies: { ...noDeps, optionalDependencies: [{ name: 'fsevents', requirement: '*' }] },
  },
  {
    path: 'node_modules/nameless',
    name: '',
    version: '',
    dependencies: { ...noDeps, dependencies: [{ name: 'q', requirement: '1' }] },
  },
  {
    path: deep.slice('package/'.length, -'/package.json'.length),
    name: 'very-long-package-name-11',
    version: '1.1.1',
    dependencies: noDeps,
  },
];

describe('bundledFromTarball', () => {
  it('reads every node_modules manifest (nested, scoped, pax long path), sorted by path', async () => {
    expect(deep.length).toBeGreaterThan(256);
    expect(await bundledFromTarball(stream(buildTgz(ENTRIES)))).toEqual(EXPECTED);
  });

  it('reads GNU long names the same way', async () => {
    expect(await bundledFromTarball(stream(buildTgz(ENTRIES, 'gnu'), 97))).toEqual(EXPECTED);
  });

  it('gives an empty list for a tarball without node_modules', async () => {
    expect(await bundledFromTarball(stream(buildTgz(ENTRIES.slice(0, 3))))).toEqual([]);
  });

  it('accepts a root folder other than package/', async () => {
    const tgz = buildTgz([{ path: 'node/node_modules/x/package.json', content: { name: 'x', version: '1.0.0' } }]);
    expect((await bundledFromTarball(stream(tgz))).map((b) => [b.path, b.name])).toEqual([['node_modules/x', 'x']]);
  });

  it('refuses to keep more manifest bytes than the limit, and a gzip that is not one', async () => {
    await expect(bundledFromTarball(stream(buildTgz(ENTRIES)), 64)).rejects.toThrow(
      /tar: package\/node_modules\/.*package\.json would keep \d+ bytes in memory, more than the limit of 64/,
    );
    await expect(bundledFromTarball(stream(buildTar(ENTRIES)))).rejects.toThrow();
  });
});

describe('tar reader', () => {
  it('yields wanted files with their bytes and skips the rest', async () => {
    const tar = buildTar([
      { path: 'package/a.txt', content: 'x'.repeat(1000) },
      { path: 'package/b.txt', content: 'hello' },
      { path: `package/${'p/'.repeat(70)}c.txt`, content: 'prefixed' },
    ]);
    const got: [string, string][] = [];
    for await (const f of readTar(stream(tar, 333), (p) => !p.endsWith('a.txt')))
      got.push([f.path, new TextDecoder().decode(f.data)]);
    expect(got).toEqual([
      ['package/b.txt', 'hello'],
      [`package/${'p/'.repeat(70)}c.txt`, 'prefixed'],
    ]);
  });

  it('streams past a file larger than 256 MiB and reads the manifest after it', async () => {
    const BIG = 300 * 1024 * 1024;
    const header = buildTar([{ path: 'package/big.bin', content: '' }]).slice(0, 512);
    header.set(new TextEncoder().encode(`${BIG.toString(8).padStart(11, '0')}\0`), 124);
    header.fill(32, 148, 156);
    const sum = header.reduce((a, b) => a + b, 0);
    header.set(new TextEncoder().encode(`${sum.toString(8).padStart(6, '0')}\0 `), 148);
    const after = buildTar([{ path: 'package/node_modules/x/package.json', content: { name: 'x', version: '1.0.0' } }]);
    const chunk = new Uint8Array(1024 * 1024);
    let sent = -1;
    const big = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent === -1) c.enqueue(header);
        else if (sent < BIG / chunk.length) c.enqueue(chunk);
        else {
          c.enqueue(after);
          c.close();
        }
        sent++;
      },
    });
    const got: string[] = [];
    for await (const f of readTar(big, (p) => bundledFolder(p) !== null)) got.push(new TextDecoder().decode(f.data));
    expect(got.map((t) => JSON.parse(t))).toEqual([{ name: 'x', version: '1.0.0' }]);
  });

  it('throws on a truncated archive', async () => {
    const tar = buildTar([{ path: 'package/b.txt', content: 'y'.repeat(2000) }]);
    const read = async () => {
      for await (const f of readTar(stream(tar.slice(0, 1024)), () => true)) void f;
    };
    await expect(read()).rejects.toThrow('tar: truncated archive');
  });

  it('checks the header checksum and reads sizes, types and the ustar prefix', () => {
    const block = buildTar([{ path: `${'d'.repeat(120)}/package.json`, content: 'abc' }]).slice(0, 512);
    expect(parseTarHeader(block)).toEqual({ path: `${'d'.repeat(120)}/package.json`, type: '0', size: 3 });
    expect(parseTarHeader(new Uint8Array(512))).toBeNull();
    block[0] = block[0]! + 1;
    expect(() => parseTarHeader(block)).toThrow('tar: header checksum mismatch');
  });

  it('parses pax records', () => {
    expect(parsePax(new TextEncoder().encode('30 mtime=1700000000.123456789\n25 path=a/b/package.json\n'))).toEqual({
      mtime: '1700000000.123456789',
      path: 'a/b/package.json',
    });
  });
});

describe('bundledFolder', () => {
  it.each([
    ['package/node_modules/a/package.json', 'node_modules/a'],
    ['package/node_modules/@s/b/package.json', 'node_modules/@s/b'],
    ['package/node_modules/a/node_modules/@s/b/package.json', 'node_modules/a/node_modules/@s/b'],
    ['./package/node_modules/a/package.json', 'node_modules/a'],
    ['package/package.json', null],
    ['package/node_modules/a/lib/package.json', null],
    ['package/node_modules/@s/package.json', null],
    ['package/lib/node_modules/a/package.json', null],
    ['package/node_modules/a/package.json.bak', null],
  ])('%s -> %s', (path, folder) => {
    expect(bundledFolder(path)).toBe(folder);
  });
});

describe('tarballUrl', () => {
  it('sends public-registry tarballs through the configured registry and keeps other URLs', () => {
    const env = { NPM_REGISTRY_URL: 'http://mirror.local/npm/' };
    expect(tarballUrl(env, 'https://registry.npmjs.org/@s/b/-/b-1.0.0.tgz')).toBe(
      'http://mirror.local/npm/@s/b/-/b-1.0.0.tgz',
    );
    expect(tarballUrl(env, 'https://cdn.example/x.tgz')).toBe('https://cdn.example/x.tgz');
    expect(tarballUrl({}, 'https://registry.npmjs.org/a/-/a-1.0.0.tgz')).toBe(
      'https://registry.npmjs.org/a/-/a-1.0.0.tgz',
    );
  });
});
