/**
 * SQL for carts and checkout.
 *
 * Checkout (first come, first served) is one transaction: the cart's books move 0 -> 1 with a
 * compare-and-set `UPDATE ... WHERE id = ANY($cart) AND status = 0 RETURNING id`. Row locks make
 * concurrent checkouts of one book serialise: the loser's UPDATE re-checks `status = 0` after the
 * winner commits and skips the row, so it gets fewer rows than its cart and throws, rolling back
 * everything it did. Rows are locked in id order first (books, then the users whose counters
 * change), so carts that overlap cannot deadlock. Then, in the same transaction: buyer and seller counters, the transaction
 * record (total = subtotal * 1.05), the buyer's matching open requests -> fulfilled, the buyer's
 * cart emptied. Other carts keep the sold books (hidden by getCartItems): their owners' checkouts
 * answer 409 naming them, and `dropFromCart` then takes them out.
 */
import type { Queryable } from '../platform/db.ts';
import { HttpError } from '../platform/errors.ts';
import { FEE } from './book-status.ts';
import { BOOK_COLS, type BookRow } from './queries-books.ts';

/** Adds a listed book of someone else to the cart; the reason when refused. */
export async function addToCart(
  db: Queryable,
  user: string,
  bookId: string,
): Promise<'added' | 'missing' | 'own' | 'unavailable' | 'duplicate'> {
  const [r] = await db.query<{ outcome: string }>(
    `WITH b AS (SELECT id, owner_id, status FROM market.books WHERE id = $2),
     ins AS (
       INSERT INTO market.cart_items (user_id, book_id)
       SELECT $1, b.id FROM b WHERE b.status = 0 AND b.owner_id <> $1
       ON CONFLICT DO NOTHING RETURNING book_id)
     SELECT CASE
       WHEN NOT EXISTS (SELECT 1 FROM b) THEN 'missing'
       WHEN (SELECT owner_id FROM b) = $1 THEN 'own'
       WHEN (SELECT status FROM b) <> 0 THEN 'unavailable'
       WHEN EXISTS (SELECT 1 FROM ins) THEN 'added'
       ELSE 'duplicate' END AS outcome`,
    [user, bookId],
  );
  return r!.outcome as 'added';
}

export async function removeFromCart(db: Queryable, user: string, bookId: string): Promise<boolean> {
  return (
    (
      await db.query('DELETE FROM market.cart_items WHERE user_id = $1 AND book_id = $2 RETURNING book_id', [
        user,
        bookId,
      ])
    ).length === 1
  );
}

export async function clearCart(db: Queryable, user: string): Promise<number> {
  return (await db.query('DELETE FROM market.cart_items WHERE user_id = $1 RETURNING book_id', [user])).length;
}

/** Cart books still listed, newest addition first (sold or unlisted ones drop out like the original). */
export async function cartBooks(db: Queryable, user: string): Promise<BookRow[]> {
  return db.query<BookRow>(
    `SELECT ${BOOK_COLS} FROM market.cart_items ci JOIN market.books b ON b.id = ci.book_id
     WHERE ci.user_id = $1 AND b.status = 0 ORDER BY ci.added_at DESC, b.id DESC`,
    [user],
  );
}

export interface CheckoutResult {
  transaction: TransactionRow;
  books: (BookRow & { owner_email: string })[];
  buyerEmail: string;
}

export interface TransactionRow {
  id: string;
  buyer_id: string;
  buyer_first_name: string;
  buyer_last_name: string;
  buyer_venmo: string;
  buyer_email: string;
  subtotal: string;
  total_charged: string;
  books_purchased: string[];
  status: number;
  created_at: Date;
}

export const TX_COLS = `t.id::text, t.buyer_id::text, t.buyer_first_name, t.buyer_last_name, t.buyer_venmo, t.buyer_email,
  t.subtotal::text, t.total_charged::text, t.books_purchased::text[], t.status, t.created_at`;

export function publicTransaction(t: TransactionRow) {
  return {
    _id: t.id,
    date: new Date(t.created_at).getTime(),
    buyerID: t.buyer_id,
    buyerFirstName: t.buyer_first_name,
    buyerLastName: t.buyer_last_name,
    buyerVenmo: t.buyer_venmo,
    buyerEmail: t.buyer_email,
    subtotal: Number(t.subtotal),
    totalCharged: Number(t.total_charged),
    booksPurchased: t.books_purchased,
    status: t.status,
  };
}

