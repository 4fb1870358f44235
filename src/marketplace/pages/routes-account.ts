/**
 * Account pages: sign-up, the confirmation landing, login and logout, the forgotten-password request and
 * the reset form, and account settings. Each calls the action the API calls (actions-auth.ts), with the
 * API's schemas, so the rules (validation, rate limits, answers that do not tell whether an address has
 * an account) are the same. The links mailed to users are the API's paths; those answer a browser
 * (`Accept: text/html`) with the pages below (`confirmPage`, `resetFormPage`).
 */
import { type Context, Hono } from 'hono';
import type { AppEnv } from '../../platform/env.ts';
import { HttpError } from '../../platform/errors.ts';
import * as act from '../actions-auth.ts';
import * as users from '../queries-users.ts';
import {
  loginSchema,
  passwordChangeSchema,
  profileSchema,
  resetRequestSchema,
  resetSchema,
  signupSchema,
} from '../schemas.ts';
import { doneNotice, INVALID, parseForm, refusal } from './forms.ts';
import { csrfToken, field, form, h, type Node, render } from './html.ts';
import { endSession, requireSession, startSession, viewer } from './session.ts';

/** A browser following a mailed link (it asks for HTML); API clients ask for JSON or anything. */
export function wantsHtml(c: Context<AppEnv>): boolean {
  return (c.req.header('accept') ?? '').includes('text/html');
}

export async function confirmPage(c: Context<AppEnv>, token: string): Promise<Response> {
  try {
    await act.confirm(c, token);
  } catch (err) {
    const r = refusal(err);
    return render(
      c,
      { title: 'Confirmation link not valid', notice: r.notice, status: r.status },
      h(
        'p',
        null,
        'The link may have been used already (then your account exists: ',
        h('a', { href: '/login' }, 'log in'),
        ') or it has expired (then ',
        h('a', { href: '/signup' }, 'sign up again'),
        ').',
      ),
    );
  }
  return render(
    c,
    { title: 'Your account is confirmed', notice: { kind: 'ok', text: 'Welcome to BarterOut!' } },
    h('p', null, h('a', { href: '/login' }, 'Log in'), ' to sell, request and buy books.'),
  );
}

function resetForm(csrf: string, token: string, errors: Record<string, string> = {}): Node {
  return form(
    '/reset',
    csrf,
    'Change my password',
    h('input', { type: 'hidden', name: 'token', value: token }),
    field(
      {
        name: 'password',
        label: 'New password',
        type: 'password',
        autocomplete: 'new-password',
        hint: 'At least 8 characters, with a letter and a digit.',
      },
      errors,
    ),
  );
}

export async function resetFormPage(c: Context<AppEnv>, token: string): Promise<Response> {
  try {
    await act.checkResetToken(c, token);
  } catch (err) {
    const r = refusal(err);
    return render(
      c,
      { title: 'Reset link not valid', notice: r.notice, status: r.status },
      h('p', null, h('a', { href: '/forgot' }, 'Ask for a new link'), '.'),
    );
  }
  return render(c, { title: 'Choose a new password' }, resetForm(await csrfToken(c), token));
}

export const accountPages = new Hono<AppEnv>();

const SIGNUP_FIELDS = (v: Record<string, string>) => [
  {
    name: 'emailAddress',
    label: 'College e-mail address',
    type: 'email',
    autocomplete: 'email',
    value: v.emailAddress,
    hint: 'An address ending in .edu.',
  },
  {
    name: 'password',
    label: 'Password',
    type: 'password',
    autocomplete: 'new-password',
    hint: 'At least 8 characters, with a letter and a digit.',
  },
  { name: 'firstName', label: 'First name', autocomplete: 'given-name', value: v.firstName },
  { name: 'lastName', label: 'Last name', autocomplete: 'family-name', value: v.lastName },
  { name: 'university', label: 'University', autocomplete: 'organization', value: v.university },
  { name: 'CMC', label: 'Campus mailbox (CMC)', value: v.CMC },
  {
    name: 'venmoUsername',
    label: 'Venmo username',
    value: v.venmoUsername,
    hint: '5-30 letters, digits, hyphens or underscores.',
  },
];

