/**
 * /api/auth: sign-up with a mailed confirmation link (the account exists only after the link is
 * followed, exactly once), login (JWT in the envelope), profile and password changes, and password
 * reset by mail. Fixes over the original: validation on the server, login and reset requests do not
 * reveal whether an address has an account, tokens are stored only as SHA-256 hashes.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../platform/env.ts';
import { HttpError } from '../platform/errors.ts';
import { hashPassword, randomToken, sha256Hex, verifyPassword } from '../platform/crypto.ts';
import { emitEvent } from './events.ts';
import { me, requireUser, tokenFor } from './auth.ts';
import { ok } from './views.ts';
import { queueMail } from '../platform/mail-queue.ts';
import { afterCommit, baseUrl, MAIL, ownerEmails } from './mailer.ts';
import * as q from './queries-users.ts';
import {
  loginSchema,
  passwordChangeSchema,
  profileSchema,
  resetRequestSchema,
  resetSchema,
  signupSchema,
  body,
} from './schemas.ts';

export const SIGNUP_TTL_HOURS = 24;
export const RESET_TTL_MINUTES = 60;
// Verified against when the address has no account, so both answers take the same time.
const DUMMY_HASH = 'pbkdf2$sha256$100000$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

export const authRoutes = new Hono<AppEnv>();

authRoutes.post('/signup', body(signupSchema), async (c) => {
  const s = c.req.valid('json');
  const db = c.get('db');
  if (await q.userExists(db, s.emailAddress)) throw new HttpError(409, 'Existing User');
  const token = randomToken(32);
  const tokenHash = await sha256Hex(token);
  const fields = {
    email: s.emailAddress,
    passwordHash: await hashPassword(s.password),
    firstName: s.firstName,
    lastName: s.lastName,
    university: s.university,
    cmc: s.CMC,
    venmoUsername: s.venmoUsername,
  };
  const inserted = await db.transaction((tx) => q.insertPendingSignup(tx, fields, tokenHash, SIGNUP_TTL_HOURS));
  if (!inserted) throw new HttpError(409, 'Existing Temp User');
  try {
    // Awaited (not waitUntil): without this mail the address would be blocked for 24 hours.
    await queueMail(c.env, MAIL.confirm(s.emailAddress, `${baseUrl(c.env)}/api/auth/confirm/${token}`, token));
  } catch (err) {
    await q.deletePendingSignup(db, tokenHash);
    console.error('marketplace: confirmation mail could not be queued:', (err as Error).message);
    throw new HttpError(503, 'The confirmation e-mail could not be sent; try again shortly');
  }
  return ok(
    c,
    {
      message: `A confirmation e-mail was sent to ${s.emailAddress}. Follow its link within ${SIGNUP_TTL_HOURS} hours.`,
    },
    201,
  );
});

async function confirm(c: import('hono').Context<AppEnv>, token: string) {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw new HttpError(404, 'Confirmation link is invalid or has expired');
  const tokenHash = await sha256Hex(token);
  const user = await c.get('db').transaction(async (tx) => {
    const u = await q.confirmSignup(tx, tokenHash, ownerEmails(c.env));
    if (!u) return undefined;
    await q.addNotification(tx, u.id, 'Thanks for signing up for BarterOut!');
    await emitEvent(tx, 'user_signup', q.publicUser(u));
    return u;
  });
  if (!user) throw new HttpError(404, 'Confirmation link is invalid or has expired');
  afterCommit(c);
  return ok(c, { message: 'Your account is confirmed; you can log in now.', user: q.publicUser(user) }, 201);
}

authRoutes.get('/confirm/:token', (c) => confirm(c, c.req.param('token')));
authRoutes.get('/email-verification/:token', (c) => confirm(c, c.req.param('token')));

authRoutes.post('/login', body(loginSchema), async (c) => {
  const { emailAddress, password } = c.req.valid('json');
  const cred = await q.credentialsByEmail(c.get('db'), emailAddress);
  const valid = await verifyPassword(password, cred?.password_hash ?? DUMMY_HASH);
  if (!cred || !valid) throw new HttpError(401, 'Incorrect e-mail address or password');
  return ok(c, { token: await tokenFor(c.env, cred.id, cred.token_version) });
});

authRoutes.post('/updateProfile', requireUser, body(profileSchema), async (c) => {
  const u = await q.updateProfile(c.get('db'), me(c).id, c.req.valid('json'));
  return ok(c, { user: q.publicUser(u!) });
});

authRoutes.post('/updatePassword', requireUser, body(passwordChangeSchema), async (c) => {
  const { password, newPassword } = c.req.valid('json');
  const db = c.get('db');
  const id = me(c).id;
  const stored = await q.passwordHashById(db, id);
  if (!stored || !(await verifyPassword(password, stored))) throw new HttpError(403, 'Incorrect Password');
  const version = await q.setPassword(db, id, await hashPassword(newPassword));
  return ok(c, {
    message: 'Password changed; other sessions were signed out.',
    token: await tokenFor(c.env, id, version),
  });
});

authRoutes.post('/passwordResetRequest', body(resetRequestSchema), async (c) => {
  const { emailAddress } = c.req.valid('json');
  const db = c.get('db');
  const user = await q.userByEmail(db, emailAddress);
  if (user) {
    const token = randomToken(32);
    await q.setResetToken(db, user.id, await sha256Hex(token), RESET_TTL_MINUTES);
    afterCommit(c, [MAIL.reset(user.email, `${baseUrl(c.env)}/api/auth/passwordReset/${token}`, token)], false);
  }
  return ok(c, { message: 'If an account exists for this address, a reset link was sent to it.' });
});

authRoutes.get('/passwordReset/:token', async (c) => {
  const id = await q.userIdByResetToken(c.get('db'), await sha256Hex(c.req.param('token')));
  if (!id) throw new HttpError(404, 'Reset link is invalid or has expired');
  return ok(c, { valid: true });
});

authRoutes.post('/passwordReset', body(resetSchema), async (c) => {
  const { token, password } = c.req.valid('json');
  const id = await q.resetPassword(c.get('db'), await sha256Hex(token), await hashPassword(password));
  if (!id) throw new HttpError(404, 'Reset link is invalid or has expired');
  return ok(c, { message: 'Password changed; log in with the new password.' });
});
