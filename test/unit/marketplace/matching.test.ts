import { describe, expect, it } from 'vitest';
import { canMove, canStaffMove } from '../../../src/marketplace/book-status.ts';
import { unwrapBody } from '../../../src/marketplace/schemas.ts';
import { isMatch, normalizeCourse, normalizeIsbn, searchTsQuery } from '../../../src/marketplace/matching.ts';

describe('normalizeIsbn', () => {
  it.each([
    ['0-262-03384-4', '9780262033848'],
    ['0262033844', '9780262033848'],
    ['978-0-262-03384-8', '9780262033848'],
    [9780131103627, '9780131103627'],
    ['0-8044-2957-X', '9780804429573'],
    ['080442957x', '9780804429573'],
    ['0262033845', undefined],
    ['9780262033849', undefined],
    ['12345', undefined],
    ['X262033844', undefined],
    ['', undefined],
  ])('%s -> %s', (input, want) => expect(normalizeIsbn(input)).toBe(want));
});

describe('normalizeCourse', () => {
  it.each([
    ['csc 171', 'CSC171'],
    ['CSC-171', 'CSC171'],
    ['MTH 150A', 'MTH150A'],
  ])('%s -> %s', (a, b) => expect(normalizeCourse(a)).toBe(b));
});

describe('isMatch', () => {
  const book = { name: 'Calculus: Early Transcendentals', course: 'MTH 161', isbn: '9780262033848' };
  it.each([
    ['same ISBN', { name: 'x', course: 'AAA 100', isbn: '9780262033848' }, true],
    ['same course, other spelling', { name: 'x', course: 'mth-161', isbn: null }, true],
    ['course prefix only (the original matched it)', { name: 'x', course: 'MTH 16', isbn: null }, false],
    ['request name inside the book name', { name: 'calculus', course: 'AAA 100' }, true],
    ['book name inside the request name', { name: 'Calculus: Early Transcendentals 8th ed', course: 'AAA 100' }, true],
    ['too short to count', { name: 'cal', course: 'AAA 100' }, false],
    ['unrelated', { name: 'Organic Chemistry', course: 'CHM 203', isbn: '9780131103627' }, false],
  ])('%s', (_n, request, want) => expect(isMatch(book, request)).toBe(want));
});

describe('searchTsQuery', () => {
  it.each([
    ['Linear algebra', 'linear:* & algebra:*'],
    ["a & b | !c:* ('", 'a:* & b:* & c:*'],
    ['0-262-03384-4', '9780262033848'],
    ['+++', undefined],
  ])('%s -> %s', (t, want) => expect(searchTsQuery(t)).toBe(want));
});

describe('book status moves', () => {
  it.each([
    [0, 1, true, false],
    [1, 2, true, true],
    [2, 3, true, true],
    [0, 5, true, true],
    [5, 0, true, true],
    [1, 0, false, false],
    [3, 5, false, false],
    [2, 1, false, false],
    [0, 4, false, false],
    [5, 1, false, false],
  ])('%i -> %i legal=%s staff=%s', (from, to, legal, staff) => {
    expect(canMove(from, to)).toBe(legal);
    expect(canStaffMove(from, to)).toBe(staff);
  });
});

describe('unwrapBody', () => {
  it.each([
    [{ data: { a: 1 } }, { a: 1 }],
    [{ data: { payload: { a: 1 } } }, { a: 1 }],
    [{ a: 1 }, { a: 1 }],
    [
      { data: { a: 1 }, b: 2 },
      { data: { a: 1 }, b: 2 },
    ],
    [[1], [1]],
  ])('%j -> %j', (input, want) => expect(unwrapBody(input)).toEqual(want));
});
