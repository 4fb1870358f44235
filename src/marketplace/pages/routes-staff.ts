/**
 * Staff pages (admin = 1, owner = 2; a 403 page otherwise): books to confirm (condition checked and buyer
 * charged, 1 -> 2; delivered and seller paid, 2 -> 3), statistics, finding users; the owner also makes and
 * removes admins and runs the unlisting job. Every change is the API's action (actions-staff.ts); the
 * lists are the dashboard's queries.
 */
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../../platform/env.ts';
import { HttpError } from '../../platform/errors.ts';
import * as act from '../actions-staff.ts';
import { STATUS } from '../book-status.ts';
import type { BookRow } from '../queries-books.ts';
import type { TransactionRow } from '../queries-cart.ts';
import * as dash from '../queries-dashboard.ts';
import { idSchema, unlistSchema, userIdSchema } from '../schemas.ts';
import { BOOK_COLUMNS, type Column, price, STATUS_TEXT, table } from './book-views.ts';
import { doneNotice, parseForm, refusal } from './forms.ts';
import { csrfToken, field, form, h, type Notice, postButton, render } from './html.ts';
import { requireSession, viewer } from './session.ts';

export const staffPages = new Hono<AppEnv>();

function role(level: 1 | 2): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if ((viewer(c)?.permissionType ?? 0) < level) throw new HttpError(403, 'This page is for BarterOut staff only.');
    await next();
  };
}
staffPages.use('/staff', requireSession, role(1));
staffPages.use('/staff/*', requireSession, role(1));
staffPages.use('/staff/owner/*', role(2));

type Status = 200 | 400 | 404 | 409;
const STAFF_NAV = () =>
  h(
    'p',
    null,
    h('a', { href: '/staff' }, 'Books to confirm'),
    ' · ',
    h('a', { href: '/staff/statistics' }, 'Statistics'),
    ' · ',
    h('a', { href: '/staff/users' }, 'Find users'),
  );

async function confirmPage(c: Context<AppEnv>, notice?: Notice, status: Status = 200) {
  const csrf = await csrfToken(c);
  const db = c.get('db');
  const [bought, charged, pending] = await Promise.all([
    dash.booksWithStatus(db, STATUS.CHECKED_OUT, 100, 0),
    dash.booksWithStatus(db, STATUS.VERIFIED, 100, 0),
    dash.transactions(db, 0, 100, 0),
  ]);
  const txColumns: Column<TransactionRow>[] = [
    { label: 'Transaction', cell: (t) => `#${t.id}` },
    { label: 'Buyer', cell: (t) => `${t.buyer_first_name} ${t.buyer_last_name} (Venmo ${t.buyer_venmo})` },
    { label: 'Books', cell: (t) => String(t.books_purchased.length) },
    { label: 'Total to charge', cell: (t) => price(t.total_charged) },
    {
      label: 'Actions',
      cell: (t) => postButton('/staff/transactions/confirm', csrf, `Mark transaction #${t.id} complete`, { id: t.id }),
    },
  ];
  const move = (to: number, label: string): Column<BookRow> => ({
    label: 'Actions',
    cell: (b) =>
      postButton(to === STATUS.VERIFIED ? '/staff/confirm' : '/staff/paid', csrf, `${label}: ${b.name}`, { id: b.id }),
  });
  return render(
    c,
    { title: 'Books to confirm', notice: notice ?? doneNotice(c), status },
    STAFF_NAV(),
    h('h2', null, 'Bought: check the condition, then charge the buyer'),
    table(
      'Books bought and not yet checked',
      bought,
      [...BOOK_COLUMNS, move(STATUS.VERIFIED, 'Condition checked, charge buyer')],
      'No book waits for a check.',
    ),
    h('h2', null, 'Charged: deliver the book, then pay the seller'),
    table(
      'Books charged and not yet delivered',
      charged,
      [...BOOK_COLUMNS, move(STATUS.PAID, 'Delivered, seller paid')],
      'No book waits for delivery.',
    ),
    h('h2', null, 'Transactions to complete'),
    table('Pending transactions, newest first', pending, txColumns, 'No transaction is pending.'),
  );
}

staffPages.get('/staff', (c) => confirmPage(c));
for (const [path, to] of [
  ['/staff/confirm', STATUS.VERIFIED],
  ['/staff/paid', STATUS.PAID],
] as const) {
  staffPages.post(path, async (c) => {
    const p = await parseForm(c, idSchema);
    if (!p.ok) return confirmPage(c, { kind: 'error', text: 'No such book.' }, 404);
    try {
      await act.staffMove(c, p.data.id, to);
    } catch (err) {
      const r = refusal(err);
      return confirmPage(c, r.notice, r.status as Status);
    }
    return c.redirect('/staff?done=moved', 303);
  });
}

