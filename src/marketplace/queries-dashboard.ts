/** SQL for the admin dashboard: statistics, users, transactions and staff status moves. */
import type { Queryable } from '../platform/db.ts';
import { publicUser, type UserRow } from './queries-users.ts';
import { BOOK_COLS, publicBook, type BookRow } from './queries-books.ts';
import { TX_COLS, type TransactionRow } from './queries-cart.ts';

const USER_COLS = `id::text, email, first_name, last_name, university, cmc, venmo_username, permission_type,
  books_sold, books_bought, money_made::text, token_version, created_at`;

export async function statistics(db: Queryable) {
  const [r] = await db.query<Record<string, string | number>>(
    `SELECT (SELECT count(*) FROM market.users)::int AS total_users,
            (SELECT count(*) FROM market.books)::int AS total_books,
            (SELECT count(*) FROM market.requests)::int AS total_requests,
            (SELECT count(*) FROM market.transactions)::int AS total_transactions,
            (SELECT count(*) FROM market.transactions WHERE status = 0)::int AS pending_transactions,
            (SELECT coalesce(sum(total_charged), 0) FROM market.transactions)::text AS total_charged,
            (SELECT coalesce(json_object_agg(status, n), '{}'::json) FROM (SELECT status, count(*)::int AS n FROM market.books GROUP BY status) s) AS by_status`,
  );
  const byStatus = (r!.by_status ?? {}) as unknown as Record<string, number>;
  return {
    totalUsers: r!.total_users,
    totalBooks: r!.total_books,
    totalRequests: r!.total_requests,
    totalTransactions: r!.total_transactions,
    pendingTransactions: r!.pending_transactions,
    totalCharged: Number(r!.total_charged),
    booksByStatus: Object.fromEntries([0, 1, 2, 3, 5].map((s) => [String(s), byStatus[String(s)] ?? 0])),
  };
}

/** Users, optionally filtered by a text found in the address or the name (case-insensitive, literal). */
export async function users(db: Queryable, q: string | undefined, limit: number, offset: number) {
  const rows = await db.query<UserRow>(
    `SELECT ${USER_COLS} FROM market.users
     WHERE $1::text IS NULL OR strpos(lower(email || ' ' || first_name || ' ' || last_name), lower($1)) > 0
     ORDER BY id LIMIT $2 OFFSET $3`,
    [q ?? null, limit, offset],
  );
  return rows.map(publicUser);
}

export async function booksWithStatus(
  db: Queryable,
  status: number,
  limit: number,
  offset: number,
): Promise<BookRow[]> {
  return db.query<BookRow>(
    `SELECT ${BOOK_COLS} FROM market.books b WHERE b.status = $1 ORDER BY b.status_changed_at DESC, b.id DESC LIMIT $2 OFFSET $3`,
    [status, limit, offset],
  );
}

export async function transactions(
  db: Queryable,
  status: number | undefined,
  limit: number,
  offset: number,
): Promise<TransactionRow[]> {
  return db.query<TransactionRow>(
    `SELECT ${TX_COLS} FROM market.transactions t WHERE $1::smallint IS NULL OR t.status = $1 ORDER BY t.id DESC LIMIT $2 OFFSET $3`,
    [status ?? null, limit, offset],
  );
}

export async function transactionsByName(db: Queryable, first: string, last: string): Promise<TransactionRow[]> {
  return db.query<TransactionRow>(
    `SELECT ${TX_COLS} FROM market.transactions t WHERE lower(t.buyer_first_name) = lower($1) AND lower(t.buyer_last_name) = lower($2)
     ORDER BY t.id DESC LIMIT 200`,
    [first, last],
  );
}

/** Completes a pending transaction (0 -> 1); undefined when missing or not pending. */
export async function confirmTransaction(tx: Queryable, id: string): Promise<TransactionRow | undefined> {
  return (
    await tx.query<TransactionRow>(
      `UPDATE market.transactions t SET status = 1 WHERE t.id = $1 AND t.status = 0 RETURNING ${TX_COLS}`,
      [id],
    )
  )[0];
}

export async function transactionExists(db: Queryable, id: string): Promise<boolean> {
  return (await db.query('SELECT 1 FROM market.transactions WHERE id = $1', [id])).length === 1;
}

/** Sets a permission from one of `from` to `to`; the old value, or undefined when the user is missing. */
export async function setPermission(
  tx: Queryable,
  userId: string,
  from: readonly number[],
  to: number,
): Promise<{ changed: boolean; before?: number }> {
  const [cur] = await tx.query<{ permission_type: number }>(
    'SELECT permission_type FROM market.users WHERE id = $1 FOR UPDATE',
    [userId],
  );
  if (!cur) return { changed: false };
  if (!from.includes(cur.permission_type)) return { changed: false, before: cur.permission_type };
  await tx.query('UPDATE market.users SET permission_type = $2 WHERE id = $1', [userId, to]);
  return { changed: true, before: cur.permission_type };
}

export async function emailOf(db: Queryable, userId: string | null): Promise<string | undefined> {
  if (!userId) return undefined;
  return (await db.query<{ email: string }>('SELECT email FROM market.users WHERE id = $1', [userId]))[0]?.email;
}

/**
 * extendBookInfo: the stored books with these ids, in the order asked (repeats kept, unknown ids
 * left out), each with its owner and buyer as public users (null when there is none). One statement.
 */
export async function extendBooks(db: Queryable, ids: readonly string[]) {
  const userJson = (col: string) =>
    `(SELECT row_to_json(u) FROM (SELECT ${USER_COLS} FROM market.users WHERE id = ${col}) u)`;
  const rows = await db.query<BookRow & { owner_row: UserRow | null; buyer_row: UserRow | null }>(
    `SELECT ${BOOK_COLS}, ${userJson('b.owner_id')} AS owner_row, ${userJson('b.buyer_id')} AS buyer_row
     FROM unnest($1::bigint[]) WITH ORDINALITY AS want(id, n) JOIN market.books b ON b.id = want.id ORDER BY want.n`,
    [ids],
  );
  return rows.map(({ owner_row, buyer_row, ...b }) => ({
    ...publicBook(b),
    ownerObject: owner_row ? publicUser(owner_row) : null,
    buyerObject: buyer_row ? publicUser(buyer_row) : null,
  }));
}
