import { describe, expect, it } from 'vitest';
import { UsageError, chooseFunctions } from '../../../tools/stack/select.ts';

describe('npm start -- <function>...', () => {
  it.each([
    [[], ['insights', 'marketplace', 'pipeline', 'delivery']],
    [['pipeline'], ['pipeline', 'delivery']],
    [['delivery'], ['delivery']],
    [
      ['marketplace', 'insights'],
      ['insights', 'marketplace', 'delivery'],
    ],
    [
      ['pipeline', 'pipeline'],
      ['pipeline', 'delivery'],
    ],
  ])('%j starts %j', (names, want) => {
    expect(chooseFunctions(names)).toEqual(want);
  });

  it('refuses an unknown name', () => {
    expect(() => chooseFunctions(['pipeline', 'billing'])).toThrow(
      new UsageError('unknown function billing: choose among insights, marketplace, pipeline, delivery'),
    );
  });
});
