/**
 * Which browser driver (browser-driver.ts) this deployment's configuration names: a local Chromium's
 * DevTools endpoint when `PIPELINE_BROWSER_CDP_URL` is set (development; it wins), else the Workers
 * `BROWSER` binding when one is bound and PIPELINE_BROWSER_BINDING is not `off` (production; `npm start`
 * turns it off: `wrangler dev`'s local binding downloads a browser, which these machines cannot), else
 * none (the agent collectors are refused with a 422 at creation).
 */
import type { Env } from '../../platform/env.ts';
import type { BrowserDriver } from './browser-driver.ts';
import { bindingDriver, cdpDriver } from './puppeteer-browser.ts';
import { pipelineConfig } from '../config.ts';
import { setting } from './upstream.ts';

export function browserDriver(env: Env): BrowserDriver | undefined {
  const cdp = setting(env, 'PIPELINE_BROWSER_CDP_URL');
  if (cdp) return cdpDriver(cdp);
  if (env.BROWSER && pipelineConfig(env).PIPELINE_BROWSER_BINDING) return bindingDriver(env.BROWSER);
  return undefined;
}
