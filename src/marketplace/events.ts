/**
 * The marketplace's events: the payload contract of each (its API views as they go on the wire: dates
 * are epoch milliseconds or ISO strings as the views render them), its categories of the webhook
 * catalogue and the reflow of its current objects. Recorded through src/platform/events.ts, which the
 * webhook delivery reads; nothing here is imported by src/webhooks.
 */
import * as z from 'zod';
import {
  eventContract,
  eventEmitter,
  makeEvent,
  type EventCategoryDeclaration,
  REFLOW_LIMIT,
  type ReflowQuery,
} from '../platform/events.ts';
import { BOOK_COLS, publicBook, type BookRow } from './queries-books.ts';
import { publicUser, USER_COLS, type UserRow } from './queries-users.ts';

const id = z.string().min(1);
const epochMs = z.number().int();
const isoTime = z.iso.datetime({ offset: true });

export const bookSchema = z.strictObject({
  _id: id,
  name: z.string(),
  edition: z.number(),
  course: z.string(),
  price: z.number(),
  condition: z.string(),
  comments: z.string(),
  ISBN: z.string().nullable(),
  date: epochMs,
  status: z.number().int(),
  owner: id,
  buyer: z.string(),
});

export const userSchema = z.strictObject({
  _id: id,
  emailAddress: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  university: z.string(),
  CMC: z.string(),
  venmoUsername: z.string(),
  permissionType: z.number().int(),
  numberOfBooksSold: z.number().int(),
  numberOfBooksBought: z.number().int(),
  moneyMade: z.number(),
  createdAt: isoTime,
});

export const requestSchema = z.strictObject({
  _id: id,
  name: z.string(),
  course: z.string(),
  ISBN: z.string().nullable(),
  status: z.number().int(),
  owner: id,
  date: epochMs,
});

/** A book that moved from one status to another (book_status_changed, book_unlisted). */
export const bookMoveSchema = z.strictObject({ book: bookSchema, from: z.number().int(), to: z.number().int() });

/** A request matched with a book; `userId` is the requester. */
export const matchSchema = z.strictObject({ bookId: id, requestId: id, userId: id });

export const transactionSchema = z.strictObject({
  _id: id,
  date: epochMs,
  buyerID: id,
  buyerFirstName: z.string(),
  buyerLastName: z.string(),
  buyerVenmo: z.string(),
  buyerEmail: z.string(),
  subtotal: z.number(),
  totalCharged: z.number(),
  booksPurchased: z.array(id),
  status: z.number().int(),
});

export const MARKETPLACE_EVENTS = {
  user_signup: eventContract(userSchema, (u) => u._id),
  book_posted: eventContract(bookSchema, (b) => b._id),
  book_status_changed: eventContract(bookMoveSchema, (m) => m.book._id),
  book_unlisted: eventContract(bookMoveSchema, (m) => m.book._id),
  book_requested: eventContract(requestSchema, (r) => r._id),
  book_matched: eventContract(matchSchema, (m) => m.bookId),
  cart_checked_out: eventContract(transactionSchema, (t) => t._id),
};

export type MarketplaceEventName = keyof typeof MARKETPLACE_EVENTS;

/** Records one of its events in the outbox (inside the caller's transaction), checked against its contract. */
export const emitEvent = eventEmitter(MARKETPLACE_EVENTS);

/** user_signup: every user, as publicUser shows them (never the password hash or tokens). */
const reflowUsers: ReflowQuery = async (q) => {
  const rows = await q.query<UserRow>(`SELECT ${USER_COLS} FROM market.users ORDER BY id LIMIT ${REFLOW_LIMIT}`);
  return rows.map((u) => makeEvent(MARKETPLACE_EVENTS, 'user_signup', publicUser(u)));
};

/** book_posted: every book, as publicBook shows it (its current status). */
const reflowBooks: ReflowQuery = async (q) => {
  const rows = await q.query<BookRow>(`SELECT ${BOOK_COLS} FROM market.books b ORDER BY b.id LIMIT ${REFLOW_LIMIT}`);
  return rows.map((b) => makeEvent(MARKETPLACE_EVENTS, 'book_posted', publicBook(b)));
};

function event(event_name: MarketplaceEventName, oid: number, event_description: string, reflow?: ReflowQuery) {
  const contract = MARKETPLACE_EVENTS[event_name];
  return { event_name, event_description, webhook_event_oid: oid, contract, ...(reflow ? { reflow } : {}) };
}

/** The marketplace's categories of the webhook catalogue (customer data: people, their requests and orders). */
export const MARKETPLACE_EVENT_CATEGORIES: EventCategoryDeclaration[] = [
  {
    event_category: 'user',
    customerData: true,
    available_expansions: [],
    events: [event('user_signup', 101, 'A user signed up to the marketplace', reflowUsers)],
  },
  {
    event_category: 'book',
    customerData: false,
    available_expansions: [],
    events: [
      event('book_posted', 201, 'A book was posted for sale', reflowBooks),
      event('book_status_changed', 202, 'A book changed status'),
      event('book_unlisted', 203, 'An old book was unlisted'),
    ],
  },
  {
    event_category: 'request',
    customerData: true,
    available_expansions: [],
    events: [
      event('book_requested', 301, 'A user requested a book'),
      event('book_matched', 302, 'A request was matched with a posted book'),
    ],
  },
  {
    event_category: 'checkout',
    customerData: true,
    available_expansions: [],
    events: [event('cart_checked_out', 401, 'A cart was checked out')],
  },
];
