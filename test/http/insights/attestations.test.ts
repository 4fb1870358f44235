/**
 * npm SLSA provenance read from the packument's `dist.attestations` document (fixture: gundam-visor
 * 1.0.1, whose in-toto statements are the ones slsa-verifier documents; Sigstore material left
 * out), served in GetVersion, as an attestation-derived related project, and first in
 * GetProjectPackageVersions; Maven artifact hashes from the `.sha1`/`.md5` files next to the POM.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import insights from '../../../functions/insights.ts';
import { testEnv, workerClient } from '../../support/env.ts';
import { startFixtureServer, type FixtureServer } from '../../fixtures/insights/server.ts';

let upstream: FixtureServer;
let api: ReturnType<typeof workerClient>;
beforeAll(async () => {
  upstream = await startFixtureServer();
  api = workerClient(insights, testEnv(upstream.env));
});
afterAll(() => upstream.close());

async function json(path: string): Promise<any> {
  const res = await api.get(path);
  expect({ path, status: res.status }).toEqual({ path, status: 200 });
  return res.json();
}

const URL_ = 'https://registry.npmjs.org/-/npm/v1/attestations/gundam-visor@1.0.1';
const REPO = 'https://github.com/ramonpetgrave64/gundam-visor';
const COMMIT = '599500821344b070902a7a5666064bfdaba715df';
const SLSA = [{ sourceRepository: REPO, commit: COMMIT, url: URL_, verified: false }];
const ATTESTATIONS = [{ type: 'https://slsa.dev/provenance/v1', url: URL_, verified: false, sourceRepository: REPO, commit: COMMIT }];

describe('npm provenance', () => {
  it('GetVersion emits slsaProvenances, attestations and the attested project', async () => {
    const v = await json('/v3/systems/npm/packages/gundam-visor/versions/1.0.1');
    expect([v.slsaProvenances, v.attestations, v.relatedProjects]).toEqual([SLSA, ATTESTATIONS,
      [{ projectKey: { id: 'github.com/ramonpetgrave64/gundam-visor' }, relationProvenance: 'SLSA_ATTESTATION', relationType: 'SOURCE_REPO' }]]);
    expect(upstream.hits.get('/npm/-/npm/v1/attestations/gundam-visor@1.0.1')).toBe(1);
  });

  it('GetProjectPackageVersions carries them', async () => {
    await json('/v3/systems/npm/packages/gundam-visor');
    expect(await json('/v3/projects/github.com%2Framonpetgrave64%2Fgundam-visor:packageversions')).toEqual({
      versions: [{ versionKey: { system: 'NPM', name: 'gundam-visor', version: '1.0.1' }, relationType: 'SOURCE_REPO',
        relationProvenance: 'SLSA_ATTESTATION', slsaProvenances: SLSA, attestations: ATTESTATIONS }],
    });
  });

  it('Query by the SHA512 of dist.integrity finds it', async () => {
    await json('/v3/systems/npm/packages/gundam-visor');
    const sha512 = Buffer.from('8d9d7972f676516c75014aa074e11ae604d98f0b64ec6725a61e2838ff3dab162118fa71433fb31e1550d30bd0dec9d086ce032b94457b583900c507acf39c40', 'hex').toString('base64');
    const body = await json(`/v3/query?hash.type=SHA512&hash.value=${encodeURIComponent(sha512)}`);
    expect(body.results.map((r: any) => [r.version.versionKey, r.version.attestations.length])).toEqual([[{ system: 'NPM', name: 'gundam-visor', version: '1.0.1' }, 1]]);
  });

  it('versions without dist.attestations fetch no document and stay empty', async () => {
    const v = await json('/v3/systems/npm/packages/lodash/versions/4.17.21');
    expect([v.slsaProvenances, v.attestations]).toEqual([[], []]);
    expect([...upstream.hits.keys()].filter((k) => k.includes('/attestations/') && !k.includes('gundam-visor'))).toEqual([]);
  });
});
