/** Reading SLSA provenance and PyPI publish attestations (statements written from the SLSA v0.2/v1 and PEP 740 specs); Maven checksum files. */
import { describe, expect, it } from 'vitest';
import {
  decodeStatement,
  npmAttestationsFromDocument,
  pypiAttestationsFromProvenance,
  repositoryFromUri,
  slsaSource,
} from '../../../src/insights/ingest/attestations.ts';
import { artifactExtension, checksumHex } from '../../../src/insights/ingest/maven.ts';
import { relatedProjectsFromAttestations } from '../../../src/insights/ingest/project-links.ts';

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64');
const C = 'a'.repeat(40);

describe('slsaSource', () => {
  it.each([
    [
      'v1 GitHub workflow',
      {
        predicateType: 'https://slsa.dev/provenance/v1',
        predicate: {
          buildDefinition: {
            externalParameters: { workflow: { repository: 'https://github.com/o/r', ref: 'refs/heads/main' } },
            resolvedDependencies: [
              { uri: 'git+https://github.com/other/x@refs/heads/main', digest: { gitCommit: 'b'.repeat(40) } },
              { uri: 'git+https://github.com/o/r@refs/heads/main', digest: { gitCommit: C } },
            ],
          },
        },
      },
      { type: 'https://slsa.dev/provenance/v1', sourceRepository: 'https://github.com/o/r', commit: C },
    ],
    [
      'v1 without workflow: repository from the resolved dependency',
      {
        predicateType: 'https://slsa.dev/provenance/v1',
        predicate: {
          buildDefinition: {
            externalParameters: {},
            resolvedDependencies: [{ uri: 'git+https://gitlab.com/g/p.git@refs/tags/v2', digest: { gitCommit: C } }],
          },
        },
      },
      { type: 'https://slsa.dev/provenance/v1', sourceRepository: 'https://gitlab.com/g/p', commit: C },
    ],
    [
      'v0.2 configSource',
      {
        predicateType: 'https://slsa.dev/provenance/v0.2',
        predicate: {
          invocation: {
            configSource: {
              uri: 'git+https://github.com/o/r@refs/heads/main',
              digest: { sha1: C },
              entryPoint: '.github/workflows/p.yml',
            },
          },
        },
      },
      { type: 'https://slsa.dev/provenance/v0.2', sourceRepository: 'https://github.com/o/r', commit: C },
    ],
    [
      'v0.2 materials only',
      {
        predicateType: 'https://slsa.dev/provenance/v0.2',
        predicate: { materials: [{ uri: 'git+https://github.com/o/r', digest: { sha1: C } }] },
      },
      { type: 'https://slsa.dev/provenance/v0.2', sourceRepository: 'https://github.com/o/r', commit: C },
    ],
    [
      'v1 empty predicate',
      { predicateType: 'https://slsa.dev/provenance/v1' },
      { type: 'https://slsa.dev/provenance/v1', sourceRepository: '', commit: '' },
    ],
    [
      'npm publish attestation',
      { predicateType: 'https://github.com/npm/attestation/tree/main/specs/publish/v0.1', predicate: { name: 'x' } },
      null,
    ],
  ])('%s', (_, stmt, want) => {
    expect(slsaSource(stmt)).toEqual(want);
  });
});

