/**
 * issue 34 inside workerd: the same verification cases as the Node unit suite
 * (test/fixtures/attestations/cases.ts), so the three real bundles verify in the Workers runtime too
 * (with the EC verify wrapper, attestations/ec-verify-shim.ts) and the altered ones do not. Also the TUF
 * signature check the trust refresh makes (attestations/tuf-refresh.ts, `@tufjs/models`): Sigstore's root
 * is signed by a threshold of its own root keys, and an altered copy is not.
 */
import { describe, expect, it } from 'vitest';
import { Metadata, MetadataKind } from '@tufjs/models';
import { CASES } from '../fixtures/attestations/cases.ts';
import { SIGSTORE_TUF_ROOT } from '../../src/insights/attestations/tuf-refresh.ts';
import { installEcVerifyShim } from '../../src/insights/attestations/ec-verify-shim.ts';

describe('Sigstore verification under workerd', () => {
  it.each(CASES.map((c) => [c.what, c] as const))('%s', async (_, c) => {
    const v = await c.run();
    expect({ verified: v.verified, reason: v.reason }).toEqual({
      verified: c.verified,
      reason: expect.stringMatching(c.reason),
    });
  });
});

describe('TUF metadata under workerd', () => {
  it("Sigstore's root verifies with its own root keys; an altered one does not", () => {
    installEcVerifyShim(); // as tuf-refresh.ts does
    const root = Metadata.fromJSON(MetadataKind.Root, structuredClone(SIGSTORE_TUF_ROOT) as never);
    expect(() => root.verifyDelegate(MetadataKind.Root, root)).not.toThrow();
    const altered = structuredClone(SIGSTORE_TUF_ROOT) as { signed: { expires: string } };
    altered.signed.expires = '2099-01-01T00:00:00Z';
    const bad = Metadata.fromJSON(MetadataKind.Root, altered as never);
    expect(() => root.verifyDelegate(MetadataKind.Root, bad)).toThrow(/signed by 0\/3 keys/);
  });
});
