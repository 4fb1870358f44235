/**
 * The public pages of the books: the listing (newest first, keyset paging by the API's cursor) with
 * search (the API's ranked search), and a book's page with "add to cart" for a signed-in student. They
 * run the API's statements (queries-books.ts listingStatement, searchStatement) for the same viewer, so a
 * signed-in student's own books are left out and cart items marked exactly as the API does.
 */
import { type Context, Hono } from 'hono';
import type { Statement } from '../../platform/db.ts';
import type { AppEnv } from '../../platform/env.ts';
import { prefersJson, serviceIndex } from '../../platform/service-index.ts';
import * as act from '../actions-books.ts';
import { searchTsQuery } from '../matching.ts';
import * as q from '../queries-books.ts';
import { rowsAsJson } from '../queries-users.ts';
import { BOOK_LIMIT } from '../routes-books.ts';
import { bookIdSchema, cursorQuery, encodeCursor } from '../schemas.ts';
import { BOOK_COLUMNS, bookFacts, table } from './book-views.ts';
import { doneNotice, parseForm, refusal } from './forms.ts';
import { csrfToken, field, h, type Notice, postButton, render } from './html.ts';
import { requireSession, viewer } from './session.ts';

export const browsePages = new Hono<AppEnv>();

async function rows<T>(c: Context<AppEnv>, st: Statement): Promise<T[]> {
  const json = rowsAsJson(st);
  return (await c.get('db').query<{ rows: T[] }>(json.text, json.params))[0]!.rows;
}

function searchForm(text: string) {
  return h(
    'form',
    { method: 'get', action: '/', role: 'search', class: 'search' },
    field({ name: 'q', label: 'Search by title, course or ISBN', type: 'search', value: text, required: false }),
    h('button', { type: 'submit' }, 'Search'),
  );
}

const cartColumn = { label: 'In my cart', cell: (b: q.BookRow) => (b.in_cart ? 'Yes' : '') };

/** `GET /` asked for JSON (`Accept: application/json`): what the service is and where its API is. */
const apiIndex = serviceIndex({
  name: 'Textbook marketplace',
  description:
    'Students at a university buy and sell textbooks: .edu sign-up, books for sale and requested, automatic matching, carts and first-come-first-served checkout, and staff dashboards. This page in a browser is the marketplace itself.',
  links: [
    { rel: 'alternate', href: '/', title: 'The marketplace in a browser (the listing of books)' },
    { rel: 'help', href: '/api/books', title: 'The JSON API (under /api: auth, books, user, dashboard)' },
    { rel: 'status', href: '/healthz', title: 'Health' },
  ],
  examples: [
    { title: 'Listing (first page, no token)', method: 'GET', path: '/api/books/getBooksNoToken/20/0' },
    { title: 'Search', method: 'GET', path: '/api/books/search/public/calculus' },
    { title: 'Log in', method: 'POST', path: '/api/auth/login' },
  ],
});

browsePages.get('/', async (c) => {
  c.header('vary', 'accept');
  if (prefersJson(c.req.header('accept'))) return apiIndex(c);
  const me = viewer(c)?.id;
  const text = (c.req.query('q') ?? '').trim().slice(0, 100);
  const columns = me ? [...BOOK_COLUMNS, cartColumn] : BOOK_COLUMNS;
  if (text) {
    const tsq = searchTsQuery(text);
    const found = tsq ? await rows<q.BookRow>(c, q.searchStatement(tsq, me, BOOK_LIMIT)) : [];
    const notice: Notice | undefined = tsq ? undefined : { kind: 'error', text: 'Type at least one letter or digit.' };
    return render(
      c,
      { title: `Books matching “${text}”`, notice, status: tsq ? 200 : 400 },
      searchForm(text),
      table(`${found.length} books found, best matches first`, found, columns, 'No listed book matches.'),
      h('p', null, h('a', { href: '/' }, 'All books')),
    );
  }
  const cursor = cursorQuery.safeParse({ cursor: c.req.query('cursor') });
  if (!cursor.success)
    return render(
      c,
      { title: 'Books for sale', status: 400, notice: { kind: 'error', text: 'This page link is not valid.' } },
      h('p', null, h('a', { href: '/' }, 'Start from the newest books')),
    );
  const books = await rows<q.ListedRow>(c, q.listingStatement(me, BOOK_LIMIT, 0, cursor.data.cursor));
  const last = books[books.length - 1];
  const next =
    books.length === BOOK_LIMIT && last ? `/?cursor=${encodeCursor({ postedUs: last.posted_us, id: last.id })}` : '';
  return render(
    c,
    { title: 'Books for sale', notice: doneNotice(c) },
    searchForm(''),
    table('Listed books, newest first', books, columns, 'No books are listed right now.'),
    h(
      'p',
      { class: 'pager' },
      cursor.data.cursor ? h('a', { href: '/' }, 'Newest books') : null,
      cursor.data.cursor && next ? ' · ' : null,
      next ? h('a', { href: next, rel: 'next' }, 'Older books') : null,
    ),
  );
});

async function bookPage(c: Context<AppEnv>, id: string, notice?: Notice, status: 200 | 404 | 409 = 200) {
  const me = viewer(c);
  const book = /^\d{1,15}$/.test(id) ? await q.bookById(c.get('db'), id) : undefined;
  const visible = book && (book.status === 0 || me?.id === book.owner_id || me?.id === book.buyer_id);
  if (!book || !visible)
    return render(
      c,
      { title: 'Book not found', status: 404 },
      h('p', null, h('a', { href: '/' }, 'See the listed books')),
    );
  let action = null;
  if (!me && book.status === 0)
    action = h('p', null, h('a', { href: `/login?next=/books/${book.id}` }, 'Log in'), ' to buy it.');
  else if (me && me.id !== book.owner_id && book.status === 0)
    action = postButton('/cart/add', await csrfToken(c), 'Add to cart', { bookID: book.id });
  return render(c, { title: book.name, notice: notice ?? doneNotice(c), status }, bookFacts(book), action);
}

browsePages.get('/books/:id', (c) => bookPage(c, c.req.param('id')));

browsePages.post('/cart/add', requireSession, async (c) => {
  const p = await parseForm(c, bookIdSchema);
  if (!p.ok) return bookPage(c, '', undefined, 404);
  try {
    await act.addToCart(c, viewer(c)!.id, p.data.bookID);
  } catch (err) {
    const r = refusal(err);
    return bookPage(c, p.data.bookID, r.notice, r.status as 404 | 409);
  }
  return c.redirect('/cart?done=added', 303);
});
