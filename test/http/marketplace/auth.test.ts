import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import delivery from '../../../functions/delivery.ts';
import type { Env } from '../../../src/platform/env.ts';
import { stackInfo, testDb, testEnv } from '../../support/env.ts';
import { serveWorker, type Served } from '../../support/serve.ts';
import { waitFor } from '../../support/wait.ts';
import { client, expectError, json, mails, makeUser, PASSWORD, waitForMail } from './helpers.ts';

let served: Served;
let env: Env;
let api: ReturnType<typeof client>;
const mailUrl = () => stackInfo().mailUrl;

beforeAll(async () => {
  served = await serveWorker(delivery, (url) => testEnv({ DELIVERY_URL: url }));
  env = testEnv({
    DELIVERY_URL: served.url,
    MARKETPLACE_URL: 'https://market.example.edu',
    OWNER_EMAILS: 'Boss@Owner.edu, other@owner.edu',
  });
  api = client(env);
});
afterAll(async () => served.close());

const signup = (over: Record<string, unknown> = {}) => ({
  emailAddress: `s${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}@school.edu`,
  password: 'secret-pass-1',
  firstName: 'Ada',
  lastName: "O'Neil-Smith",
  university: 'University of Rochester',
  CMC: '1234',
  venmoUsername: '@ada-venmo',
  ...over,
});

async function confirmLink(email: string): Promise<string> {
  const mail = await waitForMail(mailUrl(), email, 'Confirm your e-mail');
  const m = /https:\/\/market\.example\.edu(\/api\/auth\/confirm\/[A-Za-z0-9_-]+)/.exec(mail.text);
  expect(m).not.toBeNull();
  return m![1]!;
}