staffPages.post('/staff/transactions/confirm', async (c) => {
  const p = await parseForm(c, idSchema);
  if (!p.ok) return confirmPage(c, { kind: 'error', text: 'No such transaction.' }, 404);
  try {
    await act.confirmTransaction(c, p.data.id);
  } catch (err) {
    const r = refusal(err);
    return confirmPage(c, r.notice, r.status as Status);
  }
  return c.redirect('/staff?done=completed', 303);
});

staffPages.get('/staff/statistics', async (c) => {
  const s = await dash.statistics(c.get('db'));
  const facts: [string, string][] = [
    ['Users', String(s.totalUsers)],
    ['Books', String(s.totalBooks)],
    ['Requests', String(s.totalRequests)],
    ['Transactions', String(s.totalTransactions)],
    ['Transactions pending', String(s.pendingTransactions)],
    ['Total charged', price(s.totalCharged)],
    ...Object.entries(s.booksByStatus).map(([k, n]): [string, string] => [
      `Books: ${STATUS_TEXT[Number(k)]}`,
      String(n),
    ]),
  ];
  return render(
    c,
    { title: 'Statistics' },
    STAFF_NAV(),
    h(
      'dl',
      { class: 'facts' },
      facts.map(([k, v]) => [h('dt', null, k), h('dd', null, v)]),
    ),
  );
});

const ROLE_TEXT = ['Student', 'Admin', 'Owner'];
const userQuery = z.object({ q: z.string().trim().min(1).max(100).optional() });

async function usersPage(c: Context<AppEnv>, notice?: Notice, status: Status = 200) {
  const parsed = userQuery.safeParse({ q: c.req.query('q') || undefined });
  const text = parsed.success ? parsed.data.q : undefined;
  const found = await dash.users(c.get('db'), text, 100, 0);
  const csrf = await csrfToken(c);
  const owner = viewer(c)!.permissionType >= 2;
  type U = (typeof found)[number];
  const columns: Column<U>[] = [
    { label: 'Name', cell: (u) => `${u.firstName} ${u.lastName}` },
    { label: 'E-mail', cell: (u) => u.emailAddress },
    { label: 'Venmo', cell: (u) => u.venmoUsername },
    { label: 'Role', cell: (u) => ROLE_TEXT[u.permissionType] ?? String(u.permissionType) },
    { label: 'Bought / sold', cell: (u) => `${u.numberOfBooksBought} / ${u.numberOfBooksSold}` },
  ];
  if (owner)
    columns.push({
      label: 'Actions',
      cell: (u) =>
        u.permissionType === 0
          ? postButton('/staff/owner/make-admin', csrf, `Make ${u.firstName} ${u.lastName} an admin`, { userID: u._id })
          : u.permissionType === 1
            ? postButton('/staff/owner/remove-admin', csrf, `Remove admin ${u.firstName} ${u.lastName}`, {
                userID: u._id,
              })
            : '',
    });
  return render(
    c,
    { title: 'Find users', notice: notice ?? doneNotice(c), status },
    STAFF_NAV(),
    h(
      'form',
      { method: 'get', action: '/staff/users', role: 'search', class: 'search' },
      field({ name: 'q', label: 'Name or e-mail contains', type: 'search', value: text, required: false }),
      h('button', { type: 'submit' }, 'Find'),
    ),
    table(text ? 'Users matching the search' : 'All users (first 100)', found, columns, 'No user matches.'),
    owner ? [h('h2', null, 'Unlist old books'), unlistForm(csrf)] : null,
  );
}

const unlistForm = (csrf: string) =>
  form(
    '/staff/owner/unlist',
    csrf,
    'Unlist old books now',
    field({
      name: 'days',
      label: 'Unlist books listed more than this many days ago (empty: the configured default)',
      type: 'number',
      required: false,
      extra: { min: 1, max: 3650 },
    }),
  );

staffPages.get('/staff/users', (c) => usersPage(c));
for (const [path, change] of [
  ['/staff/owner/make-admin', 'makeAdmin'],
  ['/staff/owner/remove-admin', 'removeAdmin'],
] as const) {
  staffPages.post(path, async (c) => {
    const p = await parseForm(c, userIdSchema);
    if (!p.ok) return usersPage(c, { kind: 'error', text: 'No such user.' }, 404);
    try {
      await act.changePermission(c, viewer(c)!.id, p.data.userID, change);
    } catch (err) {
      const r = refusal(err);
      return usersPage(c, r.notice, r.status as Status);
    }
    return c.redirect('/staff/users?done=admin', 303);
  });
}

staffPages.post('/staff/owner/unlist', async (c) => {
  const p = await parseForm(c, unlistSchema.unwrap(), ['days']);
  if (!p.ok) return usersPage(c, { kind: 'error', text: `Days: ${p.errors.days ?? 'not valid'}` }, 400);
  const r = await act.runUnlisting(c, p.data.days);
  const text = `${r.unlisted} books listed more than ${r.days} days ago were unlisted; ${r.owners} owners were told.`;
  return usersPage(c, { kind: 'ok', text });
});
