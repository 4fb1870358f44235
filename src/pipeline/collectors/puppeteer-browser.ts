/**
 * Both browser drivers (browser-driver.ts) over `@cloudflare/puppeteer`; they differ only in how a
 * browser is reached:
 * - binding: `puppeteer.launch(env.BROWSER)` acquires a Browser Rendering session per agent session,
 *   closed with it;
 * - cdp: `puppeteer.connect` to a local Chromium's DevTools WebSocket (cdp-transport.ts), one
 *   incognito browser context per session, closed with it, then disconnected (Chromium keeps running).
 * An action waits for the page to settle (load after a navigation, network idle for up to 5 s), then
 * reads it with page-snapshot.ts. Elements are named by the number the latest snapshot gave them.
 */
import puppeteer, { type Browser, type BrowserWorker, type Page } from '@cloudflare/puppeteer';
import type { BrowserDriver, BrowserSession } from './browser-driver.ts';
import { devtoolsWebSocketUrl, webSocketTransport } from './cdp-transport.ts';
import { type BrowserAction, type PageState, snapshot } from './page-snapshot.ts';

const REJECTED_RESOURCES = new Set(['image', 'font', 'media']);

/** A page to use and how to let it go. */
type Opened = { page: Page; release(): Promise<void> };

function driver(kind: BrowserDriver['kind'], open: () => Promise<Opened>): BrowserDriver {
  return {
    kind,
    async session(userAgent) {
      const opened = await open();
      await opened.page.setUserAgent(userAgent);
      return sessionOn(opened);
    },
    async render(url, userAgent) {
      const { page, release } = await open();
      try {
        await page.setUserAgent(userAgent);
        await page.setRequestInterception(true);
        page.on('request', (r) => void (REJECTED_RESOURCES.has(r.resourceType()) ? r.abort() : r.continue()));
        await page.goto(url, { waitUntil: 'networkidle0', timeout: 30_000 });
        return await page.content();
      } finally {
        await release();
      }
    },
  };
}

export function bindingDriver(binding: BrowserWorker): BrowserDriver {
  return driver('binding', async () => {
    const browser = await puppeteer.launch(binding);
    return { page: await browser.newPage(), release: () => browser.close().catch(() => undefined) };
  });
}

export function cdpDriver(endpoint: string): BrowserDriver {
  return driver('cdp', async () => {
    const transport = await webSocketTransport(await devtoolsWebSocketUrl(endpoint));
    const browser: Browser = await puppeteer.connect({ transport });
    const context = await browser.createBrowserContext();
    return {
      page: await context.newPage(),
      release: async () => {
        await context.close().catch(() => undefined);
        await browser.disconnect().catch(() => undefined);
      },
    };
  });
}

/** The page as the agent sees it, read again after a navigation that destroyed the first reading. */
async function read(page: Page): Promise<PageState> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await page.evaluate(snapshot);
    } catch (err) {
      if (attempt >= 2) throw err;
      await page.waitForNavigation({ waitUntil: 'load', timeout: 5_000 }).catch(() => undefined);
    }
  }
}

async function perform(page: Page, a: BrowserAction): Promise<void> {
  const target = 'element' in a ? `[data-agent-index="${Number(a.element)}"]` : '';
  switch (a.action) {
    case 'open':
      if (!/^https?:\/\//.test(a.url)) throw new Error('url must be an http(s) URL');
      await page.goto(a.url, { waitUntil: 'load', timeout: 30_000 });
      return;
    case 'click': {
      const navigation = page.waitForNavigation({ waitUntil: 'load', timeout: 5_000 }).catch(() => undefined);
      await page.click(target);
      // A click that navigates is read on the new page; one that does not settles below.
      await Promise.race([navigation, new Promise((r) => setTimeout(r, 300))]);
      return;
    }
    case 'fill':
      await page.$eval(target, (el) => {
        (el as HTMLInputElement).value = '';
      });
      await page.type(target, a.value);
      return;
    case 'scroll':
      await page.mouse.wheel({ deltaY: 2_000 });
      return;
    case 'reset':
      await page.goto('about:blank');
      return;
    case 'read':
      return;
  }
}

function sessionOn({ page, release }: Opened): BrowserSession {
  return {
    async act(a) {
      await perform(page, a);
      await page.waitForNetworkIdle({ idleTime: 250, timeout: 5_000 }).catch(() => undefined);
      return read(page);
    },
    close: release,
  };
}
