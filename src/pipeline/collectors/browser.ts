/**
 * `deepbrowse`: the page is loaded by a real browser and the rendered DOM is parsed like
 * `blog_scraper` (html.ts). The browser is Cloudflare Browser Rendering's REST `/content` quick action
 * (`POST {PIPELINE_BROWSER_RENDERING_URL}/content` `{url, gotoOptions, rejectResourceTypes}` with
 * `Authorization: Bearer PIPELINE_BROWSER_RENDERING_TOKEN`, answer `{success, result: "<html>",
 * errors}`); locally `tools/browser-render.ts` serves the same contract from a headless Chromium of
 * Debian's packages. The target URL goes through the outbound-URL guard before it is handed to the
 * browser (which would otherwise load private addresses for us); the render call itself is guarded
 * too. Without both settings the page is rendered by the browser driver (browser-driver.ts: the
 * `BROWSER` binding, or a local Chromium's DevTools endpoint); with neither the method is refused
 * (see index.ts `refusal`).
 */
import type { Env } from '../../platform/env.ts';
import { checkOutboundUrl, guardedFetch } from '../../platform/url-guard.ts';
import { browserDriver } from './browser-config.ts';
import { parseHtml } from './html.ts';
import type { CollectResult } from './types.ts';
import { obj, setting, str, USER_AGENT } from './upstream.ts';

/** The REST `/content` service is configured (URL and token). */
export function renderServiceConfigured(env: Env): boolean {
  return !!setting(env, 'PIPELINE_BROWSER_RENDERING_URL') && !!setting(env, 'PIPELINE_BROWSER_RENDERING_TOKEN');
}

/** The rendered HTML of `url` after its scripts ran (network idle, images/fonts/media not loaded). */
export async function renderedHtml(env: Env, url: string): Promise<string> {
  const target = checkOutboundUrl(url, env);
  if (!target.ok) throw new Error(`refused to browse ${url}: ${target.reason}`);
  if (!renderServiceConfigured(env)) {
    const driver = browserDriver(env);
    if (!driver) throw new Error('deepbrowse has no browser configured');
    return driver.render(target.url.toString(), USER_AGENT);
  }
  const base = setting(env, 'PIPELINE_BROWSER_RENDERING_URL')!.replace(/\/+$/, '');
  const body = JSON.stringify({
    url: target.url.toString(),
    gotoOptions: { waitUntil: 'networkidle0', timeout: 30_000 },
    rejectResourceTypes: ['image', 'font', 'media'],
    userAgent: USER_AGENT,
  });
  const res = await guardedFetch(
    env,
    `${base}/content`,
    {
      method: 'POST',
      body,
      headers: {
        authorization: `Bearer ${setting(env, 'PIPELINE_BROWSER_RENDERING_TOKEN')}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
    },
    { timeoutMs: 60_000, maxBytes: 10 * 1024 * 1024, maxRedirects: 0 },
  );
  let doc: Record<string, unknown> = {};
  try {
    doc = obj(JSON.parse(res.text()));
  } catch {
    // reported below
  }
  if (res.status < 200 || res.status >= 300 || doc.success !== true || typeof doc.result !== 'string') {
    const why = str(obj(Array.isArray(doc.errors) ? doc.errors[0] : undefined).message);
    throw new Error(`browser rendering failed (HTTP ${res.status}${why ? `: ${why}` : ''})`);
  }
  return doc.result;
}

export async function collectDeepbrowse(env: Env, url: string): Promise<CollectResult> {
  const html = await renderedHtml(env, url);
  return { ...parseHtml(html, url), format: 'rendered_html' };
}
