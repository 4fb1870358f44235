/**
 * Every endpoint through the insights worker's fetch, over fixtures read through from the local
 * upstream server: GetPackage, GetVersion, GetRequirements (all seven layouts), Query, GetAdvisory,
 * GetProject, GetProjectPackageVersions, versionbatch, purl, plus 400/404 and percent-encoding.
 */
import { describe, expect, it } from 'vitest';
import { registryOf } from '../../../src/insights/ingest/http.ts';
import { api, json, upstream, useFixtureUpstream } from '../../fixtures/insights/harness.ts';
import { testDb } from '../../support/env.ts';

useFixtureUpstream();

describe('GetPackage', () => {
  it.each([
    [
      '/v3/systems/npm/packages/lodash',
      'NPM',
      'lodash',
      [
        ['4.17.19', false],
        ['4.17.20', false],
        ['4.17.21', true],
      ],
    ],
    [
      '/v3/systems/NPM/packages/%40colors%2Fcolors',
      'NPM',
      '@colors/colors',
      [
        ['1.5.0', false],
        ['1.6.0', true],
      ],
    ],
    [
      '/v3/systems/pypi/packages/DJANGO',
      'PYPI',
      'django',
      [
        ['3.0.0', false],
        ['3.0.1', true],
      ],
    ],
    [
      '/v3/systems/cargo/packages/openssl',
      'CARGO',
      'openssl',
      [
        ['0.10.0', false],
        ['0.10.1', false],
        ['0.10.2', true],
      ],
    ],
    [
      '/v3/systems/maven/packages/org.apache.logging.log4j:log4j-core',
      'MAVEN',
      'org.apache.logging.log4j:log4j-core',
      [
        ['2.14.1', false],
        ['2.17.1', true],
      ],
    ],
    [
      '/v3/systems/nuget/packages/Newtonsoft.Json',
      'NUGET',
      'newtonsoft.json',
      [
        ['12.0.3', false],
        ['13.0.1', true],
      ],
    ],
    [
      '/v3/systems/rubygems/packages/rack',
      'RUBYGEMS',
      'rack',
      [
        ['2.2.4', false],
        ['3.0.0', true],
      ],
    ],
    [
      '/v3/systems/go/packages/github.com%2FBurntSushi%2Ftoml',
      'GO',
      'github.com/BurntSushi/toml',
      [
        ['v1.2.0', false],
        ['v1.2.1', true],
      ],
    ],
  ] as const)('%s', async (path, system, name, versions) => {
    const body = await json(path);
    expect(body.packageKey).toEqual({ system, name });
    expect(body.versions.map((v: any) => [v.versionKey.version, v.isDefault])).toEqual(versions);
    for (const v of body.versions) {
      expect(Object.keys(v)).toEqual(
        ['versionKey', 'publishedAt', 'isDefault', 'isDeprecated', 'deprecatedReason'].filter(
          (k) => k !== 'publishedAt' || v.publishedAt !== undefined,
        ),
      );
      expect(v.versionKey).toEqual({ system, name, version: v.versionKey.version });
    }
  });

  it('gives publish times in RFC 3339 whole seconds', async () => {
    const body = await json('/v3/systems/cargo/packages/openssl');
    expect(body.versions.map((v: any) => v.publishedAt)).toEqual([
      '2018-01-11T06:08:30Z',
      '2018-01-12T10:00:00Z',
      '2018-01-20T09:00:00Z',
    ]);
  });

  it('reads an unknown package through once, then serves it from the store', async () => {
    // other suites of the run (openapi, proto-strict) read pino too, through their own upstream
    await testDb().query("DELETE FROM insights.packages WHERE system = 'NPM' AND name = 'pino'");
    await json('/v3/systems/npm/packages/pino');
    const before = upstream.hits.get('/npm/pino');
    await json('/v3/systems/npm/packages/pino');
    expect(before).toBe(1);
    expect(upstream.hits.get('/npm/pino')).toBe(1);
  });
});

