/**
 * One Sigstore bundle checked with `@sigstore/verify` against the trust material (trust.ts): the
 * certificate chains to a Fulcio CA valid at the signing time and carries an SCT of a trusted CT log
 * (or, for a key-signed bundle, the key is valid at that time), the Rekor entry's inclusion proof or
 * promise verifies against a trusted log key and its body matches the envelope, and the DSSE
 * signature verifies over the envelope. Then the in-toto statement the envelope carries must name
 * the artifact: a subject with the expected name whose digest equals the artifact's.
 * Nothing here throws on bad input: every failure is a `{ok: false, reason}`.
 */
import { bundleFromJSON } from '@sigstore/bundle';
import { toSignedEntity, Verifier, type Signer } from '@sigstore/verify';
import type { Statement } from '../ingest/attestations.ts';
import { trustMaterial, type TrustData } from './trust.ts';

export interface Subject {
  /** Whether the subject's name is the artifact's. */
  name: (n: string) => boolean;
  algorithm: 'sha512' | 'sha256';
  /** Lower-case hex digest of the artifact. */
  hex: string;
}

export type BundleCheck = { ok: true; signer: Signer; statement: Statement } | { ok: false; reason: string };

function statementOf(payload: unknown): Statement | null {
  if (typeof payload !== 'string') return null;
  try {
    const v = JSON.parse(Buffer.from(payload, 'base64').toString('utf8'));
    return v && typeof v === 'object' && !Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}

/** An in-toto subject, read by shape. */
type InTotoSubject = { name?: unknown; digest?: Partial<Record<string, unknown>> | null } | null | undefined;

export function subjectMatches(statement: Statement, subject: Subject): boolean {
  const list: InTotoSubject[] = Array.isArray(statement.subject) ? statement.subject : [];
  return list.some((s) => {
    const digest = s?.digest?.[subject.algorithm];
    return (
      typeof s?.name === 'string' &&
      subject.name(s.name) &&
      typeof digest === 'string' &&
      digest.toLowerCase() === subject.hex.toLowerCase()
    );
  });
}

/** Verifies one serialized bundle (any media type version) and its statement's subject. */
export function verifyBundle(json: unknown, subject: Subject, trust?: TrustData): BundleCheck {
  let signer: Signer;
  let payload: unknown;
  try {
    const bundle = bundleFromJSON(json);
    signer = new Verifier(trustMaterial(trust)).verify(toSignedEntity(bundle));
    payload = (json as { dsseEnvelope?: { payload?: unknown } | null } | null)?.dsseEnvelope?.payload;
  } catch (err) {
    const e = err as { code?: string; message?: string };
    return { ok: false, reason: `${e.code ? `${e.code}: ` : ''}${e.message ?? String(err)}` };
  }
  const statement = statementOf(payload);
  if (!statement) return { ok: false, reason: 'the envelope holds no in-toto statement' };
  if (!subjectMatches(statement, subject))
    return { ok: false, reason: `no subject names the artifact with its ${subject.algorithm} digest` };
  return { ok: true, signer, statement };
}
