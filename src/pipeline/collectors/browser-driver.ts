/**
 * The browser of the pipeline's browser collectors, as a small interface with two implementations
 * (puppeteer-browser.ts holds both), chosen by configuration (browser-config.ts):
 * - `cdp` (development): a local Chromium's DevTools endpoint, `PIPELINE_BROWSER_CDP_URL` (`npm start`
 *   starts one when Chromium is installed, tools/browser-cdp.ts); it wins when set;
 * - `binding` (production): Cloudflare Browser Rendering through the Workers `BROWSER` binding
 *   (`[env.<function>.browser]` in wrangler.toml) and `@cloudflare/puppeteer`.
 * Neither configured: no browser, and the agent collectors are refused (index.ts `refusal`).
 * A session is one isolated page; `act` answers what the page shows after the action (page-snapshot.ts).
 * The driver loads whatever it is told: callers check every URL with the outbound guard first.
 */
import type { BrowserAction, PageState } from './page-snapshot.ts';

export interface BrowserSession {
  act(action: BrowserAction): Promise<PageState>;
  close(): Promise<void>;
}

export interface BrowserDriver {
  readonly kind: 'binding' | 'cdp';
  /** A new isolated session (its own context and page). */
  session(userAgent: string): Promise<BrowserSession>;
  /** The page's HTML after its scripts ran (network idle; images, fonts and media not loaded). */
  render(url: string, userAgent: string): Promise<string>;
}
