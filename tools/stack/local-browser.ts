/**
 * The local browsers `npm start` runs for the pipeline's browser collectors, over Debian's headless
 * Chromium (CHROMIUM, default /usr/bin/chromium), when it is installed:
 * - tools/browser-render.ts, Browser Rendering's REST `/content` for `deepbrowse`, on BROWSER_RENDER_PORT
 *   (default 8031), unless PIPELINE_BROWSER_RENDERING_URL is given;
 * - tools/browser-cdp.ts, a Chromium whose DevTools endpoint the agents (`browser_use`,
 *   `codex_playwright`) drive in place of the Workers `BROWSER` binding, on BROWSER_CDP_PORT (default
 *   8032), unless PIPELINE_BROWSER_CDP_URL is given.
 * Without Chromium (or on a taken port) the collectors stay refused with a 422 that names the settings.
 */
import { existsSync } from 'node:fs';

export interface LocalBrowser {
  vars: Record<string, string>;
  line: string;
  close(): Promise<void>;
}

export async function startLocalBrowser(env: NodeJS.ProcessEnv): Promise<LocalBrowser | string> {
  const chromium = env.CHROMIUM ?? '/usr/bin/chromium';
  if (!existsSync(chromium)) return `browser: ${chromium} not found, the browser collectors are refused`;
  const vars: Record<string, string> = {};
  const lines: string[] = [];
  const closers: (() => Promise<void>)[] = [];
  const close = async () => void (await Promise.all(closers.map((c) => c())));
  const renderPort = Number(env.BROWSER_RENDER_PORT ?? 8031);
  const cdpPort = Number(env.BROWSER_CDP_PORT ?? 8032);
  try {
    if (!env.PIPELINE_BROWSER_RENDERING_URL) {
      const { startBrowserRender } = await import('../browser-render.ts');
      const r = await startBrowserRender(renderPort);
      closers.push(r.close);
      Object.assign(vars, { PIPELINE_BROWSER_RENDERING_URL: r.url, PIPELINE_BROWSER_RENDERING_TOKEN: r.token });
      lines.push(`${'browser'.padEnd(12)} ${r.url}   (headless Chromium, /content: deepbrowse)`);
    }
    if (!env.PIPELINE_BROWSER_CDP_URL) {
      const { startChromiumCdp } = await import('../browser-cdp.ts');
      const cdp = await startChromiumCdp(cdpPort);
      closers.push(cdp.close);
      vars.PIPELINE_BROWSER_CDP_URL = cdp.httpUrl;
      lines.push(`${'browser-cdp'.padEnd(12)} ${cdp.httpUrl}   (Chromium DevTools: browser_use, codex_playwright)`);
    }
  } catch (err) {
    await close();
    const reason = (err as Error).message.split('\n')[0];
    return `browser: not started on port ${renderPort} or ${cdpPort} (${reason}); the browser collectors are refused`;
  }
  if (!lines.length) return 'browser: PIPELINE_BROWSER_RENDERING_URL and PIPELINE_BROWSER_CDP_URL given, none started';
  return { vars, line: lines.join('\n  '), close };
}
