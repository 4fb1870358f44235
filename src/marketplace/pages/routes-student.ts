/**
 * A signed-in student's pages: sell and request a book, my books (delete, relist), my requests and their
 * matches, the cart and checkout (first come, first served: when someone else bought a book first, the
 * cart page says which and why), purchases, sold books and notifications. Every change is the API's
 * action (actions-books.ts, actions-checkout.ts) with the API's schemas; the pages only present it.
 */
import { type Context, Hono } from 'hono';
import type { AppEnv } from '../../platform/env.ts';
import { HttpError } from '../../platform/errors.ts';
import * as act from '../actions-books.ts';
import { checkoutCart } from '../actions-checkout.ts';
import { FEE, totalWithFee } from '../book-status.ts';
import * as q from '../queries-books.ts';
import * as cart from '../queries-cart.ts';
import { notificationsOf } from '../queries-users.ts';
import { bookIdSchema, bookSchema, requestSchema } from '../schemas.ts';
import { BOOK_COLUMNS, type Column, price, REQUEST_COLUMNS, table, withStatus } from './book-views.ts';
import { doneNotice, INVALID, parseForm, refusal } from './forms.ts';
import { csrfToken, type FieldSpec, field, form, h, type Notice, postButton, render } from './html.ts';
import { requireSession, viewer } from './session.ts';

export const studentPages = new Hono<AppEnv>();
for (const path of ['/sell', '/request', '/my-books/*', '/my-books', '/requests', '/requests/*', '/cart', '/cart/*'])
  studentPages.use(path, requireSession);
for (const path of ['/checkout', '/purchases', '/sold', '/notifications']) studentPages.use(path, requireSession);

const me = (c: Context<AppEnv>) => viewer(c)!.id;
type Status = 200 | 400 | 404 | 409;

const BOOK_FIELDS = (v: Record<string, string>): FieldSpec[] => [
  { name: 'name', label: 'Title', value: v.name },
  { name: 'course', label: 'Course', value: v.course, hint: 'Like CSC 171.' },
  {
    name: 'edition',
    label: 'Edition',
    type: 'number',
    value: v.edition,
    extra: { min: 0, max: 100, inputmode: 'numeric' },
  },
  { name: 'condition', label: 'Condition', value: v.condition, hint: 'For example: Like new, Good, Worn.' },
  {
    name: 'price',
    label: 'Price in dollars',
    type: 'number',
    value: v.price,
    extra: { min: 1, max: 200, step: '0.01' },
  },
  { name: 'ISBN', label: 'ISBN (optional)', value: v.ISBN, required: false },
  { name: 'comments', label: 'Comments (optional)', type: 'textarea', value: v.comments, required: false },
];

async function sellPage(c: Context<AppEnv>, v: Record<string, string> = {}, errors: Record<string, string> = {}) {
  const status = Object.keys(errors).length ? 400 : 200;
  return render(
    c,
    { title: 'Sell a book', status, notice: status === 400 ? INVALID : undefined },
    form('/sell', await csrfToken(c), 'List my book', ...BOOK_FIELDS(v).map((f) => field(f, errors))),
  );
}

studentPages.get('/sell', (c) => sellPage(c));
studentPages.post('/sell', async (c) => {
  const p = await parseForm(c, bookSchema, ['ISBN', 'comments']);
  if (!p.ok) return sellPage(c, p.values, p.errors);
  const { book } = await act.postBook(c, me(c), p.data);
  return c.redirect(`/books/${book.id}?done=posted`, 303);
});

const REQUEST_FIELDS = (v: Record<string, string>): FieldSpec[] => [
  { name: 'name', label: 'Title', value: v.name },
  { name: 'course', label: 'Course', value: v.course, hint: 'Like CSC 171.' },
  { name: 'ISBN', label: 'ISBN (optional)', value: v.ISBN, required: false },
];

async function requestPage(c: Context<AppEnv>, v: Record<string, string> = {}, errors: Record<string, string> = {}) {
  const status = Object.keys(errors).length ? 400 : 200;
  return render(
    c,
    { title: 'Request a book', status, notice: status === 400 ? INVALID : undefined },
    h('p', null, 'Tell us what you need; we match it against books posted now and later, and write to you.'),
    form('/request', await csrfToken(c), 'Request it', ...REQUEST_FIELDS(v).map((f) => field(f, errors))),
  );
}

studentPages.get('/request', (c) => requestPage(c));
studentPages.post('/request', async (c) => {
  const p = await parseForm(c, requestSchema, ['ISBN']);
  if (!p.ok) return requestPage(c, p.values, p.errors);
  await act.requestBook(c, me(c), p.data);
  return c.redirect('/requests?done=requested', 303);
});

async function myBooksPage(c: Context<AppEnv>, notice?: Notice, status: Status = 200) {
  const csrf = await csrfToken(c);
  const books = await q.booksOfOwner(c.get('db'), me(c), [0, 5]);
  const actions: Column<q.BookRow> = {
    label: 'Actions',
    cell: (b) => [
      b.status === 5 ? postButton('/my-books/reactivate', csrf, `Relist ${b.name}`, { bookID: b.id }) : null,
      ' ',
      postButton('/my-books/delete', csrf, `Delete ${b.name}`, { bookID: b.id }, 'button'),
    ],
  };
  return render(
    c,
    { title: 'My books', notice: notice ?? doneNotice(c), status },
    h('p', null, h('a', { href: '/sell' }, 'Sell another book'), ' · ', h('a', { href: '/sold' }, 'Books I sold')),
    table('Books I listed or unlisted', books, [...BOOK_COLUMNS, withStatus, actions], 'You have no books listed.'),
  );
}

