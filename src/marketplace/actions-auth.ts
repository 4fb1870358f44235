/**
 * The account actions, shared by the API (routes-auth.ts) and the pages (pages/routes-account.ts), so
 * both follow one set of rules: sign-up with a mailed confirmation link (the account exists only once the
 * link is followed, exactly once), login, password change and reset by mail. Neither sign-up, login nor
 * a reset request tells whether an address has an account: an address that has one gets a mail instead
 * of a second sign-up, a live pending sign-up is replaced by the new one (its mail carries the new link),
 * and every answer is the same. Login, sign-up and reset requests are rate-limited (rate-limit.ts).
 * Tokens are stored as SHA-256 hashes only.
 */
import type { Context } from 'hono';
import type { AppEnv } from '../platform/env.ts';
import { HttpError } from '../platform/errors.ts';
import { hashPassword, randomToken, sha256Hex, verifyPassword } from '../platform/crypto.ts';
import { queueMail } from '../platform/mail-queue.ts';
import { emitEvent } from './events.ts';
import { tokenFor } from './auth.ts';
import { afterCommit, baseUrl, MAIL, mailJob, ownerEmails } from './mailer.ts';
import * as q from './queries-users.ts';
import { checkFailures, clearFailures, countFailure, limitAttempt } from './rate-limit.ts';
import type { SignupInput } from './schemas.ts';

export const SIGNUP_TTL_HOURS = 24;
export const RESET_TTL_MINUTES = 60;
// Verified against when the address has no account, so both answers take the same time.
const DUMMY_HASH = 'pbkdf2$sha256$100000$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

/** Confirmation and reset links: the API's paths, which answer a browser with the page (pages/routes-account.ts). */
export const confirmPath = (token: string) => `/api/auth/confirm/${token}`;
export const resetPath = (token: string) => `/api/auth/passwordReset/${token}`;

export function signupMessage(email: string): string {
  return `A confirmation e-mail was sent to ${email}. Follow its link within ${SIGNUP_TTL_HOURS} hours.`;
}

/** The same answer (and nearly the same work) whether or not the address has an account. */
export async function signup(c: Context<AppEnv>, s: SignupInput): Promise<string> {
  await limitAttempt(c, 'signup', s.emailAddress);
  const db = c.get('db');
  const passwordHash = await hashPassword(s.password);
  if (await q.userExists(db, s.emailAddress)) {
    const hour = Math.floor(Date.now() / 3_600_000);
    afterCommit(
      c,
      [MAIL.existing(s.emailAddress, `market-existing-${await sha256Hex(`${s.emailAddress}:${hour}`)}`)],
      false,
    );
    return signupMessage(s.emailAddress);
  }
  const token = randomToken(32);
  const tokenHash = await sha256Hex(token);
  const fields = {
    email: s.emailAddress,
    passwordHash,
    firstName: s.firstName,
    lastName: s.lastName,
    university: s.university,
    cmc: s.CMC,
    venmoUsername: s.venmoUsername,
  };
  await db.transaction((tx) => q.insertPendingSignup(tx, fields, tokenHash, SIGNUP_TTL_HOURS));
  try {
    // Awaited (not waitUntil): a sign-up whose mail was not queued is taken back and reported.
    const link = `${baseUrl(c.env)}${confirmPath(token)}`;
    await queueMail(c.env, mailJob(c.env, MAIL.confirm(s.emailAddress, link, token)));
  } catch (err) {
    await q.deletePendingSignup(db, tokenHash);
    console.error('marketplace: confirmation mail could not be queued:', (err as Error).message);
    throw new HttpError(503, 'The confirmation e-mail could not be sent; try again shortly');
  }
  return signupMessage(s.emailAddress);
}

const BAD_CONFIRMATION = 'Confirmation link is invalid or has expired';

/** Creates the account of a live pending sign-up, once; 404 otherwise. */
export async function confirm(c: Context<AppEnv>, token: string): Promise<q.UserRow> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw new HttpError(404, BAD_CONFIRMATION);
  const tokenHash = await sha256Hex(token);
  const user = await c.get('db').transaction(async (tx) => {
    const u = await q.confirmSignup(tx, tokenHash, ownerEmails(c.env));
    if (!u) return undefined;
    await q.addNotification(tx, u.id, 'Thanks for signing up for BarterOut!');
    await emitEvent(tx, 'user_signup', q.publicUser(u));
    return u;
  });
  if (!user) throw new HttpError(404, BAD_CONFIRMATION);
  afterCommit(c);
  return user;
}

/** A signed token for the address and password; 401 otherwise, 429 after too many failures. */
export async function login(c: Context<AppEnv>, emailAddress: string, password: string): Promise<string> {
  await checkFailures(c, emailAddress);
  const cred = await q.credentialsByEmail(c.get('db'), emailAddress);
  const valid = await verifyPassword(password, cred?.password_hash ?? DUMMY_HASH);
  if (!cred || !valid) {
    await countFailure(c, emailAddress);
    throw new HttpError(401, 'Incorrect e-mail address or password');
  }
  await clearFailures(c, emailAddress);
  return tokenFor(c.env, cred.id, cred.token_version);
}

/** 403 on a wrong current password; answers the new token (older ones stop working). */
export async function changePassword(
  c: Context<AppEnv>,
  userId: string,
  password: string,
  newPassword: string,
): Promise<string> {
  const db = c.get('db');
  const stored = await q.passwordHashById(db, userId);
  if (!stored || !(await verifyPassword(password, stored))) throw new HttpError(403, 'Incorrect Password');
  const version = await q.setPassword(db, userId, await hashPassword(newPassword));
  return tokenFor(c.env, userId, version);
}

export const RESET_REQUESTED = 'If an account exists for this address, a reset link was sent to it.';

export async function requestReset(c: Context<AppEnv>, emailAddress: string): Promise<void> {
  await limitAttempt(c, 'reset', emailAddress);
  const db = c.get('db');
  const user = await q.userByEmail(db, emailAddress);
  if (!user) return;
  const token = randomToken(32);
  await q.setResetToken(db, user.id, await sha256Hex(token), RESET_TTL_MINUTES);
  afterCommit(c, [MAIL.reset(user.email, `${baseUrl(c.env)}${resetPath(token)}`, token)], false);
}

const BAD_RESET = 'Reset link is invalid or has expired';

export async function checkResetToken(c: Context<AppEnv>, token: string): Promise<void> {
  const id = await q.userIdByResetToken(c.get('db'), await sha256Hex(token));
  if (!id) throw new HttpError(404, BAD_RESET);
}

export async function resetPassword(c: Context<AppEnv>, token: string, password: string): Promise<void> {
  const id = await q.resetPassword(c.get('db'), await sha256Hex(token), await hashPassword(password));
  if (!id) throw new HttpError(404, BAD_RESET);
}
