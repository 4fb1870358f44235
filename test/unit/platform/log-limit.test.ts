/**
 * platform/log-limit.ts: one line per kind per minute; failures inside a window are counted and the
 * count is printed with the first line of the next window; kinds are independent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { resetWarnWindows, setWarnSink, warnLimited } from '../../../src/platform/log-limit.ts';

let restore = () => {};
afterEach(() => {
  restore();
  resetWarnWindows();
});

describe('warnLimited', () => {
  it('prints the first failure of a kind, counts the rest of its minute, and reports the count after', () => {
    const lines: string[] = [];
    restore = setWarnSink((l) => lines.push(l));
    const t0 = 1_000_000;
    expect(warnLimited('upstream OSV HTTP 503', 'GET /a\n  with a second line', t0)).toBe(true);
    for (let i = 1; i <= 500; i++) expect(warnLimited('upstream OSV HTTP 503', `GET /${i}`, t0 + i * 100)).toBe(false);
    expect(warnLimited('upstream NPM timeout', 'GET /b', t0 + 1000)).toBe(true);
    expect(warnLimited('upstream OSV HTTP 503', 'GET /late', t0 + 60_000)).toBe(true);
    expect(lines).toEqual([
      'upstream OSV HTTP 503: GET /a with a second line',
      'upstream NPM timeout: GET /b',
      'upstream OSV HTTP 503 (500 more in the minute before): GET /late',
    ]);
  });
  it('a long example is cut to one short line', () => {
    const lines: string[] = [];
    restore = setWarnSink((l) => lines.push(l));
    warnLimited('k', 'x'.repeat(1000));
    expect(lines[0]!.length).toBeLessThanOrEqual(303);
  });
});
