import { describe, expect, it } from 'vitest';
import { testDb } from '../../support/env.ts';
import { BOOK, client, expectError, json, makeUser, postBook, uniqueIsbn } from './helpers.ts';

const api = client();
const ids = (body: any) => body.data.map((b: any) => b._id);

describe('posting and listing books', () => {
  it('posts a book (wrapped body), normalises ISBN-10 to 13, notifies, emits book_posted', async () => {
    const u = await makeUser();
    const book = await postBook(u, {
      ISBN: '0-262-03384-4',
      course: 'csc-282',
      Comments: 'margin notes',
      comments: undefined,
    });
    expect(book).toMatchObject({
      name: BOOK.name,
      edition: 3,
      course: 'CSC-282',
      price: 50,
      condition: 'Good',
      comments: 'margin notes',
      ISBN: '9780262033848',
      status: 0,
      owner: u.id,
      buyer: '',
    });
    expect(Math.abs(book.date - Date.now())).toBeLessThan(60_000);
    const notes = await json(await api.get('/api/user/getNotifications', u.auth));
    expect(notes.data[0].message).toBe(`Thanks for posting "${BOOK.name}" up for sale.`);
    const [ev] = await testDb().query<{ payload: any }>(
      "SELECT payload FROM webhooks.outbox WHERE event_name = 'book_posted' AND object_id = $1",
      [book._id],
    );
    expect(ev!.payload).toEqual(book);
  });

  it.each([
    ['missing name', { name: undefined }],
    ['negative edition', { edition: -1 }],
    ['price above 200', { price: 250 }],
    ['price below 1', { price: 0.5 }],
    ['fractional cents', { price: 10.001 }],
    ['bad course code', { course: 'Computer Science' }],
    ['bad ISBN check digit', { ISBN: '9780262033849' }],
    ['missing condition', { condition: undefined }],
  ])('rejects a book with %s (400)', async (_n, over) => {
    const u = await makeUser();
    await expectError(
      await api.post('/api/books/postBook', { data: { ...BOOK, ...over } }, u.auth),
      400,
      'POST /api/books/postBook',
    );
  });

  it('postBook needs a token', async () => {
    await expectError(await api.post('/api/books/postBook', BOOK), 401);
  });

  it('pages with limit and an offset skip, newest first, bounded limits', async () => {
    const u = await makeUser();
    const mine = [];
    for (let i = 0; i < 3; i++) mine.push((await postBook(u, { name: `Paging book ${i}` }))._id);
    const first = await json(await api.get('/api/books/getBooksNoToken/2/0'));
    expect(ids(first)).toEqual([mine[2], mine[1]]);
    const second = await json(await api.get('/api/books/getBooksNoToken/2/1'));
    expect(ids(second)).toEqual([mine[1], mine[0]]);
    await expectError(await api.get('/api/books/getBooksNoToken/0/0'), 400);
    await expectError(await api.get('/api/books/getBooksNoToken/101/0'), 400);
    await expectError(await api.get('/api/books/getBooksNoToken/10/-1'), 400);
    await expectError(await api.get('/api/books/getBooksNoToken/abc/0'), 400);
  });

  it('pages by cursor (X-Next-Cursor) exactly as by offset, with or without a token; a forged cursor is a 400', async () => {
    const u = await makeUser();
    const viewer = await makeUser();
    for (let i = 0; i < 5; i++) await postBook(u, { name: `Cursor book ${i}` });
    const walk = async (first: string, next: (cursor: string) => string, auth?: Record<string, string>) => {
      const seen: string[] = [];
      let res = await api.get(first, auth);
      for (let pages = 0; pages < 1000; pages++) {
        expect(res.status).toBe(200);
        seen.push(...ids(await json(res)));
        const cursor = res.headers.get('x-next-cursor');
        if (!cursor) return seen;
        res = await api.get(next(cursor), auth);
      }
      throw new Error('no last page');
    };
    const byOffset = async (path: (skip: number) => string, auth?: Record<string, string>) => {
      const seen: string[] = [];
      for (let skip = 0; ; skip += 100) {
        const page = ids(await json(await api.get(path(skip), auth)));
        seen.push(...page);
        if (page.length < 100) return seen;
      }
    };
    const anon = await walk('/api/books/getBooksNoToken/3/0', (c) => `/api/books/getBooksNoToken/3/0?cursor=${c}`);
    expect(anon).toEqual(await byOffset((skip) => `/api/books/getBooksNoToken/100/${skip}`));
    expect(new Set(anon).size).toBe(anon.length);
    const signedIn = await walk(
      '/api/books/getAllBooks?limit=4',
      (c) => `/api/books/getAllBooks?limit=4&cursor=${c}`,
      viewer.auth,
    );
    expect(signedIn).toEqual(await byOffset((skip) => `/api/books/getAllBooks?limit=100&skip=${skip}`, viewer.auth));
    // skip counts from the cursor
    const page = await api.get('/api/books/getBooksNoToken/2/0');
    const cursor = page.headers.get('x-next-cursor')!;
    expect(ids(await json(await api.get(`/api/books/getBooksNoToken/2/1?cursor=${cursor}`)))).toEqual(anon.slice(3, 5));
    for (const bad of ['abc!', btoa('1.2.3'), btoa('<script>.1'), 'A'.repeat(65)]) {
      const res = await api.get(`/api/books/getBooksNoToken/2/0?cursor=${encodeURIComponent(bad)}`);
      await expectError(res, 400);
      expect(res.headers.get('x-next-cursor')).toBeNull();
    }
  });

  it("getAllBooks: without a token every listed book, with one the others' books with cart items marked 42", async () => {
    const seller = await makeUser();
    const viewer = await makeUser();
    const a = await postBook(seller, { name: 'Marker book A' });
    const b = await postBook(viewer, { name: 'Marker book B' });
    expect((await api.post('/api/user/addToCart', { bookID: a._id }, viewer.auth)).status).toBe(202);
    const anon = await json(await api.get('/api/books/getAllBooks?limit=2'));
    expect(ids(anon)).toEqual([b._id, a._id]);
    const mine = await json(await api.get('/api/books/getAllBooks?limit=100', viewer.auth));
    expect(ids(mine)).not.toContain(b._id);
    expect(mine.data.find((x: any) => x._id === a._id).status).toBe(42);
    await expectError(await api.get('/api/books/getAllBooks', { authorization: 'Bearer nope' }), 401);
  });

  it('getUsersPosts lists my listed and unlisted books; deleteBook and reactivateBook', async () => {
    const u = await makeUser();
    const other = await makeUser();
    const a = await postBook(u, { name: 'Keep me' });
    const b = await postBook(u, { name: 'Delete me' });
    await testDb().query('UPDATE market.books SET status = 5 WHERE id = $1', [a._id]);
    const posts = await json(await api.get('/api/books/getUsersPosts', u.auth));
    expect(posts.data.map((x: any) => [x._id, x.status])).toEqual([
      [b._id, 0],
      [a._id, 5],
    ]);

    await expectError(await api.post('/api/books/deleteBook', { bookID: b._id }, other.auth), 404);
    await expectError(await api.post('/api/books/deleteBook', { bookID: 'abc' }, u.auth), 400);
    expect((await api.post('/api/books/deleteBook', { data: { bookID: b._id } }, u.auth)).status).toBe(200);
    await expectError(await api.post('/api/books/deleteBook', { bookID: b._id }, u.auth), 404);

    await expectError(await api.post('/api/books/reactivateBook', { bookID: a._id }, other.auth), 404);
    const re = await api.post('/api/books/reactivateBook', { bookID: a._id }, u.auth);
    expect(re.status).toBe(200);
    expect((await json(re)).data.book.status).toBe(0);
    await expectError(await api.post('/api/books/reactivateBook', { bookID: a._id }, u.auth), 409);

    await testDb().query('UPDATE market.books SET status = 2 WHERE id = $1', [a._id]);
    await expectError(await api.post('/api/books/deleteBook', { bookID: a._id }, u.auth), 409);
  });
});