describe('GetRequirements', () => {
  it('npm: sorted lists, every field emitted (pino 6.14.0, as the edoardottt capture modulo 2026 shape)', async () => {
    const body = await json('/v3/systems/npm/packages/pino/versions/6.14.0:requirements');
    expect(Object.keys(body.npm)).toEqual(['dependencies', 'bundled', 'os', 'cpu']);
    expect(body.npm.dependencies.dependencies).toEqual([
      { name: 'fast-redact', requirement: '^3.0.0' },
      { name: 'fast-safe-stringify', requirement: '^2.0.8' },
      { name: 'flatstr', requirement: '^1.0.12' },
      { name: 'pino-std-serializers', requirement: '^3.1.0' },
      { name: 'process-warning', requirement: '^1.0.0' },
      { name: 'quick-format-unescaped', requirement: '^4.0.3' },
      { name: 'sonic-boom', requirement: '^1.0.2' },
    ]);
    expect(body.npm.dependencies.devDependencies).toHaveLength(28);
    expect(body.npm.dependencies.devDependencies[0]).toEqual({ name: 'airtap', requirement: '4.0.3' });
    expect([
      body.npm.dependencies.optionalDependencies,
      body.npm.dependencies.peerDependencies,
      body.npm.dependencies.bundleDependencies,
      body.npm.bundled,
    ]).toEqual([[], [], [], []]);
  });

  it('pypi: requires_dist split into name, extras, specifier and marker', async () => {
    expect(await json('/v3/systems/pypi/packages/django/versions/3.0:requirements')).toEqual({
      pypi: {
        dependencies: [
          { projectName: 'pytz', extras: '', versionSpecifier: '', environmentMarker: '' },
          { projectName: 'sqlparse', extras: '', versionSpecifier: '>=0.2.2', environmentMarker: '' },
          { projectName: 'asgiref', extras: '', versionSpecifier: '~=3.2', environmentMarker: '' },
          { projectName: 'bcrypt', extras: '', versionSpecifier: '', environmentMarker: "extra == 'bcrypt'" },
          {
            projectName: 'argon2-cffi',
            extras: '',
            versionSpecifier: '>=16.1.0',
            environmentMarker: "extra == 'argon2'",
          },
        ],
        providedExtras: [{ name: 'argon2' }, { name: 'bcrypt' }],
        externalDependencies: [],
        requiredPythonVersion: '>=3.6',
      },
    });
  });

  it('cargo: renamed dependency as packageAlias, kinds, targets, features', async () => {
    const body = await json('/v3/systems/cargo/packages/openssl/versions/0.10.0:requirements');
    expect(body.cargo.dependencies).toEqual([
      {
        name: 'bitflags',
        requirement: '^1.0',
        kind: 'normal',
        optional: false,
        packageAlias: '',
        usesDefaultFeatures: true,
        features: [],
        target: '',
      },
      {
        name: 'foreign-types',
        requirement: '^0.3.1',
        kind: 'normal',
        optional: false,
        packageAlias: '',
        usesDefaultFeatures: true,
        features: [],
        target: '',
      },
      {
        name: 'libc',
        requirement: '^0.2',
        kind: 'normal',
        optional: false,
        packageAlias: '',
        usesDefaultFeatures: true,
        features: [],
        target: 'cfg(unix)',
      },
      {
        name: 'openssl-sys',
        requirement: '^0.9.23',
        kind: 'normal',
        optional: false,
        packageAlias: 'ffi',
        usesDefaultFeatures: true,
        features: [],
        target: '',
      },
      {
        name: 'tempdir',
        requirement: '^0.3',
        kind: 'dev',
        optional: false,
        packageAlias: '',
        usesDefaultFeatures: true,
        features: [],
        target: '',
      },
    ]);
    expect(body.cargo.features).toEqual([
      { name: 'v101', implies: [] },
      { name: 'v102', implies: [] },
      { name: 'v110', implies: [] },
    ]);
  });

  it('maven: the POM as declared (parent, type default jar, exclusions, properties, profiles)', async () => {
    expect(
      await json('/v3/systems/maven/packages/org.apache.logging.log4j%3Alog4j-core/versions/2.14.1:requirements'),
    ).toEqual({
      maven: {
        parent: { system: 'MAVEN', name: 'org.apache.logging.log4j:log4j', version: '2.14.1' },
        dependencies: [
          {
            name: 'org.apache.logging.log4j:log4j-api',
            version: '',
            classifier: '',
            type: 'jar',
            scope: '',
            optional: '',
            exclusions: [],
          },
          {
            name: 'org.apache.logging.log4j:log4j-api',
            version: '',
            classifier: '',
            type: 'test-jar',
            scope: 'test',
            optional: '',
            exclusions: [],
          },
          {
            name: 'com.fasterxml.jackson.core:jackson-databind',
            version: '',
            classifier: '',
            type: 'jar',
            scope: '',
            optional: 'true',
            exclusions: ['*:*'],
          },
        ],
        dependencyManagement: [],
        properties: [
          { name: 'log4jParentDir', value: '${basedir}/..' },
          { name: 'docLabel', value: 'Core Documentation' },
        ],
        repositories: [],
        profiles: [
          {
            id: 'java8-doclint-disabled',
            activation: { activeByDefault: '', jdk: { jdk: '[1.8,)' } },
            dependencies: [],
            dependencyManagement: [],
            properties: [{ name: 'javadoc.opts', value: '-Xdoclint:none' }],
            repositories: [],
          },
        ],
      },
    });
  });

  it('nuget: dependency groups', async () => {
    expect(
      (await json('/v3/systems/nuget/packages/newtonsoft.json/versions/13.0.1:requirements')).nuget.dependencyGroups,
    ).toEqual([
      {
        targetFramework: '.NETStandard1.0',
        dependencies: [
          { name: 'Microsoft.CSharp', requirement: '[4.3.0, )', include: '', exclude: '' },
          { name: 'System.Runtime.Serialization.Primitives', requirement: '[4.3.0, )', include: '', exclude: '' },
        ],
      },
      { targetFramework: '.NETFramework4.5', dependencies: [] },
    ]);
  });

  it('rubygems: runtime and development dependencies', async () => {
    expect(await json('/v3/systems/rubygems/packages/rack/versions/3.0.0:requirements')).toEqual({
      rubygems: {
        runtimeDependencies: [],
        devDependencies: [
          { name: 'minitest', requirement: '~> 5.0' },
          { name: 'rake', requirement: '>= 0' },
        ],
        platform: 'ruby',
        requiredRubyVersion: '>= 2.4.0',
        requiredRubygemsVersion: '>= 0',
      },
    });
  });

  it('go: direct and indirect requirements from go.mod', async () => {
    expect(await json('/v3/systems/go/packages/github.com%2FBurntSushi%2Ftoml/versions/v1.2.1:requirements')).toEqual({
      go: {
        directDependencies: [{ name: 'github.com/google/go-cmp', requirement: 'v0.5.8' }],
        indirectDependencies: [{ name: 'golang.org/x/text', requirement: 'v0.3.7' }],
        replaces: [{ src: { name: 'example.com/old', requirement: 'v1.0.0' }, localPath: './local' }],
        excludes: [],
      },
    });
  });
});

