/**
 * The staff actions, shared by the API (routes-dashboard.ts) and the staff pages (pages/routes-staff.ts):
 * a legal status move with its notification, event and mail (book-status.ts decides what is legal: 409
 * otherwise), completing a transaction, the owner's permission changes, and the unlisting job (unlisting.ts, also the cron job).
 */
import type { Context } from 'hono';
import type { AppEnv } from '../platform/env.ts';
import { HttpError } from '../platform/errors.ts';
import { emitEvent } from './events.ts';
import { canStaffMove, STATUS } from './book-status.ts';
import { afterCommit, MAIL, type OutgoingMail } from './mailer.ts';
import * as books from './queries-books.ts';
import type { TransactionRow } from './queries-cart.ts';
import * as dash from './queries-dashboard.ts';
import { addNotification } from './queries-users.ts';
import { unlistDays, unlistOldBooks } from './unlisting.ts';

const MOVE_TEXT: Record<number, (name: string) => string> = {
  2: (n) => `We checked the condition of "${n}" and charged your payment.`,
  3: (n) => `"${n}" was delivered and we sent you the payment.`,
  5: (n) => `"${n}" was unlisted by staff.`,
  0: (n) => `"${n}" is listed again.`,
};

/** One legal staff move with its notification, event and mail (buyer for 2, seller otherwise). */
export async function staffMove(c: Context<AppEnv>, bookId: string, to: number): Promise<books.BookRow> {
  const db = c.get('db');
  const current = await books.bookById(db, bookId);
  if (!current) throw new HttpError(404, 'Book not found');
  if (!canStaffMove(current.status, to))
    throw new HttpError(409, `A book with status ${current.status} cannot move to ${to}`);
  const moved = await db.transaction(async (tx) => {
    const b = await books.moveStatus(tx, bookId, current.status, to);
    if (!b) return undefined;
    const recipient = to === STATUS.VERIFIED ? b.buyer_id : b.owner_id;
    if (recipient) await addNotification(tx, recipient, MOVE_TEXT[to]!(b.name));
    const name = to === STATUS.UNLISTED ? 'book_unlisted' : 'book_status_changed';
    await emitEvent(tx, name, { book: books.publicBook(b), from: current.status, to });
    return { book: b, recipient };
  });
  if (!moved) throw new HttpError(409, 'The book changed status meanwhile; reload and try again');
  const email = await dash.emailOf(db, moved.recipient);
  const mails: OutgoingMail[] = email ? [MAIL.status(email, moved.book.id, to, MOVE_TEXT[to]!(moved.book.name))] : [];
  afterCommit(c, mails);
  return moved.book;
}

/** Completes a pending transaction (0 -> 1): 404 when missing, 409 when already completed. */
export async function confirmTransaction(c: Context<AppEnv>, id: string): Promise<TransactionRow> {
  const db = c.get('db');
  const t = await db.transaction((tx) => dash.confirmTransaction(tx, id));
  if (t) return t;
  if (!(await dash.transactionExists(db, id))) throw new HttpError(404, 'Transaction not found');
  throw new HttpError(409, 'Transaction is already completed');
}

const PERMISSION_CHANGES = {
  makeAdmin: { from: [0], to: 1, refusal: 'Only a regular user can be made an admin' },
  removeAdmin: { from: [1], to: 0, refusal: 'This user is not an admin' },
} as const;
export type PermissionChange = keyof typeof PERMISSION_CHANGES;

/** The owner's change of another user's permission; answers the new permission. */
export async function changePermission(
  c: Context<AppEnv>,
  actor: string,
  userId: string,
  change: PermissionChange,
): Promise<number> {
  const { from, to, refusal } = PERMISSION_CHANGES[change];
  if (userId === actor) throw new HttpError(409, 'You cannot change your own permission');
  const r = await c.get('db').transaction((tx) => dash.setPermission(tx, userId, from, to));
  if (r.before === undefined) throw new HttpError(404, 'User not found');
  if (!r.changed) throw new HttpError(409, refusal);
  return to;
}

export async function runUnlisting(c: Context<AppEnv>, requestedDays: number | undefined) {
  const days = requestedDays ?? unlistDays(c.env);
  const r = await c.get('db').transaction((tx) => unlistOldBooks(tx, days));
  afterCommit(c, r.mails, r.unlisted.length > 0);
  return { unlisted: r.unlisted.length, owners: r.owners, days };
}
