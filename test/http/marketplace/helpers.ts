/**
 * Fixtures for the marketplace suites: users inserted straight into `market.users` (one PBKDF2 hash
 * computed per file, not per user) with tokens issued the way login issues them, and small wrappers
 * for the routes most tests need.
 */
import { expect } from 'vitest';
import marketplace from '../../../functions/marketplace.ts';
import { hashPassword } from '../../../src/platform/crypto.ts';
import type { Env } from '../../../src/platform/env.ts';
import { tokenFor } from '../../../src/marketplace/auth.ts';
import { testDb, testEnv, workerClient } from '../../support/env.ts';
import { waitFor } from '../../support/wait.ts';

export const PASSWORD = 'correct-horse-9';
let hash: Promise<string> | undefined;
let seq = 0;

export interface TestUser {
  id: string;
  email: string;
  token: string;
  auth: Record<string, string>;
}

export function client(env: Env = testEnv()) {
  return workerClient(marketplace, env);
}

export async function makeUser(
  opts: { permission?: 0 | 1 | 2; email?: string; first?: string; last?: string } = {},
): Promise<TestUser> {
  hash ??= hashPassword(PASSWORD);
  const email = opts.email ?? `u${Date.now().toString(36)}${++seq}${Math.random().toString(36).slice(2, 6)}@test.edu`;
  const [row] = await testDb().query<{ id: string }>(
    `INSERT INTO market.users (email, password_hash, first_name, last_name, university, cmc, venmo_username, permission_type)
     VALUES ($1, $2, $3, $4, 'Test University', 'CMC 1', 'venmo-user', $5) RETURNING id::text`,
    [email, await hash, opts.first ?? 'Test', opts.last ?? `User${seq}`, opts.permission ?? 0],
  );
  const token = await tokenFor(testEnv(), row!.id, 0);
  return { id: row!.id, email, token, auth: { authorization: `Bearer ${token}` } };
}

export const BOOK = {
  name: 'Introduction to Algorithms',
  edition: 3,
  course: 'CSC 282',
  price: 50,
  condition: 'Good',
  comments: 'some notes',
  ISBN: '978-0-262-03384-8',
};

export async function postBook(user: TestUser, overrides: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await client().post('/api/books/postBook', { data: { ...BOOK, ...overrides } }, user.auth);
  const body = (await res.json()) as any;
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body.data.book;
}

export async function json(res: Response): Promise<any> {
  return res.json();
}

/** Asserts the marketplace envelope of an error and returns data.error. */
export async function expectError(res: Response, status: number, method?: string): Promise<string> {
  const body = (await res.json()) as any;
  expect(res.status, JSON.stringify(body)).toBe(status);
  expect(typeof body.data.error).toBe('string');
  expect(Date.parse(body.time)).not.toBeNaN();
  if (method) expect(body.method).toBe(method);
  return body.data.error;
}

export async function mails(mailUrl: string): Promise<{ to: string[]; subject: string; text: string }[]> {
  return (await (await fetch(`${mailUrl}/api/messages`)).json()) as { to: string[]; subject: string; text: string }[];
}

/** Polls the mail catcher until a mail to `to` whose subject contains `subject` arrives. */
export function waitForMail(mailUrl: string, to: string, subject: string, timeoutMs = 15_000) {
  return waitFor(
    `a mail "${subject}" to ${to}`,
    async () => (await mails(mailUrl)).find((x) => x.to.includes(to) && x.subject.includes(subject)),
    { timeoutMs },
  );
}

/** A valid ISBN-10 no other test uses (random body, computed check digit), and its ISBN-13. */
export function uniqueIsbn(): { isbn10: string; isbn13: string } {
  const body = String(Math.floor(Math.random() * 1e9)).padStart(9, '0');
  let s10 = 0;
  for (let i = 0; i < 9; i++) s10 += Number(body[i]) * (10 - i);
  const c10 = (11 - (s10 % 11)) % 11;
  const b13 = `978${body}`;
  let s13 = 0;
  for (let i = 0; i < 12; i++) s13 += Number(b13[i]) * (i % 2 === 0 ? 1 : 3);
  return { isbn10: body + (c10 === 10 ? 'X' : String(c10)), isbn13: b13 + String((10 - (s13 % 10)) % 10) };
}