describe('search', () => {
  it('finds by title words, course code and ISBN, ranks title hits first, excludes own books with a token', async () => {
    const seller = await makeUser();
    const searcher = await makeUser();
    const tag = `zq${Date.now().toString(36)}`;
    const title = await postBook(seller, { name: `Quantum ${tag} Mechanics`, course: 'PHY 237', ISBN: null });
    const course = await postBook(seller, {
      name: 'Unrelated volume',
      course: 'PHY 237',
      ISBN: '0131103628',
      comments: tag,
    });
    const own = await postBook(searcher, { name: `Quantum ${tag} Workbook`, course: 'PHY 237', ISBN: null });
    const sold = await postBook(seller, { name: `Quantum ${tag} Sold`, ISBN: null });
    await testDb().query('UPDATE market.books SET status = 1 WHERE id = $1', [sold._id]);

    expect(ids(await json(await api.get(`/api/books/search/public/${tag}`)))).toEqual([own._id, title._id]);
    expect(ids(await json(await api.get(`/api/books/search/public/quant%20${tag}`)))).toEqual([own._id, title._id]);
    expect(ids(await json(await api.get(`/api/books/search/${tag}`, searcher.auth)))).toEqual([title._id]);
    const byIsbn10 = ids(await json(await api.get('/api/books/search/public/0-13-110362-8')));
    expect(byIsbn10).toContain(course._id);
    const byIsbn13 = ids(await json(await api.get('/api/books/search/public/9780131103627')));
    expect(byIsbn13).toContain(course._id);
    const byCourse = ids(await json(await api.get('/api/books/search/public/phy237')));
    expect(byCourse).toEqual(expect.arrayContaining([title._id, course._id, own._id]));
    expect(byCourse).not.toContain(sold._id);
  });

  it('a word matches as a prefix of a word, at any length', async () => {
    const seller = await makeUser();
    const tag = `lw${Date.now().toString(36)}`;
    const word = `${tag}supercalifragilisticexpialidocious`;
    const book = await postBook(seller, { name: `${word} studies`, course: 'ENG 101', ISBN: null });
    const found = async (q: string) => ids(await json(await api.get(`/api/books/search/public/${q}`)));
    expect(await found(word.slice(0, 10))).toEqual([book._id]);
    expect(await found(word.slice(0, 30))).toEqual([book._id]);
    expect(await found(word)).toEqual([book._id]);
    expect(await found(`${word.slice(0, 30)}x`)).toEqual([]);
    expect(await found(`${word}s`)).toEqual([]);
    expect(await found(`${tag}super%20stud`)).toEqual([book._id]);
    expect(await found(`${tag}super%20xstud`)).toEqual([]);
  });

  it('ranks the newest SEARCH_CANDIDATES matches when more books match, best title hits first among them', async () => {
    const { SEARCH_CANDIDATES } = await import('../../../src/marketplace/queries-books.ts');
    const seller = await makeUser();
    const tag = `zc${Date.now().toString(36)}`;
    // an old title hit, then more newer course-only hits than the candidate set holds
    await testDb().query(
      `INSERT INTO market.books (owner_id, name, name_norm, edition, course, course_norm, price, condition, posted_at)
       SELECT $1, CASE WHEN i = 0 THEN 'Old ${tag} title' ELSE 'Other book ' || i END, 'x', 1, 'CSC 101',
              CASE WHEN i = 0 THEN 'csc101' ELSE '${tag}' END, 10, 'Good', now() - make_interval(days => 1000 - i)
       FROM generate_series(0, $2::int) AS i`,
      [seller.id, SEARCH_CANDIDATES + 5],
    );
    const found = (await json(await api.get(`/api/books/search/public/${tag}`))).data;
    expect(found).toHaveLength(40);
    expect(found.map((b: any) => b.name)).not.toContain(`Old ${tag} title`); // older than the newest candidates
    const names = new Set(found.map((b: any) => b.name));
    for (let i = SEARCH_CANDIDATES + 5; i > SEARCH_CANDIDATES + 5 - 40; i--) expect(names).toContain(`Other book ${i}`);
    // a newer title hit outranks every course-only candidate
    const fresh = await postBook(seller, { name: `Fresh ${tag} title`, ISBN: null });
    expect(ids(await json(await api.get(`/api/books/search/public/${tag}`)))[0]).toBe(fresh._id);
  });

  it.each([
    ['only punctuation', '%2B%2B%2B', 400],
    ['too long', 'a'.repeat(101), 400],
  ])('rejects a search text that is %s', async (_n, q, status) => {
    await expectError(await api.get(`/api/books/search/public/${q}`), status);
  });

  it('treats tsquery syntax in the text as plain words', async () => {
    const res = await api.get(`/api/books/search/public/${encodeURIComponent("a & b | !c:* ('")}`);
    expect(res.status).toBe(200);
  });

  it('authenticated search needs a token', async () => {
    await expectError(await api.get('/api/books/search/anything'), 401);
  });

  it("signed-in search and getAllBooks read the user's state with their statement: a revoked token or a deleted user is a 401", async () => {
    const seller = await makeUser();
    const viewer = await makeUser();
    const tag = `r${Date.now().toString(36)}`;
    const book = await postBook(seller, { name: `Revoked ${tag}` });
    expect(ids(await json(await api.get(`/api/books/search/${tag}`, viewer.auth)))).toEqual([book._id]);
    expect((await api.get('/api/books/getAllBooks?limit=1', viewer.auth)).status).toBe(200);
    // a password change or logout everywhere bumps the token version: older tokens stop at once
    await testDb().query('UPDATE market.users SET token_version = token_version + 1 WHERE id = $1', [viewer.id]);
    const revoked = await api.get(`/api/books/search/${tag}`, viewer.auth);
    expect(await expectError(revoked, 401)).toBe('invalid token');
    await expectError(await api.get('/api/books/getAllBooks?limit=1', viewer.auth), 401);
    // a deleted user's token names nobody
    const gone = await makeUser();
    await testDb().query('DELETE FROM market.users WHERE id = $1', [gone.id]);
    await expectError(await api.get(`/api/books/search/${tag}`, gone.auth), 401);
    await expectError(await api.get('/api/books/getAllBooks?limit=1', gone.auth), 401);
    // the public search is unaffected by a token it does not read
    expect(ids(await json(await api.get(`/api/books/search/public/${tag}`, gone.auth)))).toEqual([book._id]);
  });
});