describe('GetVersion of the other systems', () => {
  it('nuget, rubygems and go', async () => {
    await testDb().query("DELETE FROM insights.packages WHERE system = 'NUGET' AND name = 'newtonsoft.json'"); // read from this file's mirror
    const n = await json('/v3/systems/NuGet/packages/Newtonsoft.Json/versions/13.0.1');
    expect([n.versionKey, n.publishedAt, n.licenses, n.links, n.registries]).toEqual([
      { system: 'NUGET', name: 'newtonsoft.json', version: '13.0.1' },
      '2021-03-22T20:10:38Z',
      ['MIT'],
      [{ label: 'HOMEPAGE', url: 'https://www.newtonsoft.com/json' }],
      [registryOf(upstream.env, 'NUGET')],
    ]); // read from the mirror
    const r = await json('/v3/systems/rubygems/packages/rack/versions/3.0.0');
    expect(r.relatedProjects).toEqual([
      {
        projectKey: { id: 'github.com/rack/rack' },
        relationProvenance: 'UNVERIFIED_METADATA',
        relationType: 'ISSUE_TRACKER',
      },
      {
        projectKey: { id: 'github.com/rack/rack' },
        relationProvenance: 'UNVERIFIED_METADATA',
        relationType: 'SOURCE_REPO',
      },
    ]);
    const g = await json('/v3/systems/go/packages/github.com%2FBurntSushi%2Ftoml/versions/v1.2.1');
    expect([g.isDefault, g.licenses, g.registries, g.relatedProjects]).toEqual([
      true,
      [],
      [],
      [
        {
          projectKey: { id: 'github.com/burntsushi/toml' },
          relationProvenance: 'GO_ORIGIN',
          relationType: 'SOURCE_REPO',
        },
      ],
    ]);
  });
});

