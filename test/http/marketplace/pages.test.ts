/**
 * The marketplace's pages through the worker's fetch, as a browser reaches them (cookies, forms with
 * their CSRF token, 303 redirects), with mail through the real queue to the mail catcher: every journey
 * of issue 37, hostile values shown as text, and refusals as 4xx pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import delivery from '../../../functions/delivery.ts';
import type { Env } from '../../../src/platform/env.ts';
import { stackInfo, testDb, testEnv } from '../../support/env.ts';
import { serveWorker, type Served } from '../../support/serve.ts';
import { makeUser, PASSWORD, postBook, client, waitForMail, uniqueIsbn } from './helpers.ts';
import { notices, PageSession } from './pages-helpers.ts';

let served: Served;
let env: Env;
const BASE = 'https://market.example.edu';

beforeAll(async () => {
  served = await serveWorker(delivery, (url) => testEnv({ DELIVERY_URL: url }));
  env = testEnv({ DELIVERY_URL: served.url, MARKETPLACE_URL: BASE, OWNER_EMAILS: 'pages-owner@owner.edu' });
});
afterAll(async () => served.close());

const session = () => new PageSession(env);
const TAG = Math.random().toString(36).slice(2, 8);
/** Books of this file: a course and names no other suite uses, so other suites' requests never match them. */
const own = (name: string) => ({ name: `${name} ${TAG}`, course: 'PGS 778', ISBN: null });
const address = (tag: string) => `${tag}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@pages.edu`;

async function signedIn(permission: 0 | 1 | 2 = 0) {
  const u = await makeUser({ permission });
  const s = session();
  await s.login(u.email, PASSWORD);
  return { user: u, s };
}

