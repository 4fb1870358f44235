/**
 * Browser sessions for the pipeline's agent collectors (`browser_use`, `codex_playwright`), served by
 * tools/browser-render.ts beside `/content`: one Chromium context and page per session, driven one
 * action at a time, each answered with what the page now shows.
 *
 *   POST   /sessions                 {userAgent?}                      -> {success, result: {session_id}}
 *   POST   /sessions/<id>/actions    {action: open, url} | {action: click, element} |
 *                                    {action: fill, element, value} | {action: scroll} |
 *                                    {action: read} | {action: reset}   -> {success, result: PageState}
 *   DELETE /sessions/<id>                                              -> {success}
 *
 * PageState: `{url, title, text, elements: [{index, kind: link|button|input, text, href?}]}`, the text
 * cut at 6,000 characters and at most 80 visible elements, numbered in document order (a click or fill
 * names an element by that number, from the latest state). A session idle for 2 minutes is closed.
 * Local use only: it loads what it is told; the pipeline checks every URL before and after each action.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';

export interface PageState {
  url: string;
  title: string;
  text: string;
  elements: { index: number; kind: 'link' | 'button' | 'input'; text: string; href?: string }[];
}

type Session = { context: BrowserContext; page: Page; timer: NodeJS.Timeout };
type Action = { action?: string; url?: string; element?: number; value?: string };

const IDLE_MS = 120_000;

/** Numbers the visible interactive elements and reads the page (runs in the page). */
function snapshot(): PageState {
  const seen: PageState['elements'] = [];
  const nodes = document.querySelectorAll('a[href], button, input, textarea, select, [role="button"]');
  for (const el of Array.from(nodes)) {
    const box = (el as HTMLElement).getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    if (seen.length >= 80) break;
    const index = seen.length;
    el.setAttribute('data-agent-index', String(index));
    const tag = el.tagName.toLowerCase();
    const kind = tag === 'a' ? 'link' : tag === 'button' || el.getAttribute('role') === 'button' ? 'button' : 'input';
    const label =
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what a person sees
      (el as HTMLElement).innerText?.trim() ||
      el.getAttribute('aria-label') ||
      el.getAttribute('placeholder') ||
      el.getAttribute('name') ||
      (el as HTMLInputElement).value ||
      '';
    const href = tag === 'a' ? (el as HTMLAnchorElement).href : undefined;
    seen.push({ index, kind, text: label.replace(/\s+/g, ' ').slice(0, 120), ...(href ? { href } : {}) });
  }
  return {
    url: location.href,
    title: document.title,
    // biome-ignore lint/performance/useDomNodeTextContent: rendered text, without script and hidden content
    text: (document.body?.innerText ?? '').replace(/\n{3,}/g, '\n\n').slice(0, 6000),
    elements: seen,
  };
}

/** `opened` collects every page a session landed on, in order (for tests and logs). */
export function browserSessions(browser: Browser, opened: string[] = []) {
  const sessions = new Map<string, Session>();
  const touch = (id: string, s: Session) => {
    clearTimeout(s.timer);
    s.timer = setTimeout(() => void close(id), IDLE_MS);
  };
  async function close(id: string): Promise<boolean> {
    const s = sessions.get(id);
    if (!s) return false;
    sessions.delete(id);
    clearTimeout(s.timer);
    await s.context.close().catch(() => {});
    return true;
  }
  async function settle(page: Page): Promise<void> {
    await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => {});
  }
  async function act(s: Session, a: Action): Promise<PageState> {
    const { page } = s;
    const target = () => page.locator(`[data-agent-index="${Number(a.element)}"]`).first();
    if (a.action === 'open') {
      if (typeof a.url !== 'string' || !/^https?:\/\//.test(a.url)) throw new Error('url must be an http(s) URL');
      await page.goto(a.url, { waitUntil: 'load', timeout: 30_000 });
    } else if (a.action === 'click') {
      await target().click({ timeout: 5_000 });
    } else if (a.action === 'fill') {
      await target().fill(String(a.value ?? ''), { timeout: 5_000 });
    } else if (a.action === 'scroll') {
      await page.mouse.wheel(0, 2_000);
    } else if (a.action === 'reset') {
      await page.goto('about:blank');
    } else if (a.action !== 'read') throw new Error(`unknown action ${a.action}`);
    await settle(page);
    const state = await page.evaluate(snapshot);
    if (opened[opened.length - 1] !== state.url) opened.push(state.url);
    return state;
  }
  return {
    count: () => sessions.size,
    async create(userAgent?: string): Promise<string> {
      const context = await browser.newContext(userAgent ? { userAgent } : {});
      const page = await context.newPage();
      const id = crypto.randomUUID();
      const s: Session = { context, page, timer: setTimeout(() => {}, 0) };
      sessions.set(id, s);
      touch(id, s);
      return id;
    },
    async action(id: string, a: Action): Promise<PageState | undefined> {
      const s = sessions.get(id);
      if (!s) return undefined;
      touch(id, s);
      return act(s, a);
    },
    close,
    async closeAll(): Promise<void> {
      for (const id of [...sessions.keys()]) await close(id);
    },
  };
}
