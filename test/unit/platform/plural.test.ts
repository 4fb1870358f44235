import { describe, expect, it } from 'vitest';
import { plural, pluralWord } from '../../../src/platform/plural.ts';

describe('plural', () => {
  it.each([
    [0, 'article', undefined, '0 articles'],
    [1, 'article', undefined, '1 article'],
    [2, 'article', undefined, '2 articles'],
    [1, 'book is', 'books are', '1 book is'],
    [3, 'book is', 'books are', '3 books are'],
  ])('%i %s', (n, one, many, want) => {
    expect(plural(n, one, many)).toBe(want);
  });

  it('pluralWord leaves the count out', () => {
    expect([pluralWord(1, 'book'), pluralWord(2, 'book')]).toEqual(['book', 'books']);
  });
});
