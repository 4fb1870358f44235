/**
 * Reflow sources: for each event that supports reflow, a typed query of the current objects it is
 * about, rendered by the same view and turned into events by the same function (events.ts's
 * webhookEvent) as the live path, so a reflowed event has the live event's schema and, for an object
 * unchanged since, the live event's JSON. Objects in id order (reports: creation order), at most
 * REFLOW_LIMIT per reflow. The catalogue (catalog.ts) names these functions.
 */
import type { Queryable } from '../platform/db.ts';
import { BOOK_COLS, publicBook, type BookRow } from '../marketplace/queries-books.ts';
import { publicUser, USER_COLS, type UserRow } from '../marketplace/queries-users.ts';
import type { ReportRow } from '../pipeline/queries-reports.ts';
import { publishedReportView } from '../pipeline/views.ts';
import { webhookEvent, type WebhookEvent } from './events.ts';

export const REFLOW_LIMIT = 10_000;

export type ReflowQuery = (q: Queryable) => Promise<WebhookEvent[]>;

/** user_signup: every user, as publicUser shows them (never the password hash or tokens). */
export const reflowUsers: ReflowQuery = async (q) => {
  const rows = await q.query<UserRow>(`SELECT ${USER_COLS} FROM market.users ORDER BY id LIMIT ${REFLOW_LIMIT}`);
  return rows.map((u) => webhookEvent('user_signup', publicUser(u)));
};

/** book_posted: every book, as publicBook shows it (its current status). */
export const reflowBooks: ReflowQuery = async (q) => {
  const rows = await q.query<BookRow>(`SELECT ${BOOK_COLS} FROM market.books b ORDER BY b.id LIMIT ${REFLOW_LIMIT}`);
  return rows.map((b) => webhookEvent('book_posted', publicBook(b)));
};

/** report_published: every report, as published to the database (its first destination). */
export const reflowReports: ReflowQuery = async (q) => {
  const rows = await q.query<ReportRow>(`SELECT * FROM pipeline.reports ORDER BY created_at, id LIMIT ${REFLOW_LIMIT}`);
  return rows.map((r) => webhookEvent('report_published', publishedReportView(r, 'database')));
};
