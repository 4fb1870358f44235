/**
 * Normalisation used by matching and search (pure, no I/O).
 *
 * - Course codes: upper case, letters and digits only ("csc 171", "CSC-171" and "CSC171" are one
 *   course, `CSC171`). The original compared courses with an unanchored case-insensitive regex, so
 *   "MTH 1" matched "MTH 150"; equality of normalised codes fixes that.
 * - ISBN: hyphens and spaces dropped, the check digit verified, ISBN-10 converted to its ISBN-13
 *   (978 prefix), so both spellings of one book compare equal. Invalid ISBNs are refused (undefined).
 * - Names: lower case, runs of non-letters/digits collapsed to one space; a request and a book
 *   match on names when one normalised name contains the other (both directions, fixing the
 *   original, which used the request's name as a regex on postBook's side only) and the shorter one
 *   has at least MIN_NAME_MATCH characters.
 *
 * A book matches an open request of another user when the ISBNs are equal, or the normalised courses
 * are equal, or the names match (the original's "name OR course" rule plus ISBN). The SQL in
 * queries-books.ts applies exactly this predicate; `isMatch` is its executable statement.
 */
export const MIN_NAME_MATCH = 4;

export function normalizeCourse(course: string): string {
  return course.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

export function normalizeName(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

function isbn10Valid(d: string): boolean {
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    const ch = d[i]!;
    const v = ch === 'X' ? 10 : Number(ch);
    if (ch === 'X' && i !== 9) return false;
    sum += v * (10 - i);
  }
  return sum % 11 === 0;
}

function isbn13Check(first12: string): number {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(first12[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10;
}

/** The ISBN-13 of an ISBN-10 or ISBN-13 (hyphens/spaces allowed), or undefined when invalid. */
export function normalizeIsbn(input: string | number): string | undefined {
  const s = String(input).toUpperCase().replace(/[\s-]/g, '');
  if (/^\d{9}[\dX]$/.test(s)) {
    if (!isbn10Valid(s)) return undefined;
    const body = `978${s.slice(0, 9)}`;
    return body + String(isbn13Check(body));
  }
  if (/^97[89]\d{10}$/.test(s)) {
    return isbn13Check(s.slice(0, 12)) === Number(s[12]) ? s : undefined;
  }
  return undefined;
}

export interface Matchable {
  name: string;
  course: string;
  isbn?: string | null;
}

export function namesMatch(a: string, b: string): boolean {
  const x = normalizeName(a);
  const y = normalizeName(b);
  const [short, long] = x.length <= y.length ? [x, y] : [y, x];
  return short.length >= MIN_NAME_MATCH && long.includes(short);
}

export function isMatch(book: Matchable, request: Matchable): boolean {
  if (book.isbn && request.isbn && book.isbn === request.isbn) return true;
  if (normalizeCourse(book.course) === normalizeCourse(request.course)) return true;
  return namesMatch(book.name, request.name);
}

/**
 * A search text as a prefix tsquery over the `simple` configuration: every word must occur
 * (`calc 171` -> `calc:* & 171:*`). A valid ISBN is searched in its ISBN-13 form. Undefined when
 * the text has no letters or digits.
 */
export function searchTsQuery(text: string): string | undefined {
  const isbn = normalizeIsbn(text);
  if (isbn) return isbn;
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  if (!words.length) return undefined;
  return words
    .slice(0, 8)
    .map((w) => `${w}:*`)
    .join(' & ');
}
