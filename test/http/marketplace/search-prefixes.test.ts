/**
 * Search looks a prefix term up as an exact lexeme of `search_prefixes` (migration 0202), every prefix
 * of every word up to 24 characters, and still tests the query itself. That is right only if, for every
 * query, the prefixes select every book the query selects (no book lost through the GIN index) and the
 * two together select exactly those. Checked over generated names (several scripts, hyphenated
 * compounds, dotted and slashed tokens, words longer than 24 characters) and queries cut from their
 * words, built by the search's own searchTsQuery; then the largest names the API takes, stored and found.
 */
import { describe, expect, it } from 'vitest';
import { searchTsQuery } from '../../../src/marketplace/matching.ts';
import { seededRandom } from '../../support/random.ts';
import { testDb } from '../../support/env.ts';
import { client, json, makeUser, postBook } from './helpers.ts';

const api = client();

const ALPHABETS = [
  'abcdefghijklmnopqrstuvwxyz',
  '0123456789',
  'éèàüößçñ',
  'абвгдежз',
  '数学物理化学',
  'αβγδεζ',
  'İIıi',
];

function generator(seed: number) {
  const rnd = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const word = (max: number) => {
    const a = [...pick(ALPHABETS)];
    const n = 1 + Math.floor(rnd() * max);
    return Array.from({ length: n }, () => pick(a)).join('');
  };
  const token = () => {
    const r = rnd();
    if (r < 0.1) return [word(6), word(6), word(6)].join('-'); // a compound: the whole and its parts
    if (r < 0.15) return `${word(4)}.${word(4)}`; // v2.0, 12.5, host names
    if (r < 0.2) return `${word(5)}/${word(5)}`;
    if (r < 0.3) return word(40); // longer than the 24 characters the prefixes keep
    return word(9);
  };
  const name = () => Array.from({ length: 1 + Math.floor(rnd() * 6) }, token).join(' ');
  /** A query: a prefix of one or two of a name's words, a name's longest word, or a word no name has. */
  const query = (names: string[]) => {
    const words = pick(names).match(/[\p{L}\p{N}]+/gu) ?? ['x'];
    const cut = (w: string) => [...w].slice(0, 1 + Math.floor(rnd() * [...w].length)).join('');
    const r = rnd();
    if (r < 0.1) return `${word(30)}${word(3)}`;
    if (r < 0.25) return words.toSorted((a, b) => [...b].length - [...a].length)[0]!; // a name's longest word
    return r < 0.5 ? cut(pick(words)) : `${cut(pick(words))} ${cut(pick(words))}`;
  };
  return { name, query };
}

