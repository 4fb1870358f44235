/**
 * Runs a source's collector once, by collect method:
 * - `rss` (RSS 2.0, Atom, JSON Feed) and `blog_scraper` (an HTML page): fetch the source URL through
 *   the outbound-URL guard (timeout 15 s, 5 MB, at most 5 redirects, each hop checked); items cut to
 *   `max_items` (default 50, at most 200), kept only if a keyword occurs in title or summary.
 * - API collectors (`openalex`, `europe_pmc`, `pubmed`, `github_trending`, `huggingface`): each reads
 *   its API under a base-URL setting (see upstream.ts); keywords and the window go into the API query
 *   where the API has one (academic), else filter the answer.
 * - `twitter_snaplytics`: only with PIPELINE_SNAPLYTICS_URL and PIPELINE_SNAPLYTICS_KEY set.
 * - `deepbrowse`: the page rendered by a real browser (browser.ts), only with its settings; the agent
 *   methods (`browser_use`, `codex_playwright`): a model drives a browser session from `config.url`
 *   (browser-agent.ts), with the provider the caller resolved (`opts.agentChat`, agent-provider.ts).
 */
import type { Env } from '../../platform/env.ts';
import { guardedFetch } from '../../platform/url-guard.ts';
import { runBrowserAgent } from './browser-agent.ts';
import { browserDriver } from './browser-config.ts';
import { collectDeepbrowse, renderServiceConfigured } from './browser.ts';
import { collectEuropePmc } from './europe-pmc.ts';
import { parseFeed } from './feed.ts';
import { collectGithubTrending } from './github-trending.ts';
import { parseHtml } from './html.ts';
import { collectHuggingface } from './huggingface.ts';
import { collectOpenAlex } from './openalex.ts';
import { collectPubmed } from './pubmed.ts';
import { collectSnaplytics, snaplyticsConfigured } from './snaplytics.ts';
import type { CollectOptions, CollectResult } from './types.ts';
import { byKeywords } from './upstream.ts';

/** Every collect method of the original (the API accepts these names; `refusal` says which run here). */
export const COLLECT_METHODS = [
  'rss',
  'blog_scraper',
  'deepbrowse',
  'github_trending',
  'huggingface',
  'openalex',
  'europe_pmc',
  'pubmed',
  'twitter_snaplytics',
  'browser_use',
  'codex_playwright',
] as const;
export type CollectMethod = (typeof COLLECT_METHODS)[number];
export const ACADEMIC_METHODS = ['openalex', 'europe_pmc', 'pubmed'];
export const BROWSER_METHODS = ['deepbrowse', 'browser_use', 'codex_playwright'];
export const AGENT_METHODS = ['browser_use', 'codex_playwright'];

export interface SourceLike {
  collect_method: string;
  config: Record<string, unknown>;
}

/** Why a method cannot run in this deployment, or null when it can. */
export function refusal(env: Env, method: string): string | null {
  if (method === 'deepbrowse' && !renderServiceConfigured(env) && !browserDriver(env)) {
    return (
      'collect_method deepbrowse needs a browser: the BROWSER binding (Cloudflare Browser Rendering), or ' +
      'PIPELINE_BROWSER_RENDERING_URL and PIPELINE_BROWSER_RENDERING_TOKEN, or PIPELINE_BROWSER_CDP_URL locally'
    );
  }
  if ((method === 'browser_use' || method === 'codex_playwright') && !browserDriver(env)) {
    return (
      `collect_method ${method} drives a browser with a model: it needs the BROWSER binding (Cloudflare ` +
      'Browser Rendering), or PIPELINE_BROWSER_CDP_URL locally (npm start sets it when Chromium is installed)'
    );
  }
  if (method === 'twitter_snaplytics' && !snaplyticsConfigured(env)) {
    return 'collect_method twitter_snaplytics needs PIPELINE_SNAPLYTICS_URL and PIPELINE_SNAPLYTICS_KEY to be configured';
  }
  return null;
}

/** The URL a source reads (the original's `target_url`); null for API collectors. */
export function targetUrl(source: SourceLike): string | null {
  const c = source.config ?? {};
  const s = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
  if (source.collect_method === 'rss') return s(c.feed_url) ?? s(c.url) ?? s(c.rss_url) ?? null;
  if (!['blog_scraper', 'deepbrowse', ...AGENT_METHODS].includes(source.collect_method)) return null;
  const profile = (c.profile ?? {}) as Record<string, unknown>;
  const starts = Array.isArray(profile.start_urls) ? profile.start_urls : [];
  return s(starts[0]) ?? s(c.url) ?? null;
}

