/**
 * AWS's SigV4 test suite (header signing, 38 cases vendored under test/fixtures/webhooks/aws-sig-v4-test-suite):
 * src/webhooks/sigv4.ts must produce each case's canonical request, string to sign and signature.
 */
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../src/platform/crypto.ts';
import { sign } from '../../../src/webhooks/sigv4.ts';
import { suiteCases } from '../../../tools/sigv4-suite.ts';
import { SUITE_FILES } from '../../support/sigv4-suite-files.ts';

const cases = suiteCases(SUITE_FILES);

describe('aws-sig-v4-test-suite', () => {
  it('holds the whole v4 suite', () => expect(cases.length).toBe(38));
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_n, c) => {
    const headers: [string, string][] = [...c.headers, ['X-Amz-Date', c.amzDate]];
    if (c.signBody) headers.push(['X-Amz-Content-Sha256', await sha256Hex(c.body)]);
    if (c.token && !c.omitToken) headers.push(['X-Amz-Security-Token', c.token]);
    const r = await sign(
      {
        method: c.method,
        url: `https://${c.host}${c.target}`,
        headers,
        body: c.body,
        region: c.region,
        service: c.service,
        amzDate: c.amzDate,
        normalizePath: c.normalize,
      },
      c,
    );
    expect(r.canonical).toBe(c.canonicalRequest);
    expect(r.stringToSign).toBe(c.stringToSign);
    expect(r.signature).toBe(c.signature);
  });
});
