/**
 * issue 34 inside workerd: the same verification cases as the Node unit suite
 * (test/fixtures/attestations/cases.ts), so the three real bundles verify in the Workers runtime too
 * (with the EC verify wrapper, attestations/ec-verify-shim.ts) and the altered ones do not.
 */
import { describe, expect, it } from 'vitest';
import { CASES } from '../fixtures/attestations/cases.ts';

describe('Sigstore verification under workerd', () => {
  it.each(CASES.map((c) => [c.what, c] as const))('%s', async (_, c) => {
    const v = await c.run();
    expect({ verified: v.verified, reason: v.reason }).toEqual({
      verified: c.verified,
      reason: expect.stringMatching(c.reason),
    });
  });
});