async function collectPage(env: Env, source: SourceLike, opts: CollectOptions): Promise<CollectResult> {
  const url = targetUrl(source);
  if (!url) throw new Error('source has no URL to collect (config.feed_url or config.url)');
  if (source.collect_method === 'deepbrowse') return limited(await collectDeepbrowse(env, url), source, opts);
  const res = await guardedFetch(
    env,
    url,
    {
      headers: {
        accept:
          'application/rss+xml, application/atom+xml, application/feed+json, application/json, text/html;q=0.9, */*;q=0.5',
        'user-agent': 'insight-pipeline/1.0',
      },
    },
    { timeoutMs: 15_000, maxBytes: 5 * 1024 * 1024, maxRedirects: 5 },
  );
  if (res.status < 200 || res.status >= 300) throw new Error(`source returned HTTP ${res.status}`);
  const text = res.text();
  const result = source.collect_method === 'blog_scraper' ? parseHtml(text, res.url) : parseFeed(text, res.url);
  return limited(result, source, opts);
}

/** The browser agent loop (browser-agent.ts) on the source's start URL, driven by `opts.agentChat`. */
async function collectWithAgent(env: Env, source: SourceLike, opts: CollectOptions): Promise<CollectResult> {
  const url = targetUrl(source);
  if (!url) throw new Error('source has no start URL (config.url)');
  if (!opts.agentChat)
    throw new Error(`collect_method ${source.collect_method} needs an enabled provider (config.provider)`);
  const c = source.config ?? {};
  const n = (v: unknown, d: number, max: number) => (typeof v === 'number' && v > 0 ? Math.min(v, max) : d);
  const task =
    typeof c.task === 'string' && c.task.trim()
      ? c.task.trim().slice(0, 1000)
      : 'Collect the news items the site lists.';
  const budget = {
    steps: n(c.max_steps, 15, 40),
    seconds: n(c.max_seconds, 120, 600),
    tokens: n(c.max_tokens, 40_000, 200_000),
  };
  const configured = Number(c.max_items);
  const max = Math.min(opts.maxItems ?? (Number.isInteger(configured) && configured > 0 ? configured : 50), 200);
  const browser = browserDriver(env);
  if (!browser) throw new Error(refusal(env, source.collect_method) ?? 'no browser');
  const start = { url, task, format: source.collect_method };
  const result = await runBrowserAgent(env, browser, opts.agentChat, start, budget, max);
  return { ...result, items: byKeywords(result.items, opts.keywords) };
}

function limited(result: CollectResult, source: SourceLike, opts: CollectOptions): CollectResult {
  const configured = Number(source.config?.max_items);
  const max = Math.min(opts.maxItems ?? (Number.isInteger(configured) && configured > 0 ? configured : 50), 200);
  return { ...result, items: byKeywords(result.items, opts.keywords).slice(0, max) };
}

export async function collect(env: Env, source: SourceLike, opts: CollectOptions = {}): Promise<CollectResult> {
  const why = refusal(env, source.collect_method);
  if (why) throw new Error(why);
  const config = source.config ?? {};
  switch (source.collect_method) {
    case 'openalex':
      return collectOpenAlex(env, config, opts);
    case 'europe_pmc':
      return collectEuropePmc(env, config, opts);
    case 'pubmed':
      return collectPubmed(env, config, opts);
    case 'github_trending':
      return collectGithubTrending(env, config, opts);
    case 'huggingface':
      return collectHuggingface(env, config, opts);
    case 'twitter_snaplytics':
      return collectSnaplytics(env, config, opts);
    case 'browser_use':
    case 'codex_playwright':
      return collectWithAgent(env, source, opts);
    default:
      return collectPage(env, source, opts);
  }
}

/** A monitor's `source_overrides[source_id]` as collect options (the original's keys). */
export function overrideOptions(override: unknown): CollectOptions {
  const o = (override && typeof override === 'object' ? override : {}) as Record<string, unknown>;
  const n = [o.max_results, o.max_items, o.limit].find(
    (v) => typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 200,
  ) as number | undefined;
  const keywords = Array.isArray(o.keywords)
    ? o.keywords.filter((k): k is string => typeof k === 'string' && !!k.trim())
    : undefined;
  return { ...(n ? { maxItems: n } : {}), ...(keywords?.length ? { keywords } : {}) };
}
