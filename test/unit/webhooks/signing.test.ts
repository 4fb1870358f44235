import { describe, expect, it } from 'vitest';
import { toHex } from '../../../src/platform/crypto.ts';
import { amzDate, awsEncode, sign, signingKey, sqsRegion, sqsSendMessage } from '../../../src/webhooks/sigv4.ts';
import {
  apiUserSignature,
  basicAuthorization,
  newSigningSecret,
  standardSignature,
  verifyStandardSignature,
} from '../../../src/webhooks/signing.ts';
import sigv4 from '../../fixtures/webhooks/sigv4-vectors.json' with { type: 'json' };
import standard from '../../fixtures/webhooks/standard-webhooks-vectors.json' with { type: 'json' };

describe('SigV4 against AWS published vectors', () => {
  it.each(sigv4.vectors.map((v) => [v.name, v] as const))('%s', async (_n, v) => {
    const r = await sign(
      {
        method: v.method,
        url: v.url,
        headers: v.headers as Record<string, string>,
        body: v.body,
        region: v.region,
        service: v.service,
        amzDate: v.amzDate,
      },
      sigv4.credentials,
    );
    expect(r.authorization).toBe(v.authorization);
    if ('canonicalRequest' in v) expect(r.canonical).toBe(v.canonicalRequest);
    if ('stringToSign' in v) expect(r.stringToSign).toBe(v.stringToSign);
    if ('signingKeyHex' in v)
      expect(
        toHex(await signingKey(sigv4.credentials.secretAccessKey, v.amzDate.slice(0, 8), v.region, v.service)),
      ).toBe(v.signingKeyHex);
  });

  it.each([
    ['a b', 'a%20b'],
    ["it's (x)*!", 'it%27s%20%28x%29%2A%21'],
    ['~-_.', '~-_.'],
    ['é/=', '%C3%A9%2F%3D'],
  ])('awsEncode(%j) = %s', (input, out) => expect(awsEncode(input)).toBe(out));

  it.each([
    ['https://sqs.eu-west-1.amazonaws.com/123456789012/q', 'eu-west-1'],
    ['https://us-west-2.queue.amazonaws.com/123456789012/q', 'us-west-2'],
    ['http://127.0.0.1:9324/123456789012/q', 'us-east-1'],
  ])('sqsRegion(%s) = %s', (url, region) => expect(sqsRegion(url, 'us-east-1')).toBe(region));

  it('builds a SendMessage form and signs exactly the sent headers', async () => {
    const now = new Date('2015-08-30T12:36:00Z');
    expect(amzDate(now)).toBe('20150830T123600Z');
    const r = await sqsSendMessage(
      'https://sqs.us-east-1.amazonaws.com/123456789012/q',
      '{"events":[]}',
      sigv4.credentials,
      { region: 'us-east-1', now },
    );
    expect(r.body).toBe('Action=SendMessage&MessageBody=%7B%22events%22%3A%5B%5D%7D&Version=2012-11-05');
    const again = await sign(
      {
        method: 'POST',
        url: 'https://sqs.us-east-1.amazonaws.com/123456789012/q',
        headers: {
          'content-type': r.headers['content-type']!,
          host: r.headers.host!,
          'x-amz-date': r.headers['x-amz-date']!,
        },
        body: r.body,
        region: 'us-east-1',
        service: 'sqs',
        amzDate: '20150830T123600Z',
      },
      sigv4.credentials,
    );
    expect(r.headers.authorization).toBe(again.authorization);
    expect(r.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/20150830\/us-east-1\/sqs\/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=[0-9a-f]{64}$/,
    );
  });
});

describe('Standard Webhooks signatures', () => {
  it.each(standard.vectors.map((v) => [v.id, v] as const))('published vector %s', async (_id, v) => {
    expect(await standardSignature(v.secret, v.id, v.timestamp, v.payload)).toBe(v.signature);
    expect(
      await verifyStandardSignature(
        v.secret,
        { id: v.id, timestamp: String(v.timestamp), signature: `v1,bogus ${v.signature}` },
        v.payload,
        v.timestamp,
      ),
    ).toBe(true);
  });

  it.each([
    ['tampered body', { body: '{"test": 1}' }],
    ['other id', { id: 'msg_other' }],
    ['stale timestamp', { now: 1614265330 + 301 }],
    ['wrong secret', { secret: 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }],
  ])('rejects %s', async (_n, change: { body?: string; id?: string; now?: number; secret?: string }) => {
    const v = standard.vectors[0]!;
    const ok = await verifyStandardSignature(
      change.secret ?? v.secret,
      { id: change.id ?? v.id, timestamp: String(v.timestamp), signature: v.signature },
      change.body ?? v.payload,
      change.now ?? v.timestamp,
    );
    expect(ok).toBe(false);
  });

  it('new secrets are whsec_ + base64 of 24 bytes', () => {
    const s = newSigningSecret();
    expect(s).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(newSigningSecret()).not.toBe(s);
  });

  it('api user and basic headers', async () => {
    expect(await apiUserSignature('key', 1, 'body')).toBe(
      `t=1,v1=${toHex(new Uint8Array(await crypto.subtle.sign('HMAC', await crypto.subtle.importKey('raw', new TextEncoder().encode('key'), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']), new TextEncoder().encode('1.body'))))}`,
    );
    expect(basicAuthorization('Aladdin', 'open sesame')).toBe('Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==');
  });
});
