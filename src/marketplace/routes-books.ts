/**
 * /api/books: listing (public and per user), ranked full-text search, posting and requesting books
 * with automatic matching, deleting and relisting, and the original's checkoutCart alias.
 */
import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../platform/env.ts';
import { HttpError } from '../platform/errors.ts';
import { validate } from '../platform/validate.ts';
import { emitEvent } from './events.ts';
import { me, readAsViewer, requireUser, tokenForRead } from './auth.ts';
import { ok } from './views.ts';
import { afterCommit, MAIL, type OutgoingMail } from './mailer.ts';
import { normalizeCourse, normalizeName, searchTsQuery } from './matching.ts';
import * as q from './queries-books.ts';
import { addNotification, addNotifications } from './queries-users.ts';
import { bookIdSchema, bookSchema, cursorQuery, encodeCursor, pageSchema, requestSchema, body } from './schemas.ts';
import { checkoutHandler } from './routes-checkout.ts';

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

function matchEffects(matches: q.MatchRow[]): { mails: OutgoingMail[]; notify: [string, string][] } {
  const mails = matches.map((m) =>
    MAIL.match(m.email, m.request_name, m.book_name, `market-match-${m.request_id}-${m.book_id}`),
  );
  const notify = matches.map((m): [string, string] => [
    m.user_id,
    `Match found: "${m.book_name}" matches your request for "${m.request_name}".`,
  ]);
  return { mails, notify };
}

booksRoutes.post('/postBook', requireUser, body(bookSchema), async (c) => {
  const b = c.req.valid('json');
  const owner = me(c).id;
  const { book, matches } = await c.get('db').transaction(async (tx) => {
    const book = await q.insertBook(tx, {
      owner,
      name: b.name,
      nameNorm: normalizeName(b.name),
      edition: b.edition,
      course: b.course,
      courseNorm: normalizeCourse(b.course),
      price: b.price,
      condition: b.condition,
      comments: b.comments ?? b.Comments ?? null,
      isbn: b.ISBN,
    });
    await addNotification(tx, owner, `Thanks for posting "${book.name}" up for sale.`);
    await emitEvent(tx, 'book_posted', q.publicBook(book));
    const matches = await q.matchNewBook(tx, {
      id: book.id,
      owner,
      nameNorm: normalizeName(b.name),
      courseNorm: normalizeCourse(b.course),
      isbn: b.ISBN,
    });
    const fx = matchEffects(matches);
    await addNotifications(
      tx,
      fx.notify.map((n) => n[0]),
      fx.notify.map((n) => n[1]),
    );
    for (const m of matches) {
      await emitEvent(tx, 'book_matched', { bookId: book.id, requestId: m.request_id, userId: m.user_id });
    }
    return { book, matches };
  });
  afterCommit(c, matchEffects(matches).mails);
  return ok(c, { book: q.publicBook(book), matches: matches.length });
});

booksRoutes.post('/requestBook', requireUser, body(requestSchema), async (c) => {
  const r = c.req.valid('json');
  const owner = me(c).id;
  const { request, matches } = await c.get('db').transaction(async (tx) => {
    const request = await q.insertRequest(tx, {
      owner,
      name: r.name,
      nameNorm: normalizeName(r.name),
      course: r.course,
      courseNorm: normalizeCourse(r.course),
      isbn: r.ISBN,
    });
    await addNotification(
      tx,
      owner,
      `Your request for "${request.name}" has been recorded, and you will be notified if we find a match.`,
    );
    await emitEvent(tx, 'book_requested', q.publicRequest(request));
    const matches = await q.matchRequest(tx, request.id);
    if (matches.length)
      await addNotification(tx, owner, `We found ${matches.length} match(es) for your request for "${request.name}".`);
    for (const m of matches) {
      await emitEvent(tx, 'book_matched', { bookId: m.book_id, requestId: m.request_id, userId: owner });
    }
    return { request, matches };
  });
  const mails = matches.length
    ? [
        MAIL.match(
          matches[0]!.email,
          request.name,
          matches
            .map((m) => m.book_name)
            .slice(0, 5)
            .join('", "'),
          `market-match-${request.id}-request`,
        ),
      ]
    : [];
  afterCommit(c, mails);
  return ok(c, { request: q.publicRequest(request), matches: matches.length });
});

booksRoutes.post('/deleteBook', requireUser, body(bookIdSchema), async (c) => {
  const { bookID } = c.req.valid('json');
  const r = await c.get('db').transaction((tx) => q.deleteBook(tx, me(c).id, bookID));
  if (r.status === undefined) throw new HttpError(404, 'Book not found');
  if (!r.deleted) throw new HttpError(409, 'A book that has been bought cannot be deleted');
  return ok(c, { deleted: bookID });
});

booksRoutes.post('/reactivateBook', requireUser, body(bookIdSchema), async (c) => {
  const { bookID } = c.req.valid('json');
  const owner = me(c).id;
  const book = await c.get('db').transaction(async (tx) => {
    const moved = await q.moveStatus(tx, bookID, 5, 0, owner);
    if (!moved) return undefined;
    await emitEvent(tx, 'book_status_changed', { book: q.publicBook(moved), from: 5, to: 0 });
    return moved;
  });
  if (!book) {
    const cur = await q.bookById(c.get('db'), bookID);
    if (!cur || cur.owner_id !== owner) throw new HttpError(404, 'Book not found');
    throw new HttpError(409, `Only unlisted books can be reactivated (status is ${cur.status})`);
  }
  afterCommit(c);
  return ok(c, { book: q.publicBook(book) });
});

booksRoutes.post('/checkoutCart', requireUser, checkoutHandler);
