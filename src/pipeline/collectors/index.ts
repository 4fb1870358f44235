/**
 * Runs a source's collector once: fetch through the outbound-URL guard (timeout 15 s, 5 MB, at most
 * 5 redirects, each hop checked), then parse by collect method: `rss` accepts RSS 2.0, Atom and JSON
 * Feed; `blog_scraper` parses an HTML page. Items are cut to `max_items` (default 50, at most 200)
 * and, when keywords are given, kept only if a keyword occurs in title or summary (case-insensitive).
 */
import type { Env } from '../../platform/env.ts';
import { guardedFetch } from '../../platform/url-guard.ts';
import { parseFeed } from './feed.ts';
import { parseHtml } from './html.ts';
import type { CollectResult } from './types.ts';

export const COLLECT_METHODS = ['rss', 'blog_scraper'] as const;
export type CollectMethod = (typeof COLLECT_METHODS)[number];

export interface SourceLike {
  collect_method: string;
  config: Record<string, unknown>;
}

/** The URL a source reads (the original's `target_url`). */
export function targetUrl(source: SourceLike): string | null {
  const c = source.config ?? {};
  const s = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
  if (source.collect_method === 'rss') return s(c.feed_url) ?? s(c.url) ?? s(c.rss_url) ?? null;
  const profile = (c.profile ?? {}) as Record<string, unknown>;
  const starts = Array.isArray(profile.start_urls) ? profile.start_urls : [];
  return s(starts[0]) ?? s(c.url) ?? null;
}

export async function collect(env: Env, source: SourceLike, opts: { maxItems?: number; keywords?: string[] } = {}): Promise<CollectResult> {
  const url = targetUrl(source);
  if (!url) throw new Error('source has no URL to collect (config.feed_url or config.url)');
  const res = await guardedFetch(env, url, { headers: { accept: 'application/rss+xml, application/atom+xml, application/feed+json, application/json, text/html;q=0.9, */*;q=0.5', 'user-agent': 'insight-pipeline/1.0' } }, { timeoutMs: 15_000, maxBytes: 5 * 1024 * 1024, maxRedirects: 5 });
  if (res.status < 200 || res.status >= 300) throw new Error(`source returned HTTP ${res.status}`);
  const text = res.text();
  const result = source.collect_method === 'blog_scraper' ? parseHtml(text, res.url) : parseFeed(text, res.url);
  const configured = Number(source.config?.max_items);
  const max = Math.min(opts.maxItems ?? (Number.isInteger(configured) && configured > 0 ? configured : 50), 200);
  const keywords = (opts.keywords ?? []).map((k) => k.toLowerCase()).filter(Boolean);
  const items = keywords.length ? result.items.filter((i) => keywords.some((k) => `${i.title} ${i.summary}`.toLowerCase().includes(k))) : result.items;
  return { ...result, items: items.slice(0, max) };
}