describe('sign-up, confirmation and login', () => {
  it('stores a pending sign-up, mails the link through the queue, confirms exactly once, then logs in', async () => {
    const s = signup();
    const res = await api.post('/api/auth/signup', { data: s });
    expect(res.status).toBe(201);
    const body = await json(res);
    expect(body.method).toBe('POST /api/auth/signup');
    expect(body.data.message).toContain(s.emailAddress);
    // no account before the link is followed
    expect(await testDb().query('SELECT 1 FROM market.users WHERE email = $1', [s.emailAddress])).toEqual([]);
    await expectError(await api.post('/api/auth/login', { emailAddress: s.emailAddress, password: s.password }), 401);

    const link = await confirmLink(s.emailAddress);
    const ok = await api.get(link);
    expect(ok.status).toBe(201);
    const user = (await json(ok)).data.user;
    expect(user).toMatchObject({
      emailAddress: s.emailAddress,
      firstName: 'Ada',
      lastName: "O'Neil-Smith",
      CMC: '1234',
      venmoUsername: 'ada-venmo',
      permissionType: 0,
    });
    expect(JSON.stringify(user)).not.toContain('pbkdf2');
    await expectError(await api.get(link), 404, `GET ${link}`);
    expect(
      (await testDb().query('SELECT count(*)::int AS n FROM market.users WHERE email = $1', [s.emailAddress]))[0],
    ).toEqual({ n: 1 });
    const [ev] = await testDb().query<{ payload: any }>(
      "SELECT payload FROM webhooks.outbox WHERE event_name = 'user_signup' AND object_id = $1",
      [user._id],
    );
    expect(ev!.payload.emailAddress).toBe(s.emailAddress);
    expect(JSON.stringify(ev!.payload)).not.toContain('pbkdf2');

    const login = await api.post('/api/auth/login', {
      data: { emailAddress: s.emailAddress.toUpperCase(), password: s.password },
    });
    expect(login.status).toBe(200);
    const token = (await json(login)).data.token as string;
    const me = await json(await api.get('/api/user/getUserData', { authorization: `Bearer ${token}` }));
    expect(me.data.user.emailAddress).toBe(s.emailAddress);
    const notes = await json(await api.get('/api/user/getNotifications', { authorization: `Bearer ${token}` }));
    expect(notes.data.map((n: any) => n.message)).toEqual(['Thanks for signing up for BarterOut!']);
  });

  it('makes an address listed in OWNER_EMAILS an owner when confirmed', async () => {
    const res = await api.post('/api/auth/signup', signup({ emailAddress: 'boss@owner.edu' }));
    expect(res.status).toBe(201);
    const user = (await json(await api.get(await confirmLink('boss@owner.edu')))).data.user;
    expect(user.permissionType).toBe(2);
  });

  it('answers a sign-up of a registered address like any other, and mails its owner instead (issue 37)', async () => {
    const existing = await makeUser();
    const res = await api.post('/api/auth/signup', signup({ emailAddress: existing.email.toUpperCase() }));
    expect(res.status).toBe(201);
    expect((await json(res)).data.message).toBe(
      `A confirmation e-mail was sent to ${existing.email}. Follow its link within 24 hours.`,
    );
    const mail = await waitForMail(mailUrl(), existing.email, 'You already have an account');
    expect(mail.text).toContain('https://market.example.edu/login');
    expect(await testDb().query('SELECT 1 FROM market.pending_signups WHERE email = $1', [existing.email])).toEqual([]);
  });

  it('replaces a live pending sign-up: only the newest mail confirms (issue 37)', async () => {
    const s = signup();
    expect((await api.post('/api/auth/signup', s)).status).toBe(201);
    const first = await confirmLink(s.emailAddress);
    expect((await api.post('/api/auth/signup', s)).status).toBe(201);
    const second = await waitFor('a second confirmation mail', async () => {
      const links = (await mails(mailUrl()))
        .filter((m) => m.to.includes(s.emailAddress) && m.subject.includes('Confirm'))
        .map((m) => /\/api\/auth\/confirm\/[A-Za-z0-9_-]+/.exec(m.text)![0]);
      return links.find((l) => l !== first);
    });
    await expectError(await api.get(first), 404);
    expect((await api.get(second)).status).toBe(201);
  });

  it('accepts an expired pending sign-up being replaced, and refuses its old link', async () => {
    const s = signup();
    expect((await api.post('/api/auth/signup', s)).status).toBe(201);
    const link = await confirmLink(s.emailAddress);
    await testDb().query(
      "UPDATE market.pending_signups SET expires_at = now() - interval '1 minute' WHERE email = $1",
      [s.emailAddress],
    );
    await expectError(await api.get(link), 404);
    expect((await api.post('/api/auth/signup', s)).status).toBe(201);
  });

  it.each([
    ['non-.edu address', { emailAddress: 'a@gmail.com' }],
    ['short password', { password: 'abc1' }],
    ['password without digit', { password: 'only-letters' }],
    ['empty first name', { firstName: '' }],
    ['digits in last name', { lastName: 'R2D2' }],
    ['missing university', { university: undefined }],
    ['bad campus mailbox', { CMC: '<script>' }],
    ['short venmo name', { venmoUsername: 'ab' }],
    ['wrong type', { password: 12345678 }],
  ])('rejects a sign-up with %s (400)', async (_name, over) => {
    const msg = await expectError(await api.post('/api/auth/signup', signup(over)), 400, 'POST /api/auth/signup');
    expect(msg.length).toBeGreaterThan(0);
  });

  it.each([
    ['malformed JSON', '{"data": '],
    ['an array', '[]'],
    ['an empty object', '{}'],
  ])('answers %s with 400 in the envelope', async (_n, raw) => {
    await expectError(await api.post('/api/auth/login', raw), 400);
  });

  it.each([
    ['unknown address', 'nobody@nowhere.edu', PASSWORD],
    ['wrong password', undefined, 'wrong-password-1'],
  ])('login with %s is 401 with one message', async (_n, email, password) => {
    const u = await makeUser();
    expect(
      await expectError(await api.post('/api/auth/login', { emailAddress: email ?? u.email, password }), 401),
    ).toBe('Incorrect e-mail address or password');
  });

  it.each([
    ['no header', {}],
    ['not bearer', { authorization: 'Basic abc' }],
    ['garbage token', { authorization: 'Bearer abc.def.ghi' }],
  ])('an authenticated route with %s is 401', async (_n, headers) => {
    await expectError(await api.get('/api/user/getUserData', headers), 401);
  });
});

