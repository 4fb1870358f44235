/**
 * `verified` of an npm attestations document (`/-/npm/v1/attestations/<name>@<version>`): true only
 * when
 *  - its SLSA provenance bundle (v0.2 or v1) verifies (verify-bundle.ts) and its subject is
 *    `pkg:npm/<name>@<version>` with the tarball's sha512 (the packument's `dist.integrity`);
 *  - the certificate's OIDC issuer is the CI provider's (GitHub Actions or GitLab) and the repository
 *    it names is the one the statement names, and is the package version's declared `repository`
 *    (compared as `host/owner/name`, exactly), or a declared repository that moved: see
 *    `sameRepository` (the caller asks the provider, never the bundle);
 *  - npm's publish attestation of the same document verifies under the registry's key valid at its
 *    signing time, for the same subject and digest. A document without it is not verified.
 * Otherwise false, with the first reason found.
 */
import type * as z from 'zod';
import { PUBLISH_V01 } from './kinds.ts';
import { GITHUB_ISSUER, GITLAB_ISSUER, repositoryKey, signerIdentity, type SignerIdentity } from './identity.ts';
import { verifyBundle, type Subject } from './verify-bundle.ts';
import type { TrustData } from './trust.ts';
import { NpmAttestationsDoc, predicateOf, SLSA_TYPES, slsaSource, type Statement } from '../ingest/attestations.ts';
import { parseUpstream } from '../ingest/upstream-doc.ts';

export interface NpmArtifact {
  name: string;
  version: string;
  sha512Hex: string;
  /** The version's declared `repository` URL (the packument's), null when it declares none. */
  declaredRepository: string | null;
}

export interface Verdict {
  verified: boolean;
  reason: string;
}

/** Whether the declared repository is now the signed one (a moved repository); asked of the provider. */
export type SameRepository = (declared: string, signed: SignerIdentity) => Promise<boolean>;

const CI_ISSUERS = [GITHUB_ISSUER, GITLAB_ISSUER];

/** The repository id the signed statement records (GitHub), '' when it records none. */
function statementRepositoryId(statement: Statement): string {
  const p = predicateOf(statement);
  const id =
    p.invocation?.environment?.GITHUB_REPOSITORY_ID ?? p.buildDefinition?.internalParameters?.github?.repository_id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : '';
}

function npmSubject(a: NpmArtifact): Subject {
  const purl = `pkg:npm/${a.name}@${a.version}`;
  const name = (n: string) => {
    try {
      return decodeURIComponent(n) === purl;
    } catch {
      return false;
    }
  };
  return { name, algorithm: 'sha512', hex: a.sha512Hex };
}

async function checkIdentity(
  identity: SignerIdentity,
  statement: Statement,
  a: NpmArtifact,
  sameRepository: SameRepository,
): Promise<string | null> {
  if (!CI_ISSUERS.includes(identity.issuer)) return `certificate issuer ${identity.issuer} is no CI provider's`;
  const signed = repositoryKey(identity.repository);
  if (!signed) return 'the certificate names no source repository';
  const stated = repositoryKey(slsaSource(statement)?.sourceRepository);
  if (stated !== signed) return `the statement names ${stated || 'no repository'}, the certificate ${signed}`;
  const declared = repositoryKey(a.declaredRepository);
  if (!declared) return 'the version declares no source repository';
  if (declared === signed) return null;
  const withId = { ...identity, repositoryId: identity.repositoryId || statementRepositoryId(statement) };
  if (await sameRepository(a.declaredRepository!, withId)) return null;
  return `signed by ${signed}, which is not the declared repository ${declared}`;
}

/**
 * `doc` as `schema` reads it, or the verdict naming the field that does not fit (parseUpstream's
 * message): a malformed document is not verified, and the check that read it is done.
 */
export function readDocument<S extends z.ZodType>(
  schema: S,
  doc: unknown,
  what: string,
): { doc: z.output<S> } | { verdict: Verdict } {
  try {
    return { doc: parseUpstream(schema, doc, what) };
  } catch (err) {
    return { verdict: { verified: false, reason: (err as Error).message } };
  }
}

export async function verifyNpmDocument(
  doc: unknown,
  a: NpmArtifact,
  sameRepository: SameRepository,
  trust?: TrustData,
): Promise<Verdict> {
  const read = readDocument(NpmAttestationsDoc, doc, 'the attestations document');
  if ('verdict' in read) return read.verdict;
  const list = read.doc.attestations ?? [];
  const slsa = list.find((x) => SLSA_TYPES.includes(x.predicateType ?? ''));
  const publish = list.find((x) => x.predicateType === PUBLISH_V01);
  if (!slsa) return { verified: false, reason: 'no SLSA provenance bundle' };
  if (!/^[0-9a-f]{128}$/i.test(a.sha512Hex)) return { verified: false, reason: 'no sha512 of the tarball is known' };
  const subject = npmSubject(a);
  const prov = verifyBundle(slsa.bundle, subject, trust);
  if (!prov.ok) return { verified: false, reason: `provenance: ${prov.reason}` };
  const wrong = await checkIdentity(signerIdentity(prov.signer), prov.statement, a, sameRepository);
  if (wrong) return { verified: false, reason: `provenance: ${wrong}` };
  if (!publish) return { verified: false, reason: 'no npm publish attestation' };
  const pub = verifyBundle(publish.bundle, subject, trust);
  if (!pub.ok) return { verified: false, reason: `publish attestation: ${pub.reason}` };
  return { verified: true, reason: '' };
}
