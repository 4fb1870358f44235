/** Package-name rules per system (src/versions/names/): the one place each normalisation is written. */
import { describe, expect, it } from 'vitest';
import {
  canonicalPackageName,
  crateIndexName,
  escapeModulePath,
  isMavenName,
  mavenCoordinates,
  normalizeNugetId,
  normalizePypiName,
  unescapeModulePath,
} from '../../../src/versions/names/index.ts';

describe('PyPI (PEP 503)', () => {
  it.each([
    ['Django', 'django'],
    ['zope.interface', 'zope-interface'],
    ['Foo__Bar-.baz', 'foo-bar-baz'],
    ['a-b', 'a-b'],
  ])('%s -> %s', (name, want) => expect(normalizePypiName(name)).toBe(want));
});

describe('NuGet ids', () => {
  it('are lower-cased', () => expect(normalizeNugetId('Newtonsoft.Json')).toBe('newtonsoft.json'));
});

describe('Go module paths', () => {
  it.each([
    ['github.com/BurntSushi/toml', 'github.com/!burnt!sushi/toml'],
    ['golang.org/x/mod', 'golang.org/x/mod'],
  ])('%s <-> %s', (path, escaped) => {
    expect(escapeModulePath(path)).toBe(escaped);
    expect(unescapeModulePath(escaped)).toBe(path);
  });
  it.each(['github.com/!Burnt/x', 'github.com/x!', 'github.com/!1x'])('%s is not an escaped path', (path) =>
    expect(unescapeModulePath(path)).toBeNull(),
  );
});

describe('Cargo and Maven', () => {
  it('crates are indexed by the lower-cased name', () => expect(crateIndexName('OpenSSL')).toBe('openssl'));
  it.each([
    ['org.slf4j:slf4j-api', ['org.slf4j', 'slf4j-api']],
    ['a:b:c', null],
    [':b', null],
    ['a :b', null],
    ['ab', null],
  ])('%s -> %j', (name, want) => {
    expect(mavenCoordinates(name)).toEqual(want);
    expect(isMavenName(name)).toBe(want !== null);
  });
});

describe('canonicalPackageName', () => {
  it.each([
    ['PYPI', 'Flask_SQLAlchemy', 'flask-sqlalchemy'],
    ['NUGET', 'Serilog', 'serilog'],
    ['NPM', 'React', 'React'],
    ['GO', 'github.com/Sirupsen/logrus', 'github.com/Sirupsen/logrus'],
    ['CARGO', 'Inflector', 'Inflector'],
    ['MAVEN', 'org.Example:Lib', 'org.Example:Lib'],
    ['RUBYGEMS', 'RedCloth', 'RedCloth'],
  ] as const)('%s %s -> %s', (system, name, want) => expect(canonicalPackageName(system, name)).toBe(want));
});