describe('profile and passwords', () => {
  it('updates the profile (bare body) and validates it', async () => {
    const u = await makeUser();
    const res = await api.post('/api/auth/updateProfile', { firstName: 'Grace', CMC: '42' }, u.auth);
    expect(res.status).toBe(200);
    expect((await json(res)).data.user).toMatchObject({ firstName: 'Grace', CMC: '42', venmoUsername: 'venmo-user' });
    await expectError(await api.post('/api/auth/updateProfile', {}, u.auth), 400);
    await expectError(await api.post('/api/auth/updateProfile', { firstName: 'x' }), 401);
  });

  it('changes the password: wrong current password 403, then old tokens stop working', async () => {
    const u = await makeUser();
    await expectError(
      await api.post('/api/auth/updatePassword', { password: 'nope-nope-1', newPassword: 'brand-new-2' }, u.auth),
      403,
    );
    await expectError(
      await api.post('/api/auth/updatePassword', { password: PASSWORD, newPassword: 'short' }, u.auth),
      400,
    );
    const res = await api.post(
      '/api/auth/updatePassword',
      { data: { password: PASSWORD, newPassword: 'brand-new-2' } },
      u.auth,
    );
    expect(res.status).toBe(200);
    const fresh = (await json(res)).data.token;
    await expectError(await api.get('/api/user/getUserData', u.auth), 401);
    expect((await api.get('/api/user/getUserData', { authorization: `Bearer ${fresh}` })).status).toBe(200);
    expect((await api.post('/api/auth/login', { emailAddress: u.email, password: 'brand-new-2' })).status).toBe(200);
  });

  it('resets a password by mail without revealing whether the address exists', async () => {
    const u = await makeUser();
    const unknown = await json(await api.post('/api/auth/passwordResetRequest', { emailAddress: 'ghost@nowhere.edu' }));
    const known = await json(await api.post('/api/auth/passwordResetRequest', { data: { emailAddress: u.email } }));
    expect(known.data).toEqual(unknown.data);
    const mail = await waitForMail(mailUrl(), u.email, 'Password reset');
    const token = /passwordReset\/([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    expect((await api.get(`/api/auth/passwordReset/${token}`)).status).toBe(200);
    await expectError(await api.post('/api/auth/passwordReset', { token, password: 'weak' }), 400);
    expect((await api.post('/api/auth/passwordReset', { token, password: 'after-reset-3' })).status).toBe(200);
    await expectError(await api.post('/api/auth/passwordReset', { token, password: 'again-reset-4' }), 404);
    await expectError(await api.get(`/api/auth/passwordReset/${token}`), 404);
    await expectError(await api.get('/api/user/getUserData', u.auth), 401);
    expect((await api.post('/api/auth/login', { emailAddress: u.email, password: 'after-reset-3' })).status).toBe(200);
  });
});

describe('rate limits of login, sign-up and reset requests (issue 37)', () => {
  it('refuses logins of an address after 10 failures, even with the right password, with Retry-After', async () => {
    const u = await makeUser();
    const attempt = (password: string) => api.post('/api/auth/login', { emailAddress: u.email, password });
    for (let i = 0; i < 10; i++) await expectError(await attempt('wrong-pass-1'), 401);
    const refused = await attempt(PASSWORD);
    expect(await expectError(refused.clone(), 429)).toBe('Too many attempts; try again later');
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(15 * 60);
    // another address is not affected
    const other = await makeUser();
    expect((await api.post('/api/auth/login', { emailAddress: other.email, password: PASSWORD })).status).toBe(200);
  });

  it('a successful login clears the failures', async () => {
    const u = await makeUser();
    const attempt = (password: string) => api.post('/api/auth/login', { emailAddress: u.email, password });
    for (let i = 0; i < 9; i++) await expectError(await attempt('wrong-pass-1'), 401);
    expect((await attempt(PASSWORD)).status).toBe(200);
    for (let i = 0; i < 9; i++) await expectError(await attempt('wrong-pass-1'), 401);
    expect((await attempt(PASSWORD)).status).toBe(200);
  });

  it('counts failures per client address where the platform names it (CF-Connecting-IP)', async () => {
    const ip = `203.0.113.${Math.floor(Math.random() * 250) + 1}`;
    const statuses: number[] = [];
    for (let i = 0; i < 51; i++) {
      const res = await api.post(
        '/api/auth/login',
        { emailAddress: `nobody${i}-${ip}@test.edu`, password: 'wrong-pass-1' },
        { 'cf-connecting-ip': ip },
      );
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 50).every((s) => s === 401)).toBe(true);
    expect(statuses[50]).toBe(429);
  });

  it('refuses the sixth sign-up and reset request of an address within the hour, whether or not it has an account', async () => {
    const existing = await makeUser();
    const fresh = signup().emailAddress;
    for (const address of [existing.email, fresh]) {
      for (let i = 0; i < 5; i++)
        expect((await api.post('/api/auth/signup', signup({ emailAddress: address }))).status).toBe(201);
      await expectError(await api.post('/api/auth/signup', signup({ emailAddress: address })), 429);
      for (let i = 0; i < 5; i++)
        expect((await api.post('/api/auth/passwordResetRequest', { emailAddress: address })).status).toBe(200);
      await expectError(await api.post('/api/auth/passwordResetRequest', { emailAddress: address }), 429);
    }
  });
});