describe('search by exact prefixes', () => {
  it('selects exactly the books the query selects, for generated names and queries', async () => {
    const seller = await makeUser();
    const gen = generator(20261127);
    // two words alike in their first 24 characters: only the query's own test tells them apart
    const long = 'q'.repeat(24);
    const names = [...Array.from({ length: 300 }, gen.name), `${long}alpha`, `${long}omega`];
    const [{ first }] = (await testDb().query<{ first: string }>(
      `WITH ins AS (INSERT INTO market.books (owner_id, name, name_norm, edition, course, course_norm, price, condition)
         SELECT $1, n, lower(n), 1, 'TST 101', 'tst101', 10, 'Good' FROM unnest($2::text[]) AS n RETURNING id)
       SELECT min(id)::text AS first FROM ins`,
      [seller.id, names],
    )) as [{ first: string }];
    const queries = [
      ...new Set(
        [`${long}alp`, ...Array.from({ length: 400 }, () => gen.query(names))]
          .map((q) => searchTsQuery(q))
          .filter((q): q is string => !!q),
      ),
    ];
    expect(queries.length).toBeGreaterThan(300);
    const rows = await testDb().query<{ q: string; direct: number; prefixes: number; both: number; lost: number }>(
      `SELECT q,
         count(*) FILTER (WHERE b.search @@ to_tsquery('simple', q))::int AS direct,
         count(*) FILTER (WHERE b.search_prefixes @@ market.search_prefix_query(to_tsquery('simple', q)))::int AS prefixes,
         count(*) FILTER (WHERE b.search_prefixes @@ market.search_prefix_query(to_tsquery('simple', q))
                            AND b.search OPERATOR(market.@@~) to_tsquery('simple', q))::int AS both,
         count(*) FILTER (WHERE b.search @@ to_tsquery('simple', q)
                            AND NOT b.search_prefixes @@ market.search_prefix_query(to_tsquery('simple', q)))::int AS lost
       FROM unnest($1::text[]) AS q CROSS JOIN market.books b WHERE b.id >= $2::bigint AND b.owner_id = $3::bigint
       GROUP BY q`,
      [queries, first, seller.id],
    );
    expect(rows).toHaveLength(queries.length);
    for (const r of rows) {
      expect(r.lost, r.q).toBe(0);
      expect(r.both, r.q).toBe(r.direct);
      expect(r.prefixes, r.q).toBeGreaterThanOrEqual(r.direct);
    }
    // the check is not empty: most queries find books, many have a word past 24 characters, and the
    // query's own test is what leaves "qqq…omega" out of a search for "qqq…alp"
    expect(rows.filter((r) => r.direct > 0).length).toBeGreaterThan(queries.length / 2);
    expect(rows.filter((r) => r.direct > 0 && /[^' ]{25}/u.test(r.q)).length).toBeGreaterThan(10);
    expect(rows.find((r) => r.q === `${long}alp:*`)).toMatchObject({ direct: 1, prefixes: 2, both: 1 });
  });

  it('keeps quotes and backslashes of a lexeme when it builds the exact-prefix query', async () => {
    const [r] = await testDb().query<{ q: string }>(
      `SELECT market.search_prefix_query($$'a\\\\b':* & 'it''s':* & 'abcdefghijklmnopqrstuvwxyz0123':*$$::tsquery)::text AS q`,
    );
    expect(r!.q).toBe(`'a\\\\b' & 'it''s' & 'abcdefghijklmnopqrstuvwx'`);
  });

  it.each([
    [
      '24-letter words',
      () => Array.from({ length: 8 }, (_, i) => `abcdefghijklmnopqrstuvw${i}`).join(' '),
      'abcdefghijklmnopqrst',
    ],
    [
      'a hyphenated compound',
      () => Array.from({ length: 8 }, (_, i) => `bcdefghijklmnopqrstuvw${i}`).join('-'),
      'bcdefghijklmnopqrstuvw3',
    ],
    [
      'CJK words',
      () =>
        Array.from({ length: 25 }, (_, i) =>
          String.fromCodePoint(...[37, 53, 71, 89, 97, 1, 7].map((k, j) => 0x4e00 + j + i * k)),
        ).join(' '),
      String.fromCodePoint(0x4e00, 0x4e01),
    ],
    [
      'two-letter words',
      () => Array.from({ length: 66 }, (_, i) => (i * 7).toString(36).padStart(2, 'q')).join(' '),
      'q7',
    ],
    [
      'a URL',
      () =>
        `http://${Array.from({ length: 20 }, (_, i) => `h${i}abc`).join('.')}/${Array.from({ length: 20 }, (_, i) => `p${i}xyz`).join('/')}`,
      'h0abc',
    ],
  ])('stores and finds a book whose 200-character name is %s', async (_what, make, word) => {
    const tag = `zp${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
    const name = [...`${tag} ${make()}`].slice(0, 200).join('');
    expect([...name]).toHaveLength(200);
    const seller = await makeUser();
    const book = await postBook(seller, { name, ISBN: null });
    const found = await json(await api.get(`/api/books/search/public/${encodeURIComponent(`${tag} ${word}`)}`));
    expect(found.data.map((b: any) => b._id)).toEqual([book._id]);
  });
});
