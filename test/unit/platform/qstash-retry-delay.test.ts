import { describe, expect, it } from 'vitest';
import { PRODUCTION_RETRY_DELAY, evalRetryDelay, parseRetryDelay } from '../../../tools/stack/retry-delay.ts';

describe('QStash retry-delay expressions (local server)', () => {
  it.each([
    ['1000', 3, 1000],
    ['pow(2, retried) * 1000', 3, 8000],
    ['min(86400, exp(2.5 * retried))', 0, 1],
    ['max(10, retried * 100)', 0, 10],
    ['1000 * (1 + retried)', 2, 3000],
    ['max(1000, pow(2, retried) * 100)', 5, 3200],
    ['50 + retried * 100', 1, 150],
    ['10 - 2 - 3', 0, 5],
    ['100 / 4 / 5', 0, 5],
    ['2 + 3 * 4', 0, 14],
    ['(2 + 3) * 4', 0, 20],
    ['-retried + 10', 4, 6],
    ['abs(-7) + sqrt(16) + floor(1.7) + ceil(1.2) + round(2.5)', 0, 17],
    ['min(5, 3, 9) + max(1, 8, 2)', 0, 11],
    ['.5 * 10 + 1.', 0, 6],
    ['  retried  ', 9, 9],
  ])('%s with retried=%i is %f', (expr, retried, want) => {
    expect(evalRetryDelay(expr, retried)).toBeCloseTo(want, 6);
  });

  it.each([
    'process.exit(1)',
    'retried; while(1){}',
    'constructor',
    '-5',
    "'a'",
    '"1000"',
    '`1000`',
    'toString()',
    '__proto__(1)',
    'hasOwnProperty(1)',
    'Math.pow(2, 3)',
    'pow(2)',
    'sqrt(1, 2)',
    'min()',
    'pow',
    'retried()',
    'this',
    'globalThis',
    'x => 1',
    '1000; 2000',
    '1000 2000',
    '(1000',
    '1000)',
    '1,2',
    '2 ** 3',
    '5 % 2',
    '1e3',
    '[1000][0]',
    '1000 / 0',
    '',
    '  ',
    'pow(10, 400)',
    `${'('.repeat(40)}1${')'.repeat(40)}`,
    `${'-'.repeat(40)}1`,
    `1${' + 1'.repeat(200)}`,
  ])('rejects %s', (expr) => {
    expect(() => evalRetryDelay(expr, 1)).toThrow(/retry delay/);
  });

  it('parses precedence and associativity into the tree the grammar says', () => {
    expect(parseRetryDelay('1 - 2 * retried')).toEqual({
      kind: 'binary',
      op: '-',
      left: { kind: 'number', value: 1 },
      right: { kind: 'binary', op: '*', left: { kind: 'number', value: 2 }, right: { kind: 'retried' } },
    });
  });

  it("the default schedule is QStash production's table: 12 s, 2 min 28 s, 30 min 8 s, 4 h 7 min, then 24 h", () => {
    const seconds = [0, 1, 2, 3, 4, 5].map((r) => Math.floor(evalRetryDelay(PRODUCTION_RETRY_DELAY, r) / 1000));
    expect(seconds).toEqual([12, 148, 1808, 22026, 86400, 86400]);
  });
});
