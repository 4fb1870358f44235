/**
 * Checkout (`POST /api/user/checkout`, alias `/api/books/checkoutCart`, and the cart page's form): the transaction of
 * queries-cart.ts `checkout`, then notifications and events in the same transaction, and mail to the
 * buyer and each seller after commit. A deadlock or serialisation failure (which the ordered locks
 * should prevent) is retried; a taken book is a 409 listing the unavailable ids, which then leave
 * the cart so the next checkout can go through with the rest.
 */
import type { Context } from 'hono';
import type { AppEnv } from '../platform/env.ts';
import { emitEvent } from './events.ts';
import { afterCommit, MAIL, type OutgoingMail } from './mailer.ts';
import { publicBook } from './queries-books.ts';
import { checkout, dropFromCart, publicTransaction, type CheckoutResult } from './queries-cart.ts';
import { HttpError } from '../platform/errors.ts';
import { addNotifications } from './queries-users.ts';
import { pluralWord } from '../platform/plural.ts';

const RETRYABLE = new Set(['40P01', '40001']);

/** Buys the buyer's cart; 400 when empty, 409 (with `unavailable` ids, which leave the cart) when taken. */
export async function checkoutCart(c: Context<AppEnv>, buyer: string): Promise<ReturnType<typeof publicTransaction>> {
  let result: CheckoutResult | undefined;
  for (let attempt = 1; !result; attempt++) {
    try {
      result = await c.get('db').transaction(async (tx) => {
        const r = await checkout(tx, buyer);
        const t = publicTransaction(r.transaction);
        const sellers = [...new Set(r.books.map((b) => b.owner_id))];
        await addNotifications(
          tx,
          [buyer, ...sellers],
          [
            `Thanks for your purchase! You will be charged $${t.totalCharged.toFixed(2)} once the ${pluralWord(r.books.length, 'book is', 'books are')} checked.`,
            ...sellers.map(
              (s) =>
                `Someone bought your ${pluralWord(r.books.filter((b) => b.owner_id === s).length, 'book')}: ${r.books
                  .filter((b) => b.owner_id === s)
                  .map((b) => `"${b.name}"`)
                  .join(', ')}.`,
            ),
          ],
        );
        await emitEvent(tx, 'cart_checked_out', t);
        for (const b of r.books) await emitEvent(tx, 'book_status_changed', { book: publicBook(b), from: 0, to: 1 });
        return r;
      });
    } catch (err) {
      if (err instanceof HttpError && err.status === 409) {
        await dropFromCart(c.get('db'), buyer, (err.extra?.unavailable ?? []) as string[]);
        throw err;
      }
      const code = (err as { code?: string }).code;
      if (attempt >= 3 || !code || !RETRYABLE.has(code)) throw err;
    }
  }
  const t = publicTransaction(result.transaction);
  const mails: OutgoingMail[] = [
    MAIL.purchase(
      result.buyerEmail,
      t._id,
      t.totalCharged.toFixed(2),
      result.books.map((b) => b.name),
    ),
  ];
  for (const seller of new Set(result.books.map((b) => b.owner_id))) {
    const sold = result.books.filter((b) => b.owner_id === seller);
    mails.push(
      MAIL.sold(
        sold[0]!.owner_email,
        t._id,
        seller,
        sold.map((b) => b.name),
      ),
    );
  }
  afterCommit(c, mails);
  return t;
}
