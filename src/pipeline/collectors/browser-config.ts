/**
 * Which browser driver (browser-driver.ts) this deployment's configuration names: a local Chromium's
 * DevTools endpoint when `PIPELINE_BROWSER_CDP_URL` is set (development; it wins), else the Workers
 * `BROWSER` binding when one is bound (production), else none (the agent collectors are refused).
 */
import type { Env } from '../../platform/env.ts';
import type { BrowserDriver } from './browser-driver.ts';
import { bindingDriver, cdpDriver } from './puppeteer-browser.ts';
import { setting } from './upstream.ts';

export function browserDriver(env: Env): BrowserDriver | undefined {
  const cdp = setting(env, 'PIPELINE_BROWSER_CDP_URL');
  if (cdp) return cdpDriver(cdp);
  if (env.BROWSER) return bindingDriver(env.BROWSER);
  return undefined;
}
