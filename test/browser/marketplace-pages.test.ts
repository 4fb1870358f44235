/**
 * The marketplace's pages in headless Chromium (playwright-core), served over HTTP on the local stack
 * (PGlite behind the Neon-compatible proxy, the QStash-compatible server calling the delivery worker,
 * the mail catcher): every journey of issue 37 end to end by clicking and typing, with axe-core's
 * WCAG 2.0/2.1 A and AA rules run on every page visited and no horizontal scrolling at a phone's width.
 * No JavaScript is needed (the pages have none), no dialog may open and the CSP must report nothing.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import delivery from '../../functions/delivery.ts';
import marketplace from '../../functions/marketplace.ts';
import { stackInfo, testDb, testEnv } from '../support/env.ts';
import { serveWorker, type Served } from '../support/serve.ts';
import { makeUser, PASSWORD, postBook, waitForMail } from '../http/marketplace/helpers.ts';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const PHONE = { width: 375, height: 740 };

let browser: Browser;
let queue: Served;
let site: Served;
const visited = new Map<string, string[]>();
const problems: string[] = [];

beforeAll(async () => {
  queue = await serveWorker(delivery, (url) => testEnv({ DELIVERY_URL: url }));
  site = await serveWorker(marketplace, (url) =>
    testEnv({ DELIVERY_URL: queue.url, MARKETPLACE_URL: url, OWNER_EMAILS: 'browser-owner@owner.edu' }),
  );
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await queue?.close();
});

/** A student's browser (desktop or phone) that records dialogs, CSP reports and console errors. */
async function person(viewport = { width: 1280, height: 900 }): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ viewport });
  const page = await ctx.newPage();
  page.on('dialog', (d) => {
    problems.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  page.on('console', (m) => {
    // A 4xx page (a refused form, by design) is logged as a failed load; script or CSP errors are not.
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(`console: ${m.text()}`);
  });
  return { ctx, page };
}

/** axe-core's WCAG 2.0/2.1 A and AA rules on the page as it is now; the violations' ids and targets. */
async function axe(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const result = await page.evaluate(async () => {
    const w = window as unknown as { axe: { run(o: unknown): Promise<{ violations: any[] }> } };
    const r = await w.axe.run({ runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return r.violations.map((v) => `${v.id}: ${v.nodes.map((n: any) => n.target.join(' ')).join(', ')}`);
  });
  return result;
}

/** After each navigation: axe, and no horizontal scrolling at the viewport's width. */
async function check(page: Page): Promise<void> {
  const path = new URL(page.url()).pathname;
  const violations = await axe(page);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  visited.set(`${path} @${page.viewportSize()?.width}`, violations);
  expect(violations, `${path}`).toEqual([]);
  expect(overflow, `${path} scrolls sideways`).toBeLessThanOrEqual(0);
}

async function go(page: Page, path: string): Promise<void> {
  await page.goto(`${site.url}${path}`);
  await check(page);
}

async function fill(page: Page, fields: Record<string, string>): Promise<void> {
  for (const [label, value] of Object.entries(fields)) await page.getByLabel(label, { exact: true }).fill(value);
}

async function submit(page: Page, button: string): Promise<void> {
  await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: button, exact: true }).click()]);
  await page.waitForLoadState('load');
  await check(page);
}

async function logIn(page: Page, email: string, password: string): Promise<void> {
  await go(page, '/login');
  await fill(page, { 'E-mail address': email, Password: password });
  await submit(page, 'Log in');
  await expect.poll(() => page.locator('[role=status]').first().textContent()).toBe('You are logged in.');
}

const noticeText = (page: Page) => page.locator('.notice').first().textContent();