describe('decoding', () => {
  it.each([
    [b64({ predicateType: 'x' }), { predicateType: 'x' }],
    [b64({ a: '??>>' }).replace(/\+/g, '-').replace(/\//g, '_'), { a: '??>>' }],
    ['not base64 !', null],
    [b64([1, 2]), null],
    [42, null],
  ])('decodeStatement(%s)', (input, want) => {
    expect(decodeStatement(input)).toEqual(want);
  });
  it.each([
    ['git+https://github.com/o/r@refs/tags/v1', 'https://github.com/o/r'],
    ['https://github.com/o/r.git', 'https://github.com/o/r'],
    ['https://user@github.com/o/r@main', 'https://user@github.com/o/r'],
    ['github.com/o/r', 'github.com/o/r'],
  ])('repositoryFromUri(%s)', (uri, want) => {
    expect(repositoryFromUri(uri)).toEqual(want);
  });

  it('npm document: SLSA entries only, each with the document url, unverified', () => {
    const doc = {
      attestations: [
        {
          predicateType: 'https://github.com/npm/attestation/tree/main/specs/publish/v0.1',
          bundle: {
            dsseEnvelope: {
              payload: b64({ predicateType: 'https://github.com/npm/attestation/tree/main/specs/publish/v0.1' }),
            },
          },
        },
        {
          predicateType: 'https://slsa.dev/provenance/v1',
          bundle: {
            dsseEnvelope: {
              payload: b64({
                predicateType: 'https://slsa.dev/provenance/v0.2',
                predicate: {
                  invocation: {
                    configSource: { uri: 'git+https://github.com/o/r@refs/heads/main', digest: { sha1: C } },
                  },
                },
              }),
            },
          },
        },
        { predicateType: 'https://slsa.dev/provenance/v1', bundle: { dsseEnvelope: { payload: '!!' } } },
      ],
    };
    const { document, ...read } = npmAttestationsFromDocument(doc, 'U');
    expect(document).toBe(doc); // kept for the Sigstore check (attestation-checks.ts)
    expect(read).toEqual({
      slsaProvenances: [{ sourceRepository: 'https://github.com/o/r', commit: C, url: 'U', verified: false }],
      attestations: [
        {
          type: 'https://slsa.dev/provenance/v0.2',
          url: 'U',
          verified: false,
          sourceRepository: 'https://github.com/o/r',
          commit: C,
        },
      ],
    });
    const { document: _kept, ...none } = npmAttestationsFromDocument({}, 'U');
    expect(none).toEqual({ slsaProvenances: [], attestations: [] });
  });

  it('PyPI provenance: publish attestations with the Trusted Publisher repository', () => {
    const statement = b64({
      _type: 'https://in-toto.io/Statement/v1',
      predicateType: 'https://docs.pypi.org/attestations/publish/v1',
      predicate: null,
    });
    const doc = {
      version: 1,
      attestation_bundles: [
        {
          publisher: { kind: 'GitHub', repository: 'o/r', workflow: 'release.yml' },
          attestations: [{ version: 1, envelope: { statement, signature: 'x' } }],
        },
        { publisher: { kind: 'Google', email: 'a@b' }, attestations: [{ envelope: { statement } }] },
        {
          publisher: { kind: 'GitLab', repository: 'g/p' },
          attestations: [{ envelope: { statement: b64({ predicateType: 'https://slsa.dev/provenance/v1' }) } }],
        },
      ],
    };
    expect(pypiAttestationsFromProvenance(doc, 'U')).toEqual([
      {
        type: 'https://docs.pypi.org/attestations/publish/v1',
        url: 'U',
        verified: false,
        sourceRepository: 'https://github.com/o/r',
        commit: '',
      },
      {
        type: 'https://docs.pypi.org/attestations/publish/v1',
        url: 'U',
        verified: false,
        sourceRepository: '',
        commit: '',
      },
    ]);
  });
});

describe('relatedProjectsFromAttestations', () => {
  it('one SOURCE_REPO relation per repository, SLSA over PyPI publish provenance', () => {
    const slsa = { sourceRepository: 'https://github.com/O/R', commit: C, url: 'U', verified: false };
    const att = (type: string, repo: string) => ({
      type,
      url: 'U',
      verified: false,
      sourceRepository: repo,
      commit: '',
    });
    expect(
      relatedProjectsFromAttestations({
        slsaProvenances: [slsa],
        attestations: [
          att('https://slsa.dev/provenance/v1', 'https://github.com/o/r'),
          att('https://docs.pypi.org/attestations/publish/v1', 'https://gitlab.com/g/p'),
          att('x', 'https://example.com/a/b'),
        ],
      }),
    ).toEqual([
      {
        projectId: 'github.com/o/r',
        relationType: 'SOURCE_REPO',
        relationProvenance: 'SLSA_ATTESTATION',
        slsaProvenances: [slsa],
        attestations: [att('https://slsa.dev/provenance/v1', 'https://github.com/o/r')],
      },
      {
        projectId: 'gitlab.com/g/p',
        relationType: 'SOURCE_REPO',
        relationProvenance: 'PYPI_PUBLISH_ATTESTATION',
        slsaProvenances: [],
        attestations: [att('https://docs.pypi.org/attestations/publish/v1', 'https://gitlab.com/g/p')],
      },
    ]);
  });
});

describe('Maven checksum files', () => {
  it.each([
    ['9141212b8507ab50a45525b545b39d224614528b', 40, '9141212b8507ab50a45525b545b39d224614528b'],
    [
      '9141212B8507AB50A45525B545B39D224614528B  log4j-core-2.14.1.jar\n',
      40,
      '9141212b8507ab50a45525b545b39d224614528b',
    ],
    ['948dda787593340a7af1a18e328b7b7f', 32, '948dda787593340a7af1a18e328b7b7f'],
    ['948dda787593340a7af1a18e328b7b7f', 40, null],
    ['<html>not found</html>', 40, null],
    ['', 32, null],
  ])('checksumHex(%j, %i)', (text, len, want) => {
    expect(checksumHex(text, len)).toBe(want);
  });
  it.each([
    ['jar', 'jar'],
    ['', 'jar'],
    ['bundle', 'jar'],
    ['maven-plugin', 'jar'],
    ['pom', 'pom'],
    ['war', 'war'],
    ['aar', 'aar'],
  ])('packaging %j -> .%s', (packaging, ext) => {
    expect(artifactExtension(packaging)).toBe(ext);
  });
});
