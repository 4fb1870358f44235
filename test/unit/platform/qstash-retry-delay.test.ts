import { describe, expect, it } from 'vitest';
import { evalRetryDelay } from '../../../tools/stack/qstash-server.ts';

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
});