describe('pages: sign-up, confirmation, login, logout, reset', () => {
  it('signs up through the form, confirms from the mail link in a browser, and logs in with a secure cookie', async () => {
    const s = session();
    const form = await s.get('/signup');
    expect(form.status).toBe(200);
    expect(form.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    const email = address('kim');
    const sent = await s.submit('/signup', {
      emailAddress: email,
      password: 'secret-pass-1',
      firstName: 'Kim',
      lastName: 'Park',
      university: 'UR',
      CMC: '1235',
      venmoUsername: 'kim-park',
    });
    expect(sent.status).toBe(200);
    expect(notices(sent.html)).toEqual([
      `A confirmation e-mail was sent to ${email}. Follow its link within 24 hours.`,
    ]);
    const mail = (await waitForMail(stackInfo().mailUrl, email, 'Confirm')) as any;
    const link = /https:\/\/market\.example\.edu(\/api\/auth\/confirm\/[A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    expect(mail.html).toContain(`<a href="${BASE}${link}">Confirm my address</a>`);
    const landing = await s.get(link);
    expect(landing.status).toBe(200);
    expect(landing.html).toContain('<h1>Your account is confirmed</h1>');
    expect((await s.get(link)).status).toBe(404); // once only, as a page

    const home = await s.login(email, 'secret-pass-1');
    expect(notices(home.html)).toEqual(['You are logged in.']);
    const cookie = s.setCookies.find((c) => c.startsWith('mp_session='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect((await s.get('/account')).html).toContain(email);
  });

  it('logs out by revoking the token: the old cookie and the same token as a bearer stop working', async () => {
    const { s } = await signedIn();
    const token = s.cookies.get('mp_session')!;
    const api = client(env);
    expect((await api.get('/api/user/getUserData', { authorization: `Bearer ${token}` })).status).toBe(200);
    const out = await s.submit('/logout', {});
    expect(notices(out.html)).toEqual(['You are logged out; every session of your account has ended.']);
    expect(s.cookies.has('mp_session')).toBe(false);
    expect((await api.get('/api/user/getUserData', { authorization: `Bearer ${token}` })).status).toBe(401);
    const replay = session();
    replay.cookies.set('mp_session', token);
    const page = await replay.get('/account');
    expect(page.url).toBe('/login?next=%2Faccount');
    expect(page.html).toContain('<h1>Log in</h1>');
  });

  it('resets a forgotten password through the mailed link and the form', async () => {
    const u = await makeUser();
    const s = session();
    await s.get('/forgot');
    const asked = await s.submit('/forgot', { emailAddress: u.email });
    expect(notices(asked.html)).toEqual(['If an account exists for this address, a reset link was sent to it.']);
    const unknown = await s.submit('/forgot', { emailAddress: address('nobody') });
    expect(notices(unknown.html)).toEqual(notices(asked.html));
    const mail = (await waitForMail(stackInfo().mailUrl, u.email, 'reset')) as any;
    const link = /https:\/\/market\.example\.edu(\/api\/auth\/passwordReset\/[A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    expect(mail.html).toContain(`<a href="${BASE}${link}">`);
    const form = await s.get(link);
    expect(form.html).toContain('<h1>Choose a new password</h1>');
    const token = link.split('/').pop()!;
    const weak = await s.submit('/reset', { token, password: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.html).toContain('at least 8 characters');
    const done = await s.submit('/reset', { token, password: 'brand-new-pass-7' });
    expect(done.html).toContain('<h1>Password changed</h1>');
    expect((await s.submit('/reset', { token, password: 'brand-new-pass-8' })).status).toBe(404);
    await session().login(u.email, 'brand-new-pass-7');
  });

  it('shows a wrong password as 401 and, after ten failures, a 429 page', async () => {
    const u = await makeUser();
    const s = session();
    await s.get('/login');
    const wrong = await s.submit('/login', { emailAddress: u.email, password: 'wrong-pass-1' });
    expect(wrong.status).toBe(401);
    expect(notices(wrong.html)).toEqual(['Incorrect e-mail address or password']);
    for (let i = 0; i < 9; i++) await s.submit('/login', { emailAddress: u.email, password: 'wrong-pass-1' });
    const limited = await s.submit('/login', { emailAddress: u.email, password: PASSWORD });
    expect(limited.status).toBe(429);
  });
});

describe('pages: CSRF and escaping', () => {
  it('refuses a form post without the CSRF token, or with another session’s, and changes nothing', async () => {
    const a = await signedIn();
    const b = await signedIn();
    await a.s.get('/sell');
    const book = { name: 'Forged', edition: '1', course: 'CSC 171', price: '10', condition: 'Good' };
    expect((await a.s.submit('/sell', book, null)).status).toBe(403);
    await b.s.get('/sell');
    expect((await a.s.submit('/sell', book, b.s.csrf)).status).toBe(403);
    expect((await a.s.submit('/logout', {}, 'x'.repeat(43))).status).toBe(403);
    expect(await testDb().query('SELECT 1 FROM market.books WHERE owner_id = $1', [a.user.id])).toEqual([]);
  });

  it('shows a hostile title as text on the listing, the search, the book page and my books', async () => {
    const { user, s } = await signedIn();
    const name = `<img src=x onerror="alert(1)"><script>alert(2)</script> Quixotic ${Date.now()}`;
    await s.get('/sell');
    const posted = await s.submit('/sell', {
      name,
      edition: '2',
      course: 'PGS 778',
      price: '12.50',
      condition: 'Good',
    });
    expect(notices(posted.html)).toEqual(['Your book is listed.']);
    const escaped = '&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt; Quixotic';
    const other = await signedIn();
    for (const page of [
      posted,
      await s.get('/my-books'),
      await other.s.get('/?q=quixotic'),
      await session().get('/?q=quixotic'),
    ]) {
      expect(page.html).toContain(escaped);
      expect(page.html).not.toContain('<script>');
      expect(page.html).not.toContain('<img');
    }
    expect(await testDb().query('SELECT name FROM market.books WHERE owner_id = $1', [user.id])).toEqual([{ name }]);
  });

  it('answers bad input with 4xx pages: form errors per field, unknown book, bad cursor, empty search', async () => {
    const { s } = await signedIn();
    await s.get('/sell');
    const bad = await s.submit('/sell', {
      name: '',
      edition: 'x',
      course: 'Chemistry',
      price: '900',
      condition: 'Good',
    });
    expect(bad.status).toBe(400);
    expect(bad.html).toContain('course code like &quot;CSC 171&quot;');
    expect(bad.html).toMatch(/id="f-price-error"/);
    expect(bad.html).toMatch(/aria-describedby="f-price-error"/);
    expect((await s.get('/books/999999999')).status).toBe(404);
    expect((await s.get('/books/abc')).status).toBe(404);
    expect((await s.get('/?cursor=not-a-cursor!')).status).toBe(400);
    expect((await s.get('/?q=%2B%2B')).status).toBe(400);
  });
});

describe('pages: selling, requesting, matching, buying', () => {
  it('requests a book, sees the match when it is posted, pages the listing by cursor', async () => {
    const buyer = await signedIn();
    const seller = await signedIn();
    const { isbn13 } = uniqueIsbn();
    await buyer.s.get('/request');
    const requested = await buyer.s.submit('/request', {
      name: `Quaternion Pagesuite ${TAG}`,
      course: 'PGS 779',
      ISBN: isbn13,
    });
    expect(notices(requested.html)).toEqual([
      'Your request is recorded; we will tell you when a matching book is posted.',
    ]);
    await seller.s.get('/sell');
    await seller.s.submit('/sell', {
      name: `Quaternion Pagesuite ${TAG}`,
      edition: '3',
      course: 'PGS 779',
      price: '40',
      condition: 'Good',
      ISBN: isbn13,
    });
    const matches = await buyer.s.get('/requests');
    expect(matches.html).toContain(`>Quaternion Pagesuite ${TAG}</a>`);
    expect((await buyer.s.get('/notifications')).html).toContain(
      `Match found: &quot;Quaternion Pagesuite ${TAG}&quot;`,
    );

    for (let i = 0; i < 41; i++) await postBook(seller.user, own(`Filler ${i}`));
    const first = await session().get('/');
    const next = /href="(\/\?cursor=[A-Za-z0-9_-]+)" rel="next"/.exec(first.html)![1]!;
    const second = await session().get(next);
    expect(second.status).toBe(200);
    const titles = (html: string) => [...html.matchAll(/<a href="\/books\/(\d+)">/g)].map((m) => m[1]);
    expect(titles(first.html)).toHaveLength(40);
    expect(titles(second.html).some((id) => titles(first.html).includes(id))).toBe(false);
  });

  it('two students race for one book: one buys it, the other is told someone else was first', async () => {
    const seller = await makeUser();
    const book = await postBook(seller, own('Contested Calculus'));
    const a = await signedIn();
    const b = await signedIn();
    for (const x of [a, b]) {
      await x.s.get(`/books/${book._id}`);
      const added = await x.s.submit('/cart/add', { bookID: book._id });
      expect(notices(added.html)).toEqual(['The book is in your cart.']);
    }
    const won = await a.s.submit('/checkout', {});
    expect(notices(won.html)[0]).toMatch(/^Thank you! Your purchase is recorded/);
    expect(won.html).toContain(`Contested Calculus ${TAG}`);
    const lost = await b.s.submit('/checkout', {});
    expect(lost.status).toBe(409);
    expect(notices(lost.html)).toEqual([
      'Someone else bought a book in your cart before you did, so nothing was bought. It has left your cart; you can buy the rest now.',
    ]);
    expect(lost.html).toContain(`<h2>Bought by someone else first</h2><ul><li>Contested Calculus ${TAG}</li></ul>`);
    expect((await b.s.get('/cart')).html).toContain('Your cart is empty.');
    expect((await testDb().query('SELECT buyer_id::text FROM market.books WHERE id = $1', [book._id]))[0]).toEqual({
      buyer_id: a.user.id,
    });
  });
});

describe('pages: staff and owner', () => {
  it('a student gets a 403 page; an admin confirms the condition, then delivery and payment', async () => {
    const student = await signedIn();
    expect((await student.s.get('/staff')).status).toBe(403);
    const seller = await makeUser();
    const book = await postBook(seller, own('Staff Checked Biology'));
    await student.s.get(`/books/${book._id}`);
    await student.s.submit('/cart/add', { bookID: book._id });
    await student.s.submit('/checkout', {});
    const admin = await signedIn(1);
    const list = await admin.s.get('/staff');
    expect(list.html).toContain(`Condition checked, charge buyer: Staff Checked Biology ${TAG}`);
    expect(list.html).toMatch(/Mark transaction #\d+ complete/);
    const checked = await admin.s.submit('/staff/confirm', { id: book._id });
    expect(notices(checked.html)).toEqual(['The book moved on.']);
    expect(checked.html).toContain(`Delivered, seller paid: Staff Checked Biology ${TAG}`);
    const again = await admin.s.submit('/staff/confirm', { id: book._id });
    expect(again.status).toBe(409);
    await admin.s.submit('/staff/paid', { id: book._id });
    expect((await testDb().query('SELECT status FROM market.books WHERE id = $1', [book._id]))[0]).toEqual({
      status: 3,
    });
    expect((await student.s.get('/purchases')).html).toContain('Delivered and paid');
    const [tx] = await testDb().query<{ id: string }>('SELECT id::text FROM market.transactions WHERE buyer_id = $1', [
      student.user.id,
    ]);
    const completed = await admin.s.submit('/staff/transactions/confirm', { id: tx!.id });
    expect(notices(completed.html)).toEqual(['The transaction is complete.']);
    expect(completed.html).not.toContain(`Mark transaction #${tx!.id} complete`);
    expect((await admin.s.submit('/staff/transactions/confirm', { id: tx!.id })).status).toBe(409);
    expect((await testDb().query('SELECT status FROM market.transactions WHERE id = $1', [tx!.id]))[0]).toEqual({
      status: 1,
    });
    expect((await admin.s.get('/staff/statistics')).html).toContain('<dt>Users</dt>');
    expect((await admin.s.get('/staff/users')).html).not.toContain('make-admin'); // an admin is not the owner
  });

  it('the owner finds a user, makes them an admin and runs the unlisting job', async () => {
    const owner = await signedIn(2);
    const target = await makeUser({ first: 'Promoted', last: 'Person' });
    const found = await owner.s.get(`/staff/users?q=${encodeURIComponent(target.email)}`);
    expect(found.html).toContain(`Make Promoted Person an admin`);
    const made = await owner.s.submit('/staff/owner/make-admin', { userID: target.id });
    expect(notices(made.html)).toEqual(['The permission was changed.']);
    expect((await testDb().query('SELECT permission_type FROM market.users WHERE id = $1', [target.id]))[0]).toEqual({
      permission_type: 1,
    });
    const old = await postBook(target, own('Ancient Tome'));
    await testDb().query("UPDATE market.books SET posted_at = now() - interval '400 days' WHERE id = $1", [old._id]);
    const ran = await owner.s.submit('/staff/owner/unlist', { days: '300' });
    expect(notices(ran.html)[0]).toMatch(
      /^\d+ books listed more than 300 days ago were unlisted; \d+ owners were told\.$/,
    );
    expect((await testDb().query('SELECT status FROM market.books WHERE id = $1', [old._id]))[0]).toEqual({
      status: 5,
    });
    const admin = await signedIn(1);
    await admin.s.get('/staff/users');
    expect((await admin.s.submit('/staff/owner/unlist', { days: '1' })).status).toBe(403);
  });
});
