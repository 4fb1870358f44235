/**
 * npm SLSA provenance read from the packument's `dist.attestations` document (fixture: gundam-visor
 * 1.0.1, whose in-toto statements are the ones slsa-verifier documents; Sigstore material left
 * out), served in GetVersion, as an attestation-derived related project, and first in
 * GetProjectPackageVersions; Maven artifact hashes from the `.sha1`/`.md5` files next to the POM.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { testDb } from '../../support/env.ts';
import { json, upstream, useFixtureUpstream } from '../../fixtures/insights/harness.ts';

beforeAll(async () => {
  // Other files (osv-bulk) may have ingested gundam-visor from their own fixture server already;
  // start from a database that has never seen it, so this file observes its first ingestion.
  await testDb().query("DELETE FROM insights.packages WHERE system = 'NPM' AND name = 'gundam-visor'");
  await testDb().query("DELETE FROM insights.source_reads WHERE system = 'NPM' AND name = 'gundam-visor'");
});
useFixtureUpstream();

const URL_ = 'https://registry.npmjs.org/-/npm/v1/attestations/gundam-visor@1.0.1';
const REPO = 'https://github.com/ramonpetgrave64/gundam-visor';
const COMMIT = '599500821344b070902a7a5666064bfdaba715df';
const SLSA = [{ sourceRepository: REPO, commit: COMMIT, url: URL_, verified: false }];
const ATTESTATIONS = [
  { type: 'https://slsa.dev/provenance/v1', url: URL_, verified: false, sourceRepository: REPO, commit: COMMIT },
];

describe('npm provenance', () => {
  it('GetVersion emits slsaProvenances, attestations and the attested project', async () => {
    const v = await json('/v3/systems/npm/packages/gundam-visor/versions/1.0.1');
    expect([v.slsaProvenances, v.attestations, v.relatedProjects]).toEqual([
      SLSA,
      ATTESTATIONS,
      [
        {
          projectKey: { id: 'github.com/ramonpetgrave64/gundam-visor' },
          relationProvenance: 'SLSA_ATTESTATION',
          relationType: 'SOURCE_REPO',
        },
      ],
    ]);
    expect(upstream.hits.get('/npm/-/npm/v1/attestations/gundam-visor@1.0.1')).toBe(1);
  });

  it('GetProjectPackageVersions carries them', async () => {
    await json('/v3/systems/npm/packages/gundam-visor');
    expect(await json('/v3/projects/github.com%2Framonpetgrave64%2Fgundam-visor:packageversions')).toEqual({
      versions: [
        {
          versionKey: { system: 'NPM', name: 'gundam-visor', version: '1.0.1' },
          relationType: 'SOURCE_REPO',
          relationProvenance: 'SLSA_ATTESTATION',
          slsaProvenances: SLSA,
          attestations: ATTESTATIONS,
        },
      ],
    });
  });

  it('Query by the SHA512 of dist.integrity finds it', async () => {
    await json('/v3/systems/npm/packages/gundam-visor');
    const sha512 = Buffer.from(
      '8d9d7972f676516c75014aa074e11ae604d98f0b64ec6725a61e2838ff3dab162118fa71433fb31e1550d30bd0dec9d086ce032b94457b583900c507acf39c40',
      'hex',
    ).toString('base64');
    const body = await json(`/v3/query?hash.type=SHA512&hash.value=${encodeURIComponent(sha512)}`);
    expect(body.results.map((r: any) => [r.version.versionKey, r.version.attestations.length])).toEqual([
      [{ system: 'NPM', name: 'gundam-visor', version: '1.0.1' }, 1],
    ]);
  });

  it('versions without dist.attestations fetch no document and stay empty', async () => {
    const v = await json('/v3/systems/npm/packages/lodash/versions/4.17.21');
    expect([v.slsaProvenances, v.attestations]).toEqual([[], []]);
    expect(
      [...upstream.hits.keys()].filter((k) => k.includes('/attestations/') && !k.includes('gundam-visor')),
    ).toEqual([]);
  });
});

describe('PyPI publish attestations (PEP 740 integrity API)', () => {
  const url = 'https://pypi.org/integrity/attest-demo/1.0.0/attest_demo-1.0.0-py3-none-any.whl/provenance';
  it("GetVersion lists the wheel's attestation and the attested project; older files are not asked for", async () => {
    const v = await json('/v3/systems/pypi/packages/attest-demo/versions/1.0.0');
    expect([v.slsaProvenances, v.attestations, v.relatedProjects]).toEqual([
      [],
      [
        {
          type: 'https://docs.pypi.org/attestations/publish/v1',
          url,
          verified: false,
          sourceRepository: 'https://github.com/example/attest-demo',
          commit: '',
        },
      ],
      [
        {
          projectKey: { id: 'github.com/example/attest-demo' },
          relationProvenance: 'PYPI_PUBLISH_ATTESTATION',
          relationType: 'SOURCE_REPO',
        },
      ],
    ]);
    const old = await json('/v3/systems/pypi/packages/attest-demo/versions/0.9.0');
    expect([old.attestations, old.relatedProjects]).toEqual([
      [],
      [
        {
          projectKey: { id: 'github.com/example/attest-demo' },
          relationProvenance: 'UNVERIFIED_METADATA',
          relationType: 'SOURCE_REPO',
        },
      ],
    ]);
    expect([...upstream.hits.keys()].filter((k) => k.startsWith('/pypi/integrity/')).sort()).toEqual([
      '/pypi/integrity/attest-demo/1.0.0/attest_demo-1.0.0-py3-none-any.whl/provenance',
      '/pypi/integrity/attest-demo/1.0.0/attest_demo-1.0.0.tar.gz/provenance',
    ]);
  });

  it('GetProjectPackageVersions serves the attested version first', async () => {
    await json('/v3/systems/pypi/packages/attest-demo');
    const body = await json('/v3/projects/github.com%2Fexample%2Fattest-demo:packageversions');
    expect(body.versions.map((v: any) => [v.versionKey.version, v.relationProvenance, v.attestations.length])).toEqual([
      ['1.0.0', 'PYPI_PUBLISH_ATTESTATION', 1],
      ['0.9.0', 'UNVERIFIED_METADATA', 0],
    ]);
  });
});

describe('Maven artifact hashes', () => {
  it.each([
    ['SHA1', '9141212b8507ab50a45525b545b39d224614528b'],
    ['MD5', '948dda787593340a7af1a18e328b7b7f'],
  ])('Query by the %s in the checksum file beside the POM', async (type, hex) => {
    await json('/v3/systems/maven/packages/org.apache.logging.log4j:log4j-core');
    const body = await json(
      `/v3/query?hash.type=${type}&hash.value=${encodeURIComponent(Buffer.from(hex, 'hex').toString('base64'))}`,
    );
    expect(body.results.map((r: any) => r.version.versionKey)).toEqual([
      { system: 'MAVEN', name: 'org.apache.logging.log4j:log4j-core', version: '2.14.1' },
    ]);
  });

  it('stores one jar artifact for 2.14.1 and none for 2.17.1 (no checksum files)', async () => {
    await json('/v3/systems/maven/packages/org.apache.logging.log4j:log4j-core');
    const rows = await testDb().query<{ version: string; url: string; hash_type: string; hex: string }>(
      `SELECT version, url, hash_type, encode(hash_value, 'hex') AS hex FROM insights.artifacts
       WHERE system = 'MAVEN' AND name = 'org.apache.logging.log4j:log4j-core' ORDER BY version, hash_type`,
    );
    const url = 'https://repo.maven.apache.org/maven2/org/apache/logging/log4j/log4j-core/2.14.1/log4j-core-2.14.1.jar';
    expect(rows).toEqual([
      { version: '2.14.1', url, hash_type: 'MD5', hex: '948dda787593340a7af1a18e328b7b7f' },
      { version: '2.14.1', url, hash_type: 'SHA1', hex: '9141212b8507ab50a45525b545b39d224614528b' },
    ]);
  });
});