describe('GetAdvisory', () => {
  it('serves the OSV record with the CVSS v3 base score (temporal metrics ignored)', async () => {
    expect(await json('/v3/advisories/GHSA-jfh8-c2jp-5v3q')).toEqual({
      advisoryKey: { id: 'GHSA-jfh8-c2jp-5v3q' },
      url: 'https://osv.dev/vulnerability/GHSA-jfh8-c2jp-5v3q',
      title: 'Remote code injection in Log4j',
      aliases: ['CVE-2021-44228'],
      cvss3Score: 10,
      cvss3Vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H/E:H',
    });
  });
  it('computes 7.2 for lodash command injection and emits defaults without a vector', async () => {
    await json('/v3/systems/npm/packages/lodash');
    expect((await json('/v3/advisories/GHSA-35jh-r3h4-6jhm')).cvss3Score).toBe(7.2);
    const none = await json('/v3/advisories/GHSA-29mw-wpgm-hmr9');
    expect([none.cvss3Score, none.cvss3Vector, none.aliases]).toEqual([0, '', []]);
  });
});

describe('advisory ranges evaluated per version', () => {
  it('lodash 4.17.21 keeps only the advisories fixed in 4.17.23', async () => {
    const v = await json('/v3/systems/npm/packages/lodash/versions/4.17.21');
    expect(v.advisoryKeys).toEqual([{ id: 'GHSA-r5fr-rjxr-66jc' }, { id: 'GHSA-xxjr-mmjv-4gpg' }]);
    const log4j = await json('/v3/systems/maven/packages/org.apache.logging.log4j:log4j-core/versions/2.17.1');
    expect(log4j.advisoryKeys).toEqual([]);
  });
});

describe('GetProject and GetProjectPackageVersions', () => {
  it('project with scorecard', async () => {
    expect(await json('/v3/projects/github.com%2FLodash%2Flodash')).toEqual({
      projectKey: { id: 'github.com/lodash/lodash' },
      openIssuesCount: 101,
      starsCount: 59000,
      forksCount: 7000,
      license: '',
      description: 'A modern JavaScript utility library delivering modularity, performance, & extras.',
      homepage: 'https://lodash.com/',
      scorecard: {
        date: '2025-11-17T00:00:00Z',
        repository: { name: 'github.com/lodash/lodash', commit: 'f299b52f39486275a9e6483b60a410e06520c538' },
        scorecard: { version: 'v5.3.0', commit: 'c22063e786c11f9dd714d777a687ff7c4599b600' },
        checks: [
          {
            name: 'Maintained',
            documentation: {
              shortDescription: 'Determines if the project is "actively maintained".',
              url: 'https://github.com/ossf/scorecard/blob/main/docs/checks.md#maintained',
            },
            score: 10,
            reason: '30 commit(s) and 2 issue activity found in the last 90 days -- score normalized to 10',
            details: [],
          },
          {
            name: 'Fuzzing',
            documentation: {
              shortDescription: 'Determines if the project uses fuzzing.',
              url: 'https://github.com/ossf/scorecard/blob/main/docs/checks.md#fuzzing',
            },
            score: -1,
            reason: 'internal error',
            details: [],
          },
        ],
        overallScore: 4.2,
        metadata: [],
      },
    });
  });
  it('package versions mapped to the project', async () => {
    await json('/v3/systems/npm/packages/lodash');
    const body = await json('/v3/projects/github.com%2Flodash%2Flodash:packageversions');
    expect(body.versions.map((v: any) => `${v.versionKey.version} ${v.relationType}`)).toEqual([
      '4.17.19 ISSUE_TRACKER',
      '4.17.19 SOURCE_REPO',
      '4.17.20 ISSUE_TRACKER',
      '4.17.20 SOURCE_REPO',
      '4.17.21 ISSUE_TRACKER',
      '4.17.21 SOURCE_REPO',
    ]);
    expect(body.versions[0]).toEqual({
      versionKey: { system: 'NPM', name: 'lodash', version: '4.17.19' },
      relationType: 'ISSUE_TRACKER',
      relationProvenance: 'UNVERIFIED_METADATA',
      slsaProvenances: [],
      attestations: [],
    });
  });
});

