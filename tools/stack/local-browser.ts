/**
 * The local browser service `npm start` runs for the pipeline's browser collectors (`deepbrowse` and
 * the agents `browser_use`, `codex_playwright`): tools/browser-render.ts (Browser Rendering's
 * `/content` and the agents' `/sessions`) over Debian's headless Chromium, on BROWSER_RENDER_PORT
 * (default 8031). Started only when Chromium is installed (CHROMIUM, default /usr/bin/chromium) and
 * PIPELINE_BROWSER_RENDERING_URL is not already given; otherwise the collectors stay refused with
 * a 422 that names the settings.
 */
import { existsSync } from 'node:fs';

export interface LocalBrowser {
  vars: Record<string, string>;
  line: string;
  close(): Promise<void>;
}

export async function startLocalBrowser(env: NodeJS.ProcessEnv): Promise<LocalBrowser | string> {
  if (env.PIPELINE_BROWSER_RENDERING_URL) return 'browser: PIPELINE_BROWSER_RENDERING_URL given, none started';
  const chromium = env.CHROMIUM ?? '/usr/bin/chromium';
  if (!existsSync(chromium)) return `browser: ${chromium} not found, the browser collectors are refused`;
  const port = Number(env.BROWSER_RENDER_PORT ?? 8031);
  try {
    const { startBrowserRender } = await import('../browser-render.ts');
    const r = await startBrowserRender(port);
    return {
      vars: { PIPELINE_BROWSER_RENDERING_URL: r.url, PIPELINE_BROWSER_RENDERING_TOKEN: r.token },
      line: `${'browser'.padEnd(12)} ${r.url}   (headless Chromium: deepbrowse, browser_use, codex_playwright)`,
      close: r.close,
    };
  } catch (err) {
    return `browser: not started on port ${port} (${(err as Error).message.split('\n')[0]}); the browser collectors are refused`;
  }
}