describe('marketplace pages in Chromium', { timeout: 240_000 }, () => {
  it('a new student signs up, confirms from the mail, logs in, posts a book with a hostile title and finds it', async () => {
    const { ctx, page } = await person();
    const email = `new${Date.now().toString(36)}@browser.edu`;
    await go(page, '/');
    await page.getByRole('link', { name: 'Sign up' }).click();
    await check(page);
    await fill(page, {
      'College e-mail address': email,
      Password: 'secret-pass-1',
      'First name': 'Nia',
      'Last name': "O'Hara",
      University: 'University of Rochester',
      'Campus mailbox (CMC)': '4321',
      'Venmo username': 'nia-ohara',
    });
    await submit(page, 'Sign up');
    expect(await noticeText(page)).toContain(`A confirmation e-mail was sent to ${email}`);
    const mail = (await waitForMail(stackInfo().mailUrl, email, 'Confirm')) as any;
    const href = /<a href="([^"]+)">Confirm my address<\/a>/.exec(mail.html)![1]!;
    expect(href.startsWith(`${site.url}/api/auth/confirm/`)).toBe(true);
    await page.goto(href.replace(/&amp;/g, '&'));
    await check(page);
    expect(await page.locator('h1').textContent()).toBe('Your account is confirmed');
    await logIn(page, email, 'secret-pass-1');
    const cookies = await ctx.cookies();
    expect(cookies.find((c) => c.name === 'mp_session')).toMatchObject({
      httpOnly: true,
      secure: true,
      sameSite: 'Lax',
    });

    const title = `<img src=x onerror=alert(1)><script>alert(2)</script> Zymurgy ${Date.now()}`;
    await page.getByRole('link', { name: 'Sell a book' }).click();
    await check(page);
    await fill(page, { Title: title, Course: 'CHM 131', Edition: '4', Condition: 'Good', 'Price in dollars': '22.50' });
    await submit(page, 'List my book');
    expect(await page.locator('h1').textContent()).toBe(title);
    expect(await page.locator('main script, main img').count()).toBe(0);

    const other = await person();
    await go(other.page, '/');
    await other.page.getByLabel('Search by title, course or ISBN').fill('zymurgy');
    await submit(other.page, 'Search');
    expect(await other.page.getByRole('link', { name: title }).count()).toBe(1);
    await other.ctx.close();
    await ctx.close();
  });

  it('requests a book and sees the match; two students race for it and the loser is told why', async () => {
    const [a, b, seller] = await Promise.all([makeUser(), makeUser(), makeUser()]);
    const A = await person();
    const B = await person(PHONE);
    await logIn(A.page, a.email, PASSWORD);
    await logIn(B.page, b.email, PASSWORD);
    await go(A.page, '/request');
    await fill(A.page, { Title: 'Thermodynamics Primer', Course: 'ME 226' });
    await submit(A.page, 'Request it');
    const book = await postBook(seller, { name: 'Thermodynamics Primer', course: 'ME 226' });
    await go(A.page, '/requests');
    expect(await A.page.getByRole('link', { name: 'Thermodynamics Primer' }).count()).toBe(1);

    for (const p of [A.page, B.page]) {
      await go(p, `/books/${book._id}`);
      await submit(p, 'Add to cart');
      expect(await noticeText(p)).toBe('The book is in your cart.');
    }
    await submit(B.page, 'Buy these books');
    expect(await noticeText(B.page)).toMatch(/^Thank you!/);
    await submit(A.page, 'Buy these books');
    expect(await noticeText(A.page)).toBe(
      'Someone else bought a book in your cart before you did, so nothing was bought. It has left your cart; you can buy the rest now.',
    );
    expect(await A.page.locator('main li').allTextContents()).toEqual(['Thermodynamics Primer']);
    for (const path of ['/purchases', '/notifications', '/account', '/my-books', '/sold', '/cart'])
      await go(B.page, path);
    await Promise.all([A.ctx.close(), B.ctx.close()]);
  });

  it('staff confirm and pay; the owner makes an admin and runs the unlisting', async () => {
    const [buyer, seller] = await Promise.all([makeUser(), makeUser({ first: 'Sella', last: 'Promotable' })]);
    const book = await postBook(seller, { name: 'Staff Journey Statistics' });
    const S = await person(PHONE);
    await logIn(S.page, buyer.email, PASSWORD);
    await go(S.page, `/books/${book._id}`);
    await submit(S.page, 'Add to cart');
    await submit(S.page, 'Buy these books');

    const admin = await makeUser({ permission: 1 });
    const A = await person();
    await logIn(A.page, admin.email, PASSWORD);
    await A.page.getByRole('link', { name: 'Staff' }).click();
    await check(A.page);
    await submit(A.page, 'Condition checked, charge buyer: Staff Journey Statistics');
    await submit(A.page, 'Delivered, seller paid: Staff Journey Statistics');
    expect((await testDb().query('SELECT status FROM market.books WHERE id = $1', [book._id]))[0]).toEqual({
      status: 3,
    });
    await go(A.page, '/staff/statistics');
    await go(A.page, '/staff/users');

    const owner = await makeUser({ permission: 2 });
    const O = await person(PHONE);
    await logIn(O.page, owner.email, PASSWORD);
    await go(O.page, `/staff/users?q=${encodeURIComponent(seller.email)}`);
    await submit(O.page, 'Make Sella Promotable an admin');
    expect(await noticeText(O.page)).toBe('The permission was changed.');
    await submit(O.page, 'Unlist old books now');
    expect(await noticeText(O.page)).toMatch(/books listed more than \d+ days ago were unlisted/);
    await Promise.all([S.ctx.close(), A.ctx.close(), O.ctx.close()]);
  });

  it('the forgotten-password journey, and every public page, pass axe at phone width', async () => {
    const u = await makeUser();
    const P = await person(PHONE);
    for (const path of ['/', '/signup', '/login', '/forgot']) await go(P.page, path);
    await fill(P.page, { 'E-mail address': u.email });
    await submit(P.page, 'Send me a reset link');
    const mail = (await waitForMail(stackInfo().mailUrl, u.email, 'reset')) as any;
    const href = /<a href="([^"]+)">Choose a new password<\/a>/.exec(mail.html)![1]!;
    await P.page.goto(href);
    await check(P.page);
    await fill(P.page, { 'New password': 'phone-reset-9' });
    await submit(P.page, 'Change my password');
    expect(await P.page.locator('h1').textContent()).toBe('Password changed');
    await logIn(P.page, u.email, 'phone-reset-9');
    await P.ctx.close();
    expect(problems).toEqual([]);
    expect(visited.size).toBeGreaterThan(20);
  });
});
