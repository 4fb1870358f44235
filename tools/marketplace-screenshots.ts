/**
 * `npm run screenshots:marketplace`: the marketplace's main pages in headless Chromium at a desktop and a
 * phone width, written to docs/screenshots/marketplace-<page>-<width>.png (shown in the README). Runs
 * against a running `npm start` (the marketplace at MARKETPLACE_BASE, default http://127.0.0.1:8788) with
 * its demo data: Bob's pages after logging in through the login form, and the admin's dashboard.
 * CHROMIUM names the browser binary (default /usr/bin/chromium).
 */
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';

const BASE = process.env.MARKETPLACE_BASE ?? 'http://127.0.0.1:8788';
const OUT = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));
const WIDTHS = { desktop: { width: 1280, height: 800 }, phone: { width: 375, height: 740 } } as const;

const PAGES: { name: string; path: string; as?: [string, string] }[] = [
  { name: 'books', path: '/' },
  { name: 'search', path: '/?q=calculus' },
  { name: 'book', path: '/books/1' },
  { name: 'signup', path: '/signup' },
  { name: 'login', path: '/login' },
  { name: 'sell', path: '/sell', as: ['bob@demo.edu', 'bob-demo-1'] },
  { name: 'requests', path: '/requests', as: ['bob@demo.edu', 'bob-demo-1'] },
  { name: 'cart', path: '/cart', as: ['bob@demo.edu', 'bob-demo-1'] },
  { name: 'staff', path: '/staff', as: ['admin@demo.edu', 'admin-demo-1'] },
  { name: 'staff-users', path: '/staff/users', as: ['owner@demo.edu', 'owner-demo-1'] },
];

async function logIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${BASE}/login`);
  await page.getByLabel('E-mail address', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await Promise.all([
    page.waitForURL((u) => u.pathname !== '/login'),
    page.getByRole('button', { name: 'Log in' }).click(),
  ]);
}

async function shoot(browser: Browser, kind: keyof typeof WIDTHS): Promise<string[]> {
  const written: string[] = [];
  const sessions = new Map<string, Page>();
  for (const p of PAGES) {
    const who = p.as?.[0] ?? '';
    let page = sessions.get(who);
    if (!page) {
      page = await (await browser.newContext({ viewport: WIDTHS[kind] })).newPage();
      if (p.as) await logIn(page, p.as[0], p.as[1]);
      sessions.set(who, page);
    }
    const res = await page.goto(`${BASE}${p.path}`);
    if (!res || res.status() >= 400) throw new Error(`${p.path} answered ${res?.status()}`);
    const file = `${OUT}marketplace-${p.name}-${kind}.png`;
    await page.screenshot({ path: file, fullPage: kind !== 'phone' });
    written.push(file);
  }
  return written;
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
try {
  await mkdir(OUT, { recursive: true });
  for (const kind of Object.keys(WIDTHS) as (keyof typeof WIDTHS)[])
    for (const f of await shoot(browser, kind)) console.log(f.slice(OUT.length - 'docs/screenshots/'.length));
} finally {
  await browser.close();
}
