/** Pure pieces of the insights ingestion: CVSS v3 base score, SPDX licenses, project ids, purls, go.mod, PEP 508, OSV ranges. */
import { describe, expect, it } from 'vitest';
import { cvss3BaseScore } from '../../../src/insights/ingest/cvss.ts';
import { licenseDetails, normalizeLicense } from '../../../src/insights/ingest/licenses.ts';
import { projectIdFromUrl } from '../../../src/insights/ingest/project-links.ts';
import { distributionName, parseRequiresDist } from '../../../src/insights/ingest/pypi.ts';
import { sparseIndexPath } from '../../../src/insights/ingest/cargo.ts';
import { parsePurl } from '../../../src/insights/purl.ts';
import { goCaseDecode } from '../../../src/insights/paths.ts';

describe('cvss3BaseScore', () => {
  it.each([
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H/E:H', 10],
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', 9.8],
    ['CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:C/C:H/I:N/A:N', 6.8],
    ['CVSS:3.1/AV:N/AC:L/PR:H/UI:N/S:U/C:H/I:H/A:H', 7.2],
    ['CVSS:3.0/AV:L/AC:L/PR:L/UI:N/S:U/C:H/I:N/A:N', 5.5],
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N', 6.1],
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:N', 0],
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H', null],
    ['CVSS:2.0/AV:N/AC:L/Au:N/C:P/I:P/A:P', null],
    ['garbage', null],
  ])('%s -> %s', (vector, score) => expect(cvss3BaseScore(vector)).toBe(score));
});

describe('normalizeLicense', () => {
  it.each([
    ['MIT', 'MIT'],
    ['mit', 'MIT'],
    ['Apache-2.0', 'Apache-2.0'],
    ['MIT/Apache-2.0', 'MIT OR Apache-2.0'],
    ['(MIT OR Apache-2.0) AND BSD-3-Clause', '(MIT OR Apache-2.0) AND BSD-3-Clause'],
    ['GPL-2.0-only WITH Classpath-exception-2.0', 'GPL-2.0-only WITH Classpath-exception-2.0'],
    ['Apache License, Version 2.0', 'Apache-2.0'],
    ['BSD', 'non-standard'],
    ['Proprietary', 'non-standard'],
    ['MIT OR', 'non-standard'],
  ])('%s -> %s', (text, want) => expect(normalizeLicense(text)).toBe(want));
});

describe('licenseDetails', () => {
  it('keeps each text as published (trimmed, once) with its SPDX reading', () => {
    expect(licenseDetails([' mit ', 'BSD', '', 42, 'mit', 'MIT/Apache-2.0'])).toEqual([
      { license: 'mit', spdx: 'MIT' },
      { license: 'BSD', spdx: 'non-standard' },
      { license: 'MIT/Apache-2.0', spdx: 'MIT OR Apache-2.0' },
    ]);
  });
});

describe('distributionName (PyPI file names)', () => {
  it.each([
    ['jaraco_context-6.0.2-py3-none-any.whl', { name: 'jaraco_context', version: '6.0.2' }],
    ['Django-3.0-py3-none-any.whl', { name: 'Django', version: '3.0' }],
    ['jaraco.context-4.1.tar.gz', { name: 'jaraco.context', version: '4.1' }],
    ['python-dateutil-2.8.2.tar.gz', { name: 'python-dateutil', version: '2.8.2' }],
    ['pytz-2019.3.zip', { name: 'pytz', version: '2019.3' }],
    ['README.txt', null],
  ])('%s -> %j', (filename, want) => expect(distributionName(filename)).toEqual(want));
});

describe('projectIdFromUrl', () => {
  it.each([
    ['git+https://github.com/lodash/lodash.git', 'github.com/lodash/lodash'],
    ['https://github.com/lodash/lodash/issues', 'github.com/lodash/lodash'],
    ['git+ssh://git@github.com/DABH/colors.js.git', 'github.com/dabh/colors.js'],
    ['git@gitlab.com:group/proj.git', 'gitlab.com/group/proj'],
    ['https://bitbucket.org/o/r/src', 'bitbucket.org/o/r'],
    ['https://issues.apache.org/jira/browse/LOG4J2', null],
    ['https://github.com/only-owner', null],
  ])('%s -> %s', (url, want) => expect(projectIdFromUrl(url)).toBe(want));
});