async function signupPage(
  c: Context<AppEnv>,
  values: Record<string, string> = {},
  errors: Record<string, string> = {},
  status: 200 | 400 | 429 | 503 = 200,
  message = errors._form,
) {
  return render(
    c,
    {
      title: 'Sign up',
      status,
      notice: message ? { kind: 'error', text: message } : Object.keys(errors).length ? INVALID : undefined,
    },
    form('/signup', await csrfToken(c), 'Sign up', ...SIGNUP_FIELDS(values).map((f) => field(f, errors))),
    h('p', null, 'Already have an account? ', h('a', { href: '/login' }, 'Log in'), '.'),
  );
}

accountPages.get('/signup', (c) => signupPage(c));
accountPages.post('/signup', async (c) => {
  const p = await parseForm(c, signupSchema);
  if (!p.ok) return signupPage(c, p.values, p.errors, 400);
  try {
    const message = await act.signup(c, p.data);
    return render(
      c,
      { title: 'Check your mail', notice: { kind: 'ok', text: message } },
      h('p', null, 'The mail holds the link that creates your account.'),
    );
  } catch (err) {
    const r = refusal(err);
    return signupPage(c, p.values, {}, r.status as 429 | 503, r.notice.text);
  }
});

/** Only a path of this site: `/x`, never `//host` or a whole URL. */
function safeNext(next: string | undefined): string {
  return next && /^\/(?![/\\])[\w\-./?=&%]*$/.test(next) ? next : '/';
}

async function loginPage(
  c: Context<AppEnv>,
  values: Record<string, string> = {},
  errors: Record<string, string> = {},
  status: 200 | 400 | 401 | 429 = 200,
  message?: string,
) {
  const next = safeNext(values.next ?? c.req.query('next'));
  return render(
    c,
    {
      title: 'Log in',
      status,
      notice: message ? { kind: 'error', text: message } : Object.keys(errors).length ? INVALID : doneNotice(c),
    },
    form(
      '/login',
      await csrfToken(c),
      'Log in',
      h('input', { type: 'hidden', name: 'next', value: next }),
      field(
        {
          name: 'emailAddress',
          label: 'E-mail address',
          type: 'email',
          autocomplete: 'username',
          value: values.emailAddress,
        },
        errors,
      ),
      field({ name: 'password', label: 'Password', type: 'password', autocomplete: 'current-password' }, errors),
    ),
    h('p', null, h('a', { href: '/forgot' }, 'Forgot your password?'), ' · ', h('a', { href: '/signup' }, 'Sign up')),
  );
}

accountPages.get('/login', (c) => loginPage(c));
accountPages.post('/login', async (c) => {
  const p = await parseForm(c, loginSchema);
  if (!p.ok) return loginPage(c, p.values, p.errors, 400);
  try {
    startSession(c, await act.login(c, p.data.emailAddress, p.data.password));
  } catch (err) {
    const r = refusal(err);
    return loginPage(c, p.values, {}, r.status as 401 | 429, r.notice.text);
  }
  const next = safeNext(p.values.next);
  return c.redirect(`${next}${next.includes('?') ? '&' : '?'}done=in`, 303);
});

accountPages.post('/logout', async (c) => {
  const me = viewer(c);
  if (me) await users.revokeSessions(c.get('db'), me.id);
  endSession(c);
  return c.redirect('/login?done=out', 303);
});

async function forgotPage(
  c: Context<AppEnv>,
  values: Record<string, string> = {},
  errors: Record<string, string> = {},
  status: 200 | 400 | 429 = 200,
  message?: string,
) {
  return render(
    c,
    { title: 'Forgotten password', status, notice: message ? { kind: 'error', text: message } : undefined },
    form(
      '/forgot',
      await csrfToken(c),
      'Send me a reset link',
      field(
        {
          name: 'emailAddress',
          label: 'E-mail address',
          type: 'email',
          autocomplete: 'email',
          value: values.emailAddress,
        },
        errors,
      ),
    ),
  );
}