describe('Query', () => {
  it('by SHA1 hash (base64) and by version key', async () => {
    await json('/v3/systems/npm/packages/lodash');
    const sha1 = Buffer.from('b44a9b6297bcb698f1c51a3545a2b3b368d59c52', 'hex').toString('base64');
    const byHash = await json(`/v3/query?hash.type=SHA1&hash.value=${encodeURIComponent(sha1)}`);
    expect(byHash.results.map((r: any) => r.version.versionKey)).toEqual([
      { system: 'NPM', name: 'lodash', version: '4.17.20' },
    ]);
    const byKey = await json('/v3/query?versionKey.system=NPM&versionKey.name=lodash&versionKey.version=4.17.21');
    expect(byKey.results).toHaveLength(1);
    expect(byKey.results[0].version.isDefault).toBe(true);
    const none = await json(
      `/v3/query?hash.type=SHA1&hash.value=${encodeURIComponent(Buffer.alloc(20).toString('base64'))}`,
    );
    expect(none).toEqual({ results: [] });
  });

  it('by a version key as the registry spells the version, when that differs from its canonical form', async () => {
    // a version stored as published (one the canonicaliser did not rewrite), asked for as published
    const db = testDb();
    await db.query("DELETE FROM insights.packages WHERE system = 'NPM' AND name = 'spelled-query'");
    await db.query("INSERT INTO insights.packages (system, name) VALUES ('NPM', 'spelled-query')");
    await db.query(`INSERT INTO insights.versions (system, name, version, upstream_version, ordinal) VALUES
      ('NPM', 'spelled-query', '1.0.2beta', '1.0.2beta', 0), ('NPM', 'spelled-query', '1.0.3', '1.0.3', 1)`);
    const hit = await json(
      '/v3/query?versionKey.system=NPM&versionKey.name=spelled-query&versionKey.version=1.0.2beta',
    );
    expect(hit.results.map((r: any) => r.version.versionKey.version)).toEqual(['1.0.2beta']);
    const canonical = await json(
      '/v3/query?versionKey.system=NPM&versionKey.name=spelled-query&versionKey.version=1.0.3',
    );
    expect(canonical.results).toHaveLength(1);
    await db.query("DELETE FROM insights.packages WHERE system = 'NPM' AND name = 'spelled-query'");
  });
});

describe('v3alpha', () => {
  it('versionbatch answers in request order, unknown keys with the request only', async () => {
    await json('/v3/systems/npm/packages/lodash');
    const requests = [
      { versionKey: { system: 'NPM', name: 'lodash', version: '4.17.21' } },
      { versionKey: { system: 'NPM', name: 'lodash', version: '9.9.9' } },
      { versionKey: { system: 'npm', name: 'lodash', version: '4.17.19' } },
    ];
    const res = await api.post('/v3alpha/versionbatch', { requests });
    expect(res.status).toBe(200);
    const body: any = await res.json();
    expect(body.nextPageToken).toBe('');
    expect(body.responses.map((r: any) => [r.request, r.version?.versionKey.version ?? null])).toEqual([
      [requests[0], '4.17.21'],
      [requests[1], null],
      [{ versionKey: { ...requests[2]!.versionKey, system: 'NPM' } }, '4.17.19'], // the enum by its name
    ]);
  });
  it('versionbatch reads proto3 JSON: null as absent, original field names, unknown fields ignored', async () => {
    await json('/v3/systems/npm/packages/lodash');
    for (const body of [
      { requests: [{ versionKey: { system: 'NPM', name: 'lodash', version: '4.17.21' } }], pageToken: null },
      {
        requests: [{ version_key: { system: 'NPM', name: 'lodash', version: '4.17.21' }, comment: 'x' }],
        page_token: null,
        unknown: { a: 1 },
      },
    ]) {
      const res = await api.post('/v3alpha/versionbatch', body);
      expect(res.status).toBe(200);
      const got: any = await res.json();
      expect(got.responses.map((r: any) => r.version?.versionKey.version)).toEqual(['4.17.21']);
    }
    const bad = await api.post('/v3alpha/versionbatch', { requests: null });
    expect(bad.status).toBe(400);
  });
  it('purl for a version and a package', async () => {
    // read through here, from this file's mirror (another suite may have stored the package from its own)
    await testDb().query("DELETE FROM insights.packages WHERE system = 'NPM' AND name = '@colors/colors'");
    const v = await json('/v3alpha/purl/pkg%3Anpm%2F%2540colors%2Fcolors%401.5.0');
    expect(v.version.versionKey).toEqual({ system: 'NPM', name: '@colors/colors', version: '1.5.0' });
    // ORIGIN names the registry the version was read from (the loopback mirror here)
    expect(v.version.links[2]).toEqual({
      label: 'ORIGIN',
      url: `${registryOf(upstream.env, 'NPM')}@colors%2Fcolors/1.5.0`,
    });
    expect(v.version.registries).toEqual([registryOf(upstream.env, 'NPM')]);
    const p = await json('/v3alpha/purl/pkg%3Apypi%2FDjango');
    expect(p.package.packageKey).toEqual({ system: 'PYPI', name: 'django' });
  });
});

