/**
 * "Unlist old books" (the original's dashboard deactivateBooks, also run by the cron trigger):
 * every listed book (status 0) posted more than `days` ago (62 by default, MARKETPLACE_UNLIST_DAYS)
 * moves to 5 in one transaction, gets a `book_unlisted` event, and each affected
 * owner gets one notification and one mail naming the books.
 *
 * Idempotent: the move is a compare-and-set on status 0, so a second run (or a run racing the
 * cron) finds nothing to do; mail keys are derived from the owner and the exact set of book ids,
 * so a repeated publish of the same mail is sent once.
 */
import type { Queryable } from '../platform/db.ts';
import type { Env } from '../platform/env.ts';
import { sha256Hex } from '../platform/crypto.ts';
import { emitEvent } from './events.ts';
import { MAIL, type OutgoingMail } from './mailer.ts';
import { BOOK_COLS, publicBook, type BookRow } from './queries-books.ts';
import { addNotifications } from './queries-users.ts';

import { marketplaceConfig } from './config.ts';

export function unlistDays(env: Env): number {
  return marketplaceConfig(env).MARKETPLACE_UNLIST_DAYS;
}

export interface UnlistResult {
  unlisted: string[];
  owners: number;
  mails: OutgoingMail[];
}

export async function unlistOldBooks(tx: Queryable, days: number): Promise<UnlistResult> {
  const books = await tx.query<BookRow & { owner_email: string }>(
    `WITH moved AS (
       UPDATE market.books b SET status = 5, status_changed_at = now()
       WHERE b.status = 0 AND b.posted_at < now() - make_interval(days => $1::int) RETURNING ${BOOK_COLS})
     SELECT moved.*, u.email AS owner_email FROM moved JOIN market.users u ON u.id = moved.owner_id::bigint ORDER BY moved.id::bigint`,
    [days],
  );
  if (!books.length) return { unlisted: [], owners: 0, mails: [] };
  const ids = books.map((b) => b.id);
  const byOwner = new Map<string, (BookRow & { owner_email: string })[]>();
  for (const b of books) byOwner.set(b.owner_id, [...(byOwner.get(b.owner_id) ?? []), b]);
  for (const b of books) await emitEvent(tx, 'book_unlisted', { book: publicBook(b), from: 0, to: 5 });
  const owners = [...byOwner.keys()];
  await addNotifications(
    tx,
    owners,
    owners.map(
      (o) => `${byOwner.get(o)!.length} of your books were unlisted after ${days} days; relist or delete them.`,
    ),
  );
  const mails: OutgoingMail[] = [];
  for (const [owner, list] of byOwner) {
    const key = `market-unlist-${owner}-${(await sha256Hex(list.map((b) => b.id).join(','))).slice(0, 16)}`;
    mails.push(
      MAIL.unlisted(
        list[0]!.owner_email,
        key,
        list.map((b) => b.name),
      ),
    );
  }
  return { unlisted: ids, owners: owners.length, mails };
}
