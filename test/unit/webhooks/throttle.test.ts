import { describe, expect, it } from 'vitest';
import { paceWaitMs, parseRetryAfter, retryDelayWithRetryAfter } from '../../../src/webhooks/throttle.ts';

const NOW = Date.parse('2026-11-25T12:00:00Z');

describe('parseRetryAfter (RFC 9110 delay-seconds or HTTP-date)', () => {
  it.each([
    ['120', 120],
    [' 7 ', 7],
    ['0', 0],
    ['999999999', 86_400],
    ['Wed, 25 Nov 2026 12:00:30 GMT', 30],
    ['Wed, 25 Nov 2026 11:59:00 GMT', 0],
    ['Thu, 26 Nov 2026 12:00:01 GMT', 86_400],
    ['Wed, 25 Nov 2026 12:00:00 GMT', 0],
  ])('%s -> %i', (v, s) => {
    expect(parseRetryAfter(v, NOW)).toBe(s);
  });

  it.each([[undefined], [''], ['-5'], ['1.5'], ['soon'], ['12abc'], ['2026-13-45']])('%s -> undefined', (v) => {
    expect(parseRetryAfter(v, NOW)).toBeUndefined();
  });
});

describe('retryDelayWithRetryAfter', () => {
  it.each([
    [5, 429, { 'retry-after': '30' }, 30],
    [5, 503, { 'retry-after': '30' }, 30],
    [60, 429, { 'retry-after': '30' }, 60],
    [5, 500, { 'retry-after': '30' }, 5],
    [5, 429, {}, 5],
    [5, 429, { 'retry-after': 'garbage' }, 5],
    [5, 503, { 'retry-after': 'Wed, 25 Nov 2026 12:01:00 GMT' }, 60],
  ] as const)('backoff %i, status %i, %o -> %i', (backoff, status, headers, expected) => {
    expect(retryDelayWithRetryAfter(backoff, status, headers as Record<string, string>, NOW)).toBe(expected);
  });
});

describe('paceWaitMs', () => {
  it.each([
    [null, NOW - 10, 0],
    [5, null, 0],
    [5, NOW, 200],
    [5, NOW - 150, 50],
    [5, NOW - 200, 0],
    [5, NOW - 5000, 0],
    [0.25, NOW - 1000, 3000],
    [3, NOW, 334],
  ] as const)('rate %s, last start %s -> %i ms', (rate, last, wait) => {
    expect(paceWaitMs(rate, last, NOW)).toBe(wait);
  });
});