studentPages.get('/my-books', (c) => myBooksPage(c));

/** A one-book action of a form; its refusal is shown on `page` with the API's status. */
function bookAction(
  path: string,
  run: (c: Context<AppEnv>, id: string) => Promise<unknown>,
  page: (c: Context<AppEnv>, n?: Notice, s?: Status) => Promise<Response>,
  done: string,
) {
  studentPages.post(path, async (c) => {
    const p = await parseForm(c, bookIdSchema);
    if (!p.ok) return page(c, { kind: 'error', text: 'No such item.' }, 404);
    try {
      await run(c, p.data.bookID);
    } catch (err) {
      const r = refusal(err);
      return page(c, r.notice, r.status as Status);
    }
    return c.redirect(done, 303);
  });
}

bookAction('/my-books/delete', (c, id) => act.deleteBook(c, me(c), id), myBooksPage, '/my-books?done=deleted');
bookAction(
  '/my-books/reactivate',
  (c, id) => act.reactivateBook(c, me(c), id),
  myBooksPage,
  '/my-books?done=reactivated',
);

async function requestsPage(c: Context<AppEnv>, notice?: Notice, status: Status = 200) {
  const csrf = await csrfToken(c);
  const [requests, matches] = await Promise.all([q.requestsOf(c.get('db'), me(c)), q.matchedBooks(c.get('db'), me(c))]);
  const del: Column<q.RequestRow> = {
    label: 'Actions',
    cell: (r) => postButton('/requests/delete', csrf, `Delete request for ${r.name}`, { bookID: r.id }),
  };
  return render(
    c,
    { title: 'Requests and matches', notice: notice ?? doneNotice(c), status },
    h('p', null, h('a', { href: '/request' }, 'Request another book')),
    h('h2', null, 'Books matching my requests'),
    table(
      'Listed books that match an open request',
      matches,
      BOOK_COLUMNS,
      'No listed book matches your requests yet.',
    ),
    h('h2', null, 'My requests'),
    table('My requests', requests, [...REQUEST_COLUMNS, del], 'You have not requested a book.'),
  );
}

studentPages.get('/requests', (c) => requestsPage(c));
bookAction(
  '/requests/delete',
  (c, id) => act.deleteRequest(c, me(c), id),
  requestsPage,
  '/requests?done=request-deleted',
);

async function cartPage(c: Context<AppEnv>, notice?: Notice, status: Status = 200, taken: q.BookRow[] = []) {
  const csrf = await csrfToken(c);
  const books = await cart.cartBooks(c.get('db'), me(c));
  const remove: Column<q.BookRow> = {
    label: 'Actions',
    cell: (b) => postButton('/cart/remove', csrf, `Remove ${b.name}`, { bookID: b.id }, 'button'),
  };
  const cents = books.reduce((s, b) => s + Math.round(Number(b.price) * 100), 0);
  return render(
    c,
    { title: 'Cart', notice: notice ?? doneNotice(c), status },
    taken.length
      ? h(
          'div',
          null,
          h('h2', null, 'Bought by someone else first'),
          h(
            'ul',
            null,
            taken.map((b) => h('li', null, b.name)),
          ),
        )
      : null,
    table('Books in my cart', books, [...BOOK_COLUMNS, remove], 'Your cart is empty.'),
    books.length
      ? [
          h(
            'p',
            null,
            `Subtotal ${price(cents / 100)}; with the ${FEE * 100}% fee ${price(totalWithFee(cents) / 100)}.`,
          ),
          postButton('/checkout', csrf, 'Buy these books'),
        ]
      : h('p', null, h('a', { href: '/' }, 'Find books')),
  );
}

studentPages.get('/cart', (c) => cartPage(c));
bookAction('/cart/remove', (c, id) => act.removeFromCart(c, me(c), id), cartPage, '/cart?done=removed');

studentPages.post('/checkout', async (c) => {
  try {
    await checkoutCart(c, me(c));
  } catch (err) {
    if (err instanceof HttpError && err.status === 409) {
      const ids = (err.extra?.unavailable ?? []) as string[];
      const taken = (await Promise.all(ids.map((id) => q.bookById(c.get('db'), id)))).filter((b) => !!b);
      const text = `Someone else bought ${taken.length === 1 ? 'a book' : `${taken.length} books`} in your cart before you did, so nothing was bought. ${taken.length === 1 ? 'It has' : 'They have'} left your cart; you can buy the rest now.`;
      return cartPage(c, { kind: 'error', text }, 409, taken);
    }
    const r = refusal(err);
    return cartPage(c, r.notice, r.status as Status);
  }
  return c.redirect('/purchases?done=bought', 303);
});

studentPages.get('/purchases', async (c) => {
  const books = await q.booksBoughtBy(c.get('db'), me(c));
  return render(
    c,
    { title: 'Purchases', notice: doneNotice(c) },
    table('Books I bought', books, [...BOOK_COLUMNS, withStatus], 'You have not bought a book yet.'),
  );
});

studentPages.get('/sold', async (c) => {
  const books = await q.booksOfOwner(c.get('db'), me(c), [1, 2, 3]);
  return render(
    c,
    { title: 'Sold books' },
    table('Books of mine that were bought', books, [...BOOK_COLUMNS, withStatus], 'None of your books was bought yet.'),
  );
});

studentPages.get('/notifications', async (c) => {
  const notes = await notificationsOf(c.get('db'), me(c));
  return render(
    c,
    { title: 'Notifications' },
    notes.length
      ? h(
          'ol',
          { class: 'notes' },
          notes.map((n) => h('li', null, h('time', { datetime: n.date }, n.date.slice(0, 10)), ' ', n.message)),
        )
      : h('p', null, 'No notifications.'),
  );
});
