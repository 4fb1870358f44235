/**
 * /api/books: listing (public and per user), ranked full-text search, posting and requesting books
 * with automatic matching, deleting and relisting, and the original's checkoutCart alias.
 */
import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../platform/env.ts';
import { HttpError } from '../platform/errors.ts';
import { validate } from '../platform/validate.ts';
import * as act from './actions-books.ts';
import { me, readAsViewer, requireUser, tokenForRead } from './auth.ts';
import { ok } from './views.ts';
import { searchTsQuery } from './matching.ts';
import * as q from './queries-books.ts';
import { bookIdSchema, bookSchema, cursorQuery, encodeCursor, pageSchema, requestSchema, body } from './schemas.ts';
import { checkoutHandler } from './routes-user.ts';

export const BOOK_LIMIT = 40;

export const booksRoutes = new Hono<AppEnv>();

booksRoutes.get('/', (c) => ok(c, {}));

/**
 * A listing page as the original answers it; when the page is full, `X-Next-Cursor` carries an
 * opaque cursor that `?cursor=` takes to start the next page right after this one (keyset
 * pagination: a deep page costs what the first does; `skip` still counts from where the page starts).
 */
function listingPage(c: import('hono').Context<AppEnv>, books: q.ListedRow[], limit: number): Response {
  const res = ok(c, books.map(q.publicBook));
  const last = books[books.length - 1];
  if (books.length === limit && last)
    res.headers.set('x-next-cursor', encodeCursor({ postedUs: last.posted_us, id: last.id }));
  return res;
}

booksRoutes.get(
  '/getBooksNoToken/:limit/:skip',
  validate('param', pageSchema),
  validate('query', cursorQuery),
  async (c) => {
    const { limit, skip } = c.req.valid('param');
    const st = q.listingStatement(undefined, limit, skip, c.req.valid('query').cursor);
    const books = await readAsViewer<q.ListedRow>(c, () => st);
    return listingPage(c, books, limit);
  },
);

booksRoutes.get(
  '/getAllBooks',
  tokenForRead(false),
  validate('query', pageSchema.extend(cursorQuery.shape)),
  async (c) => {
    const { limit, skip, cursor } = c.req.valid('query');
    const books = await readAsViewer<q.ListedRow>(c, (viewer) => q.listingStatement(viewer, limit, skip, cursor));
    return listingPage(c, books, limit);
  },
);

const searchParam = z.object({ query: z.string().min(1).max(100) });

async function search(c: import('hono').Context<AppEnv>, text: string) {
  const tsq = searchTsQuery(text);
  if (!tsq) throw new HttpError(400, 'The search text needs at least one letter or digit');
  const books = await readAsViewer<q.BookRow>(c, (viewer) => q.searchStatement(tsq, viewer, BOOK_LIMIT));
  return ok(c, books.map(q.publicBook));
}

booksRoutes.get('/search/public/:query', validate('param', searchParam), (c) => search(c, c.req.valid('param').query));
booksRoutes.get('/search/:query', tokenForRead(true), validate('param', searchParam), (c) =>
  search(c, c.req.valid('param').query),
);

booksRoutes.get('/getUsersPosts', requireUser, async (c) => {
  const books = await q.booksOfOwner(c.get('db'), me(c).id, [0, 5]);
  return ok(c, books.map(q.publicBook));
});

booksRoutes.get('/getUserMatches', requireUser, async (c) => {
  const books = await q.matchedBooks(c.get('db'), me(c).id);
  return ok(c, books.map(q.publicBook));
});

booksRoutes.post('/postBook', requireUser, body(bookSchema), async (c) => {
  const { book, matches } = await act.postBook(c, me(c).id, c.req.valid('json'));
  return ok(c, { book: q.publicBook(book), matches });
});

booksRoutes.post('/requestBook', requireUser, body(requestSchema), async (c) => {
  const { request, matches } = await act.requestBook(c, me(c).id, c.req.valid('json'));
  return ok(c, { request: q.publicRequest(request), matches });
});

booksRoutes.post('/deleteBook', requireUser, body(bookIdSchema), async (c) => {
  const { bookID } = c.req.valid('json');
  await act.deleteBook(c, me(c).id, bookID);
  return ok(c, { deleted: bookID });
});

booksRoutes.post('/reactivateBook', requireUser, body(bookIdSchema), async (c) => {
  const book = await act.reactivateBook(c, me(c).id, c.req.valid('json').bookID);
  return ok(c, { book: q.publicBook(book) });
});

booksRoutes.post('/checkoutCart', requireUser, checkoutHandler);
