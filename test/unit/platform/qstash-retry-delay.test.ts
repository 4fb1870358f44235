import { describe, expect, it } from 'vitest';
import { PRODUCTION_RETRY_DELAY, evalRetryDelay } from '../../../tools/stack/qstash-server.ts';

describe('QStash retry-delay expressions (local server)', () => {
  it.each([
    ['1000', 3, 1000],
    ['pow(2, retried) * 1000', 3, 8000],
    ['min(86400, exp(2.5 * retried))', 0, 1],
    ['max(10, retried * 100)', 0, 10],
  ])('%s with retried=%i is %f', (expr, retried, want) => {
    expect(evalRetryDelay(expr, retried)).toBeCloseTo(want, 6);
  });

  it.each(['process.exit(1)', 'retried; while(1){}', 'constructor', '-5', "'a'"])('rejects %s', (expr) => {
    expect(() => evalRetryDelay(expr, 1)).toThrow();
  });

  it('the default schedule is QStash production\'s table: 12 s, 2 min 28 s, 30 min 8 s, 4 h 7 min, then 24 h', () => {
    const seconds = [0, 1, 2, 3, 4, 5].map((r) => Math.floor(evalRetryDelay(PRODUCTION_RETRY_DELAY, r) / 1000));
    expect(seconds).toEqual([12, 148, 1808, 22026, 86400, 86400]);
  });
});