/** The whole checkout, inside the caller's transaction; throws 409 (rolling back) if any book was taken. */
export async function checkout(tx: Queryable, buyer: string): Promise<CheckoutResult> {
  const cart = (
    await tx.query<{ id: string }>(
      'SELECT book_id::text AS id FROM market.cart_items WHERE user_id = $1 ORDER BY book_id',
      [buyer],
    )
  ).map((r) => r.id);
  if (!cart.length) throw new HttpError(400, 'Your cart is empty');
  // Locks in id order (books, then users) so overlapping checkouts queue instead of deadlocking.
  await tx.query('SELECT id FROM market.books WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE', [cart]);
  const taken = await tx.query<{ id: string; owner_id: string; name: string; price: string }>(
    `UPDATE market.books SET status = 1, buyer_id = $2, status_changed_at = now()
     WHERE id = ANY($1::bigint[]) AND status = 0 AND owner_id <> $2 RETURNING id::text, owner_id::text, name, price::text`,
    [cart, buyer],
  );
  if (taken.length < cart.length) {
    const got = new Set(taken.map((t) => t.id));
    const unavailable = cart.filter((id) => !got.has(id));
    throw new HttpError(409, 'Some books in your cart are no longer available; nothing was bought', {
      extra: { unavailable },
    });
  }
  await tx.query(
    `SELECT id FROM market.users WHERE id = $2 OR id IN (SELECT owner_id FROM market.books WHERE id = ANY($1::bigint[]))
     ORDER BY id FOR UPDATE`,
    [cart, buyer],
  );
  const [stats] = await tx.query<{ subtotal: string }>(
    `WITH per_seller AS (
       SELECT owner_id, count(*)::int AS n, sum(price) AS money FROM market.books WHERE id = ANY($1::bigint[]) GROUP BY owner_id),
     sellers AS (
       UPDATE market.users u SET books_sold = u.books_sold + p.n, money_made = u.money_made + p.money
       FROM per_seller p WHERE u.id = p.owner_id RETURNING u.id),
     buyer AS (
       UPDATE market.users SET books_bought = books_bought + $3 WHERE id = $2 RETURNING id)
     SELECT (SELECT sum(money) FROM per_seller)::text AS subtotal, (SELECT count(*) FROM sellers) AS s, (SELECT count(*) FROM buyer) AS b`,
    [cart, buyer, cart.length],
  );
  const [t] = await tx.query<TransactionRow>(
    `INSERT INTO market.transactions AS t (buyer_id, buyer_first_name, buyer_last_name, buyer_venmo, buyer_email, subtotal, total_charged, books_purchased)
     SELECT u.id, u.first_name, u.last_name, u.venmo_username, u.email, $2::numeric, round($2::numeric * (1 + $3::numeric), 2), $4::bigint[]
     FROM market.users u WHERE u.id = $1 RETURNING ${TX_COLS}`,
    [buyer, stats!.subtotal, FEE, cart],
  );
  await tx.query(
    `UPDATE market.requests SET status = 1 WHERE owner_id = $1 AND status = 0
     AND id IN (SELECT request_id FROM market.matches WHERE book_id = ANY($2::bigint[]))`,
    [buyer, cart],
  );
  await tx.query('DELETE FROM market.cart_items WHERE user_id = $1', [buyer]);
  const books = await tx.query<CheckoutResult['books'][number]>(
    `SELECT ${BOOK_COLS}, u.email AS owner_email
     FROM market.books b JOIN market.users u ON u.id = b.owner_id WHERE b.id = ANY($1::bigint[]) ORDER BY b.id`,
    [cart],
  );
  return { transaction: t!, books, buyerEmail: t!.buyer_email };
}

/** After a refused checkout (outside its rolled-back transaction): the unavailable books leave the cart. */
export async function dropFromCart(db: Queryable, user: string, bookIds: readonly string[]): Promise<void> {
  await db.query('DELETE FROM market.cart_items WHERE user_id = $1 AND book_id = ANY($2::bigint[])', [user, bookIds]);
}