describe('requests and matching', () => {
  it("matches by ISBN-10/13, normalised course and name; both directions; never the requester's own book", async () => {
    const buyer = await makeUser();
    const seller = await makeUser();
    const tag = `m${Date.now().toString(36)}`;
    const isbn = uniqueIsbn();
    const byIsbn = await postBook(seller, { name: `Isbn ${tag}`, course: 'ABC 101', ISBN: isbn.isbn10 });
    const byCourse = await postBook(seller, { name: `Course ${tag}`, course: 'XYZ 999', ISBN: null });
    const noMatch = await postBook(seller, { name: `Other ${tag}`, course: 'XYZ 9990', ISBN: null });
    await postBook(buyer, { name: `Own ${tag}`, course: 'XYZ 999', ISBN: null });

    const r1 = await api.post(
      '/api/books/requestBook',
      { data: { payload: { name: 'Something else', course: 'QQQ 111', ISBN: isbn.isbn13 } } },
      buyer.auth,
    );
    expect(r1.status).toBe(200);
    expect((await json(r1)).data.matches).toBe(1);
    const r2 = await json(
      await api.post('/api/books/requestBook', { name: 'Anything', course: 'xyz-999' }, buyer.auth),
    );
    expect(r2.data.matches).toBe(1);
    const matches = ids(await json(await api.get('/api/books/getUserMatches', buyer.auth)));
    expect(matches.sort()).toEqual([byIsbn._id, byCourse._id].sort());
    expect(matches).not.toContain(noMatch._id);

    // a later post whose name contains the request's name matches too
    const r3 = await json(
      await api.post('/api/books/requestBook', { name: `Linear Algebra ${tag}`, course: 'MTH 165' }, buyer.auth),
    );
    expect(r3.data.matches).toBe(0);
    const later = await postBook(seller, {
      name: `Linear Algebra ${tag} and Its Applications`,
      course: 'MTH 999',
      ISBN: null,
    });
    expect(ids(await json(await api.get('/api/books/getUserMatches', buyer.auth)))).toContain(later._id);
    const notes = await json(await api.get('/api/user/getNotifications', buyer.auth));
    expect(notes.data[0].message).toBe(
      `Match found: "${later.name}" matches your request for "Linear Algebra ${tag}".`,
    );

    const reqs = await json(await api.get('/api/user/getRequests', buyer.auth));
    expect(reqs.data.map((r: any) => r.course)).toEqual(['MTH 165', 'XYZ-999', 'QQQ 111']);
    expect(reqs.data[2].ISBN).toBe(isbn.isbn13);

    // deleting one request removes only its own matches
    const isbnRequest = reqs.data[2]._id;
    expect((await api.post('/api/user/deleteRequest', { bookID: isbnRequest }, buyer.auth)).status).toBe(200);
    const after = ids(await json(await api.get('/api/books/getUserMatches', buyer.auth)));
    expect(after.sort()).toEqual([byCourse._id, later._id].sort());
    await expectError(await api.post('/api/user/deleteRequest', { bookID: isbnRequest }, buyer.auth), 404);
    const events = await testDb().query<{ n: number }>(
      "SELECT count(*)::int AS n FROM webhooks.outbox WHERE event_name = 'book_matched' AND payload->>'userId' = $1",
      [buyer.id],
    );
    expect(events[0]!.n).toBe(3);
  });

  it.each([
    ['missing course', { name: 'x' }],
    ['bad ISBN', { name: 'x', course: 'ABC 123', ISBN: '123' }],
  ])('rejects a request with %s', async (_n, b) => {
    const u = await makeUser();
    await expectError(await api.post('/api/books/requestBook', b, u.auth), 400);
  });
});
