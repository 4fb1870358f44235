/**
 * src/versions/names/rules.ts: the names each registry has (legacy spellings it still serves included)
 * pass; names it cannot hold fail with a reason.
 */
import { describe, expect, it } from 'vitest';
import { nameProblem } from '../../../src/versions/names/index.ts';
import type { System } from '../../../src/versions/index.ts';

const VALID: [System, string][] = [
  ['NPM', 'lodash'],
  ['NPM', 'JSONStream'],
  ['NPM', '@babel/core'],
  ['NPM', '@types/node'],
  ['NPM', 'lodash.get'],
  ['NPM', "left-pad!*'()~"],
  ['NPM', 'a'.repeat(214)],
  ['PYPI', 'Django'],
  ['PYPI', 'zope.interface'],
  ['PYPI', 'ruamel.yaml.clib'],
  ['PYPI', 'a'],
  ['PYPI', 'typing_extensions'],
  ['CARGO', 'serde_json'],
  ['CARGO', 'tokio-util'],
  ['CARGO', 'a'.repeat(64)],
  ['MAVEN', 'org.apache.logging.log4j:log4j-core'],
  ['MAVEN', 'com.google.guava:guava'],
  ['NUGET', 'Newtonsoft.Json'],
  ['NUGET', 'xunit.runner.visualstudio'],
  ['NUGET', 'Microsoft.AspNetCore.App.Ref'],
  ['NUGET', 'Some_Package-1.Ext'],
  ['RUBYGEMS', 'rack'],
  ['RUBYGEMS', 'aws-sdk-s3'],
  ['RUBYGEMS', 'net_http.persistent'],
  ['RUBYGEMS', 'Ruby-Prof'],
  ['GO', 'github.com/BurntSushi/toml'],
  ['GO', 'gopkg.in/yaml.v3'],
  ['GO', 'golang.org/x/mod'],
  ['GO', 'k8s.io/api'],
  ['GO', 'github.com/foo/bar/v2'],
  ['GO', 'example.com/capdemo'],
];

const INVALID: [System, string][] = [
  ['NPM', ''],
  ['NPM', '😀'],
  ['NPM', '.bin'],
  ['NPM', '_x'],
  ['NPM', 'favicon.ico'],
  ['NPM', '@a/b/c'],
  ['NPM', 'a'.repeat(215)],
  ['PYPI', '_x'],
  ['PYPI', 'x_'],
  ['PYPI', 'x y'],
  ['CARGO', '_x'],
  ['CARGO', 'x.y'],
  ['MAVEN', 'a:b:c'],
  ['MAVEN', 'a b:c'],
  ['NUGET', 'a--b'],
  ['NUGET', 'a.'],
  ['RUBYGEMS', '..'],
  ['RUBYGEMS', 'a/b'],
  ['GO', 'github.com'.concat('/x/../y')],
  ['GO', 'localhost/x'],
  ['GO', '-x.com/y'],
  ['GO', 'x.com/.y'],
];

describe('nameProblem', () => {
  it.each(VALID)('%s %j can exist', (system, name) => {
    expect(nameProblem(system, name)).toBeNull();
  });
  it.each(INVALID)('%s %j cannot', (system, name) => {
    expect(nameProblem(system, name)).toEqual(expect.any(String));
  });
});
