import { describe, expect, it } from 'vitest';
import { bodyProblem, MAX_BODY_BYTES, urlProblem } from '../../../src/platform/input-guard.ts';

const enc = (s: string) => new TextEncoder().encode(s);

describe('input guard', () => {
  it.each([
    ['http://x/v3/systems/npm/packages/a%00b', 400, 'control characters are not allowed in the path'],
    ['http://x/a/%E0%A4%A', 400, 'malformed percent-encoding in the path'],
    ['http://x/a?q=%07', 400, 'control characters are not allowed in query parameters'],
    ['http://x/a?q=%ZZ', 400, 'malformed percent-encoding in the query'],
    [`http://x/${'a'.repeat(9000)}`, 414, 'the URL is longer than 8192 characters'],
  ])('%s -> %i', (url, status, message) => expect(urlProblem(url)).toEqual([status, message]));

  it.each([
    'http://x/v3/systems/npm/packages/%40scope%2Fname',
    'http://x/a?q=caf%C3%A9&b=+x+',
    'http://x/%F0%9F%92%A9',
  ])('lets %s through', (url) => {
    expect(urlProblem(url)).toBeNull();
  });

  it('refuses NUL (raw or escaped), invalid UTF-8 and oversized bodies; keeps newlines and tabs', () => {
    expect(bodyProblem(enc('{"a":"x\\u0000"}'))).toEqual([400, 'NUL characters are not allowed in the body']);
    expect(bodyProblem(enc('{"a":"x\u0000"}'))).toEqual([400, 'NUL characters are not allowed in the body']);
    expect(bodyProblem(new Uint8Array([0x22, 0xff, 0x22]))).toEqual([400, 'the body is not valid UTF-8']);
    expect(bodyProblem(new Uint8Array(MAX_BODY_BYTES + 1))).toEqual([
      413,
      `the body is larger than ${MAX_BODY_BYTES} bytes`,
    ]);
    expect(bodyProblem(enc('{"a":"line\\nnext\\ttab","b":"\u00e9"}'))).toBeNull();
  });
});
