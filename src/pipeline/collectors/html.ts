/**
 * Plain HTML page collector (`blog_scraper`): the page title, and one item per `<article>` (its
 * first link and heading, a `<time datetime>` if present); a page without `<article>` elements
 * yields its links that sit inside headings (`<h1>`-`<h3>`), which is how blog index pages list
 * posts. Links are resolved against the page URL, same-URL duplicates dropped, non-http(s) dropped.
 */
import { attributes, first, isoDate, textOf } from './html-text.ts';
import type { CollectedItem, CollectResult } from './types.ts';

function resolve(href: string | undefined, base: string): string | null {
  if (!href) return null;
  try {
    const u = new URL(href.trim(), base);
    u.hash = '';
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString() : null;
  } catch {
    return null;
  }
}

function firstLink(markup: string): { href?: string; text: string } | undefined {
  const m = /<a(\s[^>]*)>([\s\S]*?)<\/a\s*>/i.exec(markup);
  return m ? { href: attributes(m[1] ?? '').href, text: textOf(m[2] ?? '') } : undefined;
}

function timeOf(markup: string): string | null {
  const m = /<time(\s[^>]*)?>([\s\S]*?)<\/time\s*>/i.exec(markup);
  if (!m) return null;
  return isoDate(attributes(m[1] ?? '').datetime) ?? isoDate(textOf(m[2] ?? ''));
}

export function parseHtml(html: string, baseUrl: string): CollectResult {
  const title = textOf(first(html, 'title') ?? '');
  const body = html.replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ');
  const seen = new Set<string>();
  const items: CollectedItem[] = [];
  const push = (url: string | null, t: string, summary: string, date: string | null) => {
    if (!url || seen.has(url)) return;
    seen.add(url);
    items.push({ title: t || url, url, summary: summary.slice(0, 1000), published_at: date });
  };
  const articles = [...body.matchAll(/<article(?:\s[^>]*)?>([\s\S]*?)<\/article\s*>/gi)].map((m) => m[1] ?? '');
  if (articles.length > 0) {
    for (const a of articles) {
      const heading = /<h[1-6](?:\s[^>]*)?>([\s\S]*?)<\/h[1-6]\s*>/i.exec(a);
      const link = firstLink(heading?.[1] ?? a) ?? firstLink(a);
      const p = /<p(?:\s[^>]*)?>([\s\S]*?)<\/p\s*>/i.exec(a);
      push(resolve(link?.href, baseUrl), textOf(heading?.[1] ?? '') || link?.text || '', textOf(p?.[1] ?? ''), timeOf(a));
    }
  } else {
    for (const h of body.matchAll(/<h[1-3](?:\s[^>]*)?>([\s\S]*?)<\/h[1-3]\s*>/gi)) {
      const link = firstLink(h[1] ?? '');
      if (link) push(resolve(link.href, baseUrl), link.text, '', null);
    }
  }
  return { format: 'html', title, items };
}