describe('errors', () => {
  it.each([
    ['/v3/systems/cobol/packages/x', 400],
    ['/v3/systems/npm/packages/%E0%A4%A', 400],
    ['/v3/systems/maven/packages/no-colon', 400],
    ['/v3/systems/npm/packages/does-not-exist', 404],
    ['/v3/systems/npm/packages/lodash/versions/1.0.0', 404],
    ['/v3/systems/npm/packages/lodash/versions/1.0.0:dependencies', 404],
    ['/v3/systems/nuget/packages/newtonsoft.json/versions/0.0.1:dependencies', 404],
    ['/v3/advisories/GHSA-0000-0000-0000', 404],
    ['/v3/advisories/%20bad', 400],
    ['/v3/projects/example.com%2Fa%2Fb', 400],
    ['/v3/projects/github.com%2Fnobody%2Fnothing', 404],
    ['/v3/query', 400],
    ['/v3/query?hash.type=SHA3&hash.value=AA', 400],
    ['/v3/query?hash.type=SHA1&hash.value=%%%', 400],
    ['/v3alpha/purl/pkg%3Anpm%2Flodash%3F%3Dbar', 400],
    ['/v3alpha/purl/pkg%3Acobol%2Fx', 400],
  ])('%s -> %i {"error"}', async (path, status) => {
    const res = await api.get(path);
    expect(res.status).toBe(status);
    const body: any = await res.json();
    expect(Object.keys(body)).toEqual(['error']);
    expect(typeof body.error).toBe('string');
  });
  it.each([
    ['/v3/systems/npm/packages/lodash/versions/4.17.21:dependents', ':dependents', 'a version'],
    ['/v3alpha/systems/npm/packages/lodash/versions/4.17.21:dependentCount', ':dependentCount', 'a version'],
    [
      '/v3/systems/go/packages/github.com%2Fburntsushi%2Ftoml/versions/v1.3.2:capabilities',
      ':capabilities',
      'a version',
    ],
    ['/v3/systems/npm/packages/lodash/versions/4.17.21:nonsense', ':nonsense', 'a version'],
    ['/v3/systems/npm/packages/lodash:similarlyNamedPackages', ':similarlyNamedPackages', 'a package'],
    ['/v3/systems/npm/packages/%40colors%2Fcolors:findings', ':findings', 'a package'],
    ['/v3alpha/systems/npm/packages/%40colors%2Fcolors:finding', ':finding', 'a package'],
    [
      '/v3/systems/maven/packages/org.apache.logging.log4j%3Alog4j-core%3AsimilarlyNamedPackages',
      ':similarlyNamedPackages',
      'a package',
    ],
  ])('%s -> 404 naming the method, not a missing version', async (path, method, on) => {
    const res = await api.get(path);
    expect(res.status).toBe(404);
    const body = (await res.json()) as { error: string };
    expect(body.error).toContain(`no such method "${method}" on ${on}`);
    expect(body.error).not.toMatch(/not found/);
  });
  it('a Maven name keeps its one colon, and the methods the service serves still answer', async () => {
    expect((await api.get('/v3/systems/maven/packages/org.apache.logging.log4j%3Alog4j-core')).status).toBe(200);
    expect((await api.get('/v3/systems/npm/packages/lodash/versions/4.17.21:requirements')).status).toBe(200);
  });
  it('versionbatch validates its body', async () => {
    const res = await api.post('/v3alpha/versionbatch', { requests: [] });
    expect(res.status).toBe(400);
    expect(typeof ((await res.json()) as any).error).toBe('string');
  });
});
