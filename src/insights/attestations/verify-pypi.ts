/**
 * `verified` of a PyPI provenance object (PEP 740, the integrity API's answer for one file): true
 * only when every attestation of every bundle verifies as a Sigstore bundle (the PEP 740 attestation
 * is turned into a v0.3 bundle: its certificate, transparency entries and DSSE envelope with the
 * statement as in-toto payload), names the file with its sha256 (the JSON API's `digests.sha256`),
 * and was signed by the bundle's Trusted Publisher as PyPI records it:
 *  - GitHub: issuer GitHub Actions, certificate repository `https://github.com/<repository>` and a
 *    workflow identity (SAN) of that repository's `.github/workflows/<workflow>`;
 *  - GitLab: issuer gitlab.com, certificate repository `https://gitlab.com/<repository>`;
 *  - Google: issuer accounts.google.com, SAN equal to the publisher's `email`.
 * The publisher comes from PyPI's answer, outside the signed bundle, so a certificate of another
 * repository fails. An object with no attestation is not verified.
 */
import { GITHUB_ISSUER, GITLAB_ISSUER, GOOGLE_ISSUER, repositoryKey, signerIdentity } from './identity.ts';
import type { SignerIdentity } from './identity.ts';
import { verifyBundle } from './verify-bundle.ts';
import type { TrustData } from './trust.ts';
import { readDocument, type Verdict } from './verify-npm.ts';
import { type Pep740Attestation, type Publisher, PypiProvenance } from '../ingest/attestations.ts';

export interface PypiFile {
  filename: string;
  sha256Hex: string;
}

/** A PEP 740 attestation as the Sigstore bundle it is. */
export function pep740Bundle(att: Pep740Attestation): unknown {
  const vm = att?.verification_material ?? {};
  return {
    mediaType: 'application/vnd.dev.sigstore.bundle.v0.3+json',
    verificationMaterial: { certificate: { rawBytes: vm.certificate }, tlogEntries: vm.transparency_entries ?? [] },
    dsseEnvelope: {
      payload: att?.envelope?.statement,
      payloadType: 'application/vnd.in-toto+json',
      signatures: [{ sig: att?.envelope?.signature, keyid: '' }],
    },
  };
}

function str(x: unknown): string {
  return typeof x === 'string' ? x : '';
}

/** null when the signer is the publisher, else why not. */
export function publisherMismatch(publisher: Publisher | null | undefined, id: SignerIdentity): string | null {
  const kind = str(publisher?.kind).toLowerCase();
  const repo = str(publisher?.repository);
  if (kind === 'github') {
    if (id.issuer !== GITHUB_ISSUER) return `issuer ${id.issuer} is not GitHub Actions`;
    if (!repo || repositoryKey(id.repository) !== repositoryKey(`https://github.com/${repo}`))
      return `signed by ${id.repository}, the publisher is ${repo}`;
    const workflow = str(publisher?.workflow);
    const prefix = `${id.repository}/.github/workflows/`;
    if (!id.san.toLowerCase().startsWith(prefix.toLowerCase())) return `workflow identity ${id.san} is not of ${repo}`;
    if (workflow && id.san.slice(prefix.length).split('@')[0] !== workflow)
      return `workflow identity ${id.san} is not the publisher's ${workflow}`;
    return null;
  }
  if (kind === 'gitlab') {
    if (id.issuer !== GITLAB_ISSUER) return `issuer ${id.issuer} is not GitLab`;
    if (!repo || repositoryKey(id.repository) !== repositoryKey(`https://gitlab.com/${repo}`))
      return `signed by ${id.repository}, the publisher is ${repo}`;
    return null;
  }
  if (kind === 'google') {
    if (id.issuer !== GOOGLE_ISSUER) return `issuer ${id.issuer} is not Google's`;
    return str(publisher?.email) && id.san === publisher?.email
      ? null
      : `signed by ${id.san}, the publisher is ${publisher?.email}`;
  }
  return `unknown publisher kind ${kind || '(none)'}`;
}

export function verifyPypiProvenance(doc: unknown, file: PypiFile, trust?: TrustData): Verdict {
  const read = readDocument(PypiProvenance, doc, 'the provenance object');
  if ('verdict' in read) return read.verdict;
  const bundles = read.doc.attestation_bundles ?? [];
  if (!/^[0-9a-f]{64}$/i.test(file.sha256Hex)) return { verified: false, reason: 'no sha256 of the file is known' };
  const subject = { name: (n: string) => n === file.filename, algorithm: 'sha256' as const, hex: file.sha256Hex };
  let seen = 0;
  for (const b of bundles) {
    for (const att of b.attestations ?? []) {
      seen++;
      const r = verifyBundle(pep740Bundle(att), subject, trust);
      if (!r.ok) return { verified: false, reason: r.reason };
      const wrong = publisherMismatch(b.publisher, signerIdentity(r.signer));
      if (wrong) return { verified: false, reason: wrong };
    }
  }
  return seen ? { verified: true, reason: '' } : { verified: false, reason: 'no attestation' };
}
