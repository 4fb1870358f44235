/**
 * /api/auth: the account actions of actions-auth.ts in the marketplace envelope: sign-up with a mailed
 * confirmation link, login (JWT in the envelope), profile and password changes, and password reset by
 * mail. The two links a mail carries (`/confirm/:token`, `/passwordReset/:token`) answer a browser with
 * the page (pages/routes-account.ts) and every other client with JSON, as before.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../platform/env.ts';
import * as act from './actions-auth.ts';
import { me, requireUser } from './auth.ts';
import { confirmPage, resetFormPage, wantsHtml } from './pages/routes-account.ts';
import * as q from './queries-users.ts';
import {
  body,
  loginSchema,
  passwordChangeSchema,
  profileSchema,
  resetRequestSchema,
  resetSchema,
  signupSchema,
} from './schemas.ts';
import { ok } from './views.ts';

export { RESET_TTL_MINUTES, SIGNUP_TTL_HOURS } from './actions-auth.ts';

export const authRoutes = new Hono<AppEnv>();

authRoutes.post('/signup', body(signupSchema), async (c) =>
  ok(c, { message: await act.signup(c, c.req.valid('json')) }, 201),
);

async function confirm(c: import('hono').Context<AppEnv>, token: string) {
  if (wantsHtml(c)) return confirmPage(c, token);
  const user = await act.confirm(c, token);
  return ok(c, { message: 'Your account is confirmed; you can log in now.', user: q.publicUser(user) }, 201);
}

authRoutes.get('/confirm/:token', (c) => confirm(c, c.req.param('token')));
authRoutes.get('/email-verification/:token', (c) => confirm(c, c.req.param('token')));

authRoutes.post('/login', body(loginSchema), async (c) => {
  const { emailAddress, password } = c.req.valid('json');
  return ok(c, { token: await act.login(c, emailAddress, password) });
});

authRoutes.post('/updateProfile', requireUser, body(profileSchema), async (c) => {
  const u = await q.updateProfile(c.get('db'), me(c).id, c.req.valid('json'));
  return ok(c, { user: q.publicUser(u!) });
});

authRoutes.post('/updatePassword', requireUser, body(passwordChangeSchema), async (c) => {
  const { password, newPassword } = c.req.valid('json');
  const token = await act.changePassword(c, me(c).id, password, newPassword);
  return ok(c, { message: 'Password changed; other sessions were signed out.', token });
});

authRoutes.post('/passwordResetRequest', body(resetRequestSchema), async (c) => {
  await act.requestReset(c, c.req.valid('json').emailAddress);
  return ok(c, { message: act.RESET_REQUESTED });
});

authRoutes.get('/passwordReset/:token', async (c) => {
  if (wantsHtml(c)) return resetFormPage(c, c.req.param('token'));
  await act.checkResetToken(c, c.req.param('token'));
  return ok(c, { valid: true });
});

authRoutes.post('/passwordReset', body(resetSchema), async (c) => {
  const { token, password } = c.req.valid('json');
  await act.resetPassword(c, token, password);
  return ok(c, { message: 'Password changed; log in with the new password.' });
});
