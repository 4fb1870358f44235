/**
 * The book, request and cart actions, shared by the API (routes-books.ts, routes-user.ts) and the pages
 * (pages/routes-student.ts): posting a book (matched against open requests), requesting one (matched
 * against listed books), unlisting-by-delete and relisting one's own books, and the cart's refusals.
 * Each throws HttpError for what the caller may not do; the routers only present the outcome.
 */
import type { Context } from 'hono';
import type { AppEnv } from '../platform/env.ts';
import { HttpError } from '../platform/errors.ts';
import { emitEvent } from './events.ts';
import { afterCommit, MAIL, type OutgoingMail } from './mailer.ts';
import { normalizeCourse, normalizeName } from './matching.ts';
import * as q from './queries-books.ts';
import * as cart from './queries-cart.ts';
import { addNotification, addNotifications } from './queries-users.ts';
import type { BookInput, RequestInput } from './schemas.ts';

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

export async function postBook(c: Context<AppEnv>, owner: string, b: BookInput) {
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
  return { book, matches: matches.length };
}

export async function requestBook(c: Context<AppEnv>, owner: string, r: RequestInput) {
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
  return { request, matches: matches.length };
}

export async function deleteBook(c: Context<AppEnv>, owner: string, bookId: string): Promise<void> {
  const r = await c.get('db').transaction((tx) => q.deleteBook(tx, owner, bookId));
  if (r.status === undefined) throw new HttpError(404, 'Book not found');
  if (!r.deleted) throw new HttpError(409, 'A book that has been bought cannot be deleted');
}

export async function reactivateBook(c: Context<AppEnv>, owner: string, bookId: string): Promise<q.BookRow> {
  const book = await c.get('db').transaction(async (tx) => {
    const moved = await q.moveStatus(tx, bookId, 5, 0, owner);
    if (!moved) return undefined;
    await emitEvent(tx, 'book_status_changed', { book: q.publicBook(moved), from: 5, to: 0 });
    return moved;
  });
  if (!book) {
    const cur = await q.bookById(c.get('db'), bookId);
    if (!cur || cur.owner_id !== owner) throw new HttpError(404, 'Book not found');
    throw new HttpError(409, `Only unlisted books can be reactivated (status is ${cur.status})`);
  }
  afterCommit(c);
  return book;
}

const CART_REFUSALS = {
  missing: [404, 'Book not found'],
  own: [409, 'You cannot buy your own book'],
  unavailable: [409, 'This book is no longer available'],
  duplicate: [409, 'This book is already in your cart'],
} as const;

export async function addToCart(c: Context<AppEnv>, user: string, bookId: string): Promise<void> {
  const outcome = await cart.addToCart(c.get('db'), user, bookId);
  if (outcome !== 'added') throw new HttpError(CART_REFUSALS[outcome][0], CART_REFUSALS[outcome][1]);
}

export async function removeFromCart(c: Context<AppEnv>, user: string, bookId: string): Promise<void> {
  if (!(await cart.removeFromCart(c.get('db'), user, bookId)))
    throw new HttpError(404, 'This book is not in your cart');
}

export async function deleteRequest(c: Context<AppEnv>, user: string, requestId: string): Promise<void> {
  if (!(await q.deleteRequest(c.get('db'), user, requestId))) throw new HttpError(404, 'Request not found');
}