describe('parsePurl', () => {
  it.each([
    ['pkg:npm/%40colors/colors@1.5.0', { system: 'NPM', name: '@colors/colors', version: '1.5.0' }],
    [
      'pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1',
      { system: 'MAVEN', name: 'org.apache.logging.log4j:log4j-core', version: '2.14.1' },
    ],
    [
      'pkg:golang/github.com/BurntSushi/toml@v1.2.1',
      { system: 'GO', name: 'github.com/BurntSushi/toml', version: 'v1.2.1' },
    ],
    ['pkg:gem/rack', { system: 'RUBYGEMS', name: 'rack' }],
    ['pkg:pypi/jaraco.context@6.0.2', { system: 'PYPI', name: 'jaraco.context', version: '6.0.2' }],
  ])('%s', (purl, want) => expect(parsePurl(purl)).toEqual(want));
  it.each([
    [
      'pkg:maven/org.a/b@1.0?Type=pom&classifier=sources&checksum=',
      { system: 'MAVEN', name: 'org.a:b', version: '1.0', qualifiers: { type: 'pom', classifier: 'sources' } },
    ],
    [
      'pkg:npm/a@1.0.0?repository_url=https%3A%2F%2Fnpm.example.com#lib/./index.js',
      {
        system: 'NPM',
        name: 'a',
        version: '1.0.0',
        qualifiers: { repository_url: 'https://npm.example.com' },
        subpath: 'lib/index.js',
      },
    ],
    ['pkg:golang/github.com/a/b#sub', { system: 'GO', name: 'github.com/a/b', subpath: 'sub' }],
  ])('qualifiers and subpath: %s', (purl, want) => expect(parsePurl(purl)).toEqual(want));
  it.each([
    'pkg:npm/a?=1',
    'pkg:npm/a?x',
    'pkg:npm/a?x=1&X=2',
    'pkg:npm/a?1x=1',
    'pkg:npm/a?x=%zz',
    'npm/a',
    'pkg:cobol/a',
    'pkg:maven/a@1',
  ])('%s is rejected', (purl) => expect(() => parsePurl(purl)).toThrow());
});

describe('goCaseDecode (Go module path case-encoding)', () => {
  it.each([
    ['github.com/!burnt!sushi/toml', 'github.com/BurntSushi/toml'],
    ['github.com/burntsushi/toml', 'github.com/burntsushi/toml'],
  ])('%s -> %s', (path, want) => expect(goCaseDecode(path)).toBe(want));
  it.each(['github.com/!Burnt/x', 'github.com/x!', 'github.com/!1x'])('%s is a 400', (path) =>
    expect(() => goCaseDecode(path)).toThrow(/invalid Go module path/),
  );
});

describe('small parsers', () => {
  it.each([
    [
      "argon2-cffi (>=16.1.0) ; extra == 'argon2'",
      { projectName: 'argon2-cffi', extras: '', versionSpecifier: '>=16.1.0', environmentMarker: "extra == 'argon2'" },
    ],
    [
      'requests[security,socks]>=2.0; python_version < "3"',
      {
        projectName: 'requests',
        extras: 'security,socks',
        versionSpecifier: '>=2.0',
        environmentMarker: 'python_version < "3"',
      },
    ],
  ])('requires_dist %s', (line, want) => expect(parseRequiresDist(line)).toEqual(want));
  it.each([
    ['a', '1/a'],
    ['ab', '2/ab'],
    ['abc', '3/a/abc'],
    ['OpenSSL', 'op/en/openssl'],
  ])('sparse index path %s', (n, p) => expect(sparseIndexPath(n)).toBe(p));
});