accountPages.get('/forgot', (c) => forgotPage(c));
accountPages.post('/forgot', async (c) => {
  const p = await parseForm(c, resetRequestSchema);
  if (!p.ok) return forgotPage(c, p.values, p.errors, 400);
  try {
    await act.requestReset(c, p.data.emailAddress);
  } catch (err) {
    const r = refusal(err);
    return forgotPage(c, p.values, {}, r.status as 429, r.notice.text);
  }
  return render(
    c,
    { title: 'Check your mail', notice: { kind: 'ok', text: act.RESET_REQUESTED } },
    h('p', null, 'The link in it is valid for an hour.'),
  );
});

accountPages.post('/reset', async (c) => {
  const p = await parseForm(c, resetSchema);
  if (!p.ok) {
    if (p.errors.token) throw new HttpError(404, 'Reset link is invalid or has expired');
    return render(
      c,
      { title: 'Choose a new password', status: 400, notice: INVALID },
      resetForm(await csrfToken(c), p.values.token ?? '', p.errors),
    );
  }
  try {
    await act.resetPassword(c, p.data.token, p.data.password);
  } catch (err) {
    const r = refusal(err);
    return render(
      c,
      { title: 'Reset link not valid', notice: r.notice, status: r.status },
      h('p', null, h('a', { href: '/forgot' }, 'Ask for a new link'), '.'),
    );
  }
  return render(
    c,
    { title: 'Password changed', notice: { kind: 'ok', text: 'Your password is changed.' } },
    h('p', null, h('a', { href: '/login' }, 'Log in'), ' with the new password.'),
  );
});

accountPages.use('/account', requireSession);
accountPages.use('/account/*', requireSession);

async function accountPage(
  c: Context<AppEnv>,
  errors: Record<string, string> = {},
  status: 200 | 400 | 403 = 200,
  message?: string,
) {
  const u = await users.userById(c.get('db'), viewer(c)!.id);
  if (!u) throw new HttpError(401, 'invalid token');
  const csrf = await csrfToken(c);
  return render(
    c,
    {
      title: 'Account',
      status,
      notice: message ? { kind: 'error', text: message } : Object.keys(errors).length ? INVALID : doneNotice(c),
    },
    h(
      'dl',
      { class: 'facts' },
      h('dt', null, 'E-mail'),
      h('dd', null, u.email),
      h('dt', null, 'University'),
      h('dd', null, u.university),
      h('dt', null, 'Books bought'),
      h('dd', null, String(u.books_bought)),
      h('dt', null, 'Books sold'),
      h('dd', null, String(u.books_sold)),
      h('dt', null, 'Money made'),
      h('dd', null, `$${Number(u.money_made).toFixed(2)}`),
    ),
    h('h2', null, 'Profile'),
    form(
      '/account/profile',
      csrf,
      'Save profile',
      field({ name: 'firstName', label: 'First name', autocomplete: 'given-name', value: u.first_name }, errors),
      field({ name: 'lastName', label: 'Last name', autocomplete: 'family-name', value: u.last_name }, errors),
      field({ name: 'CMC', label: 'Campus mailbox (CMC)', value: u.cmc }, errors),
      field({ name: 'venmoUsername', label: 'Venmo username', value: u.venmo_username }, errors),
    ),
    h('h2', null, 'Password'),
    form(
      '/account/password',
      csrf,
      'Change password',
      field(
        { name: 'password', label: 'Current password', type: 'password', autocomplete: 'current-password' },
        errors,
      ),
      field(
        {
          name: 'newPassword',
          label: 'New password',
          type: 'password',
          autocomplete: 'new-password',
          hint: 'At least 8 characters, with a letter and a digit.',
        },
        errors,
      ),
    ),
  );
}

accountPages.get('/account', (c) => accountPage(c));
accountPages.post('/account/profile', async (c) => {
  const p = await parseForm(c, profileSchema);
  if (!p.ok) return accountPage(c, p.errors, 400);
  await users.updateProfile(c.get('db'), viewer(c)!.id, p.data);
  return c.redirect('/account?done=profile', 303);
});
accountPages.post('/account/password', async (c) => {
  const p = await parseForm(c, passwordChangeSchema);
  if (!p.ok) return accountPage(c, p.errors, 400);
  try {
    startSession(c, await act.changePassword(c, viewer(c)!.id, p.data.password, p.data.newPassword));
  } catch (err) {
    const r = refusal(err);
    return accountPage(c, {}, r.status as 403, r.notice.text);
  }
  return c.redirect('/account?done=password', 303);
});
