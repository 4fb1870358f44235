/**
 * Who signed a Sigstore bundle, read from the Fulcio certificate the verifier accepted: the OIDC
 * issuer, the subject alternative name (the workflow identity) and the source repository. The
 * repository is Fulcio's `Source Repository URI` extension (1.3.6.1.4.1.57264.1.12) where the
 * certificate has it; certificates issued before that extension existed (early 2023) carry GitHub's
 * `owner/repo` (1.3.6.1.4.1.57264.1.5), else the repository is the SAN's path before
 * `/.github/workflows/` (GitHub) or `//` (GitLab). The repository's numeric id comes from 1.1.15
 * (`Source Repository Identifier`) when present.
 */
import type { Signer } from '@sigstore/verify';

export const GITHUB_ISSUER = 'https://token.actions.githubusercontent.com';
export const GITLAB_ISSUER = 'https://gitlab.com';
export const GOOGLE_ISSUER = 'https://accounts.google.com';

const OID_SOURCE_REPO_URI = '1.3.6.1.4.1.57264.1.12';
const OID_SOURCE_REPO_ID = '1.3.6.1.4.1.57264.1.15';
const OID_GITHUB_REPOSITORY_V1 = '1.3.6.1.4.1.57264.1.5';

export interface SignerIdentity {
  issuer: string;
  san: string;
  /** `https://host/owner/name` (as the certificate spells it), '' when none can be read. */
  repository: string;
  /** The repository's numeric id at the CI provider, '' when the certificate does not carry it. */
  repositoryId: string;
}

/** A v2 Fulcio extension is a DER UTF8String inside the OCTET STRING; a v1 extension is the raw text. */
function extensionText(value: Buffer, der: boolean): string {
  if (!der) return value.toString('utf8');
  if (value[0] !== 0x0c || value.length < 2) return '';
  const first = value[1]!;
  if (first < 0x80) return value.subarray(2, 2 + first).toString('utf8');
  const n = first & 0x7f;
  let len = 0;
  for (let i = 0; i < n; i++) len = len * 256 + value[2 + i]!;
  return value.subarray(2 + n, 2 + n + len).toString('utf8');
}

function oidValue(signer: Signer, oid: string, der: boolean): string {
  const found = signer.identity?.oids?.find((o) => o.oid?.id.join('.') === oid);
  return found ? extensionText(Buffer.from(found.value), der) : '';
}

function repositoryFromSan(issuer: string, san: string): string {
  if (issuer === GITHUB_ISSUER) {
    const m = /^(https:\/\/github\.com\/[^/]+\/[^/]+)\/\.github\/workflows\//.exec(san);
    return m ? m[1]! : '';
  }
  if (issuer === GITLAB_ISSUER) {
    const m = /^(https:\/\/gitlab\.com\/.+?)\/\//.exec(san);
    return m ? m[1]! : '';
  }
  return '';
}

export function signerIdentity(signer: Signer): SignerIdentity {
  const issuer = signer.identity?.extensions?.issuer ?? '';
  const san = signer.identity?.subjectAlternativeName ?? '';
  let repository = oidValue(signer, OID_SOURCE_REPO_URI, true);
  if (!repository && issuer === GITHUB_ISSUER) {
    const legacy = oidValue(signer, OID_GITHUB_REPOSITORY_V1, false);
    if (legacy) repository = `https://github.com/${legacy}`;
  }
  if (!repository) repository = repositoryFromSan(issuer, san);
  return { issuer, san, repository, repositoryId: oidValue(signer, OID_SOURCE_REPO_ID, true) };
}

/**
 * A repository URL as a comparable key: `host/owner/name` lower-cased (GitHub and GitLab names are
 * case-insensitive), without scheme, `git+`, userinfo, `.git` or a trailing slash; npm's `github:o/r`
 * and bare `o/r` shorthands mean GitHub. '' for what is not a repository URL.
 */
export function repositoryKey(url: string | null | undefined): string {
  if (!url) return '';
  let s = url.trim();
  const short = /^(?:github:)?([\w.-]+\/[\w.-]+)$/.exec(s);
  if (short) s = `https://github.com/${short[1]}`;
  s = s.replace(/^git\+/, '').replace(/^git@([^:]+):/, 'https://$1/');
  const m = /^[a-z+]+:\/\/(?:[^@/]+@)?([^/]+)\/(.+?)(?:\.git)?\/?(?:#.*)?$/i.exec(s);
  return m ? `${m[1]}/${m[2]}`.toLowerCase() : '';
}
