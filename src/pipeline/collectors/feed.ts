/**
 * Feed parsing: RSS 2.0 (`<item>`: title, link or guid isPermaLink, description/content:encoded,
 * pubDate/dc:date), Atom 1.0 (`<entry>`: title, link rel=alternate or first href, summary/content,
 * published/updated) and JSON Feed 1.x (`items[]`: title, url or external_url, summary/content_text/
 * content_html, date_published). The format is detected from the body, not the Content-Type (feeds
 * are served with every type under the sun). Items without an absolute http(s) URL are dropped;
 * relative links resolve against the feed URL. Summaries are plain text cut at 1,000 characters.
 */
import { attributes, blocks, first, isoDate, startTags, textOf } from './xml-text.ts';
import type { CollectedItem, CollectResult } from './types.ts';

const SUMMARY_MAX = 1000;

function absolute(href: string | undefined, base: string): string | null {
  if (!href) return null;
  try {
    const u = new URL(href.trim(), base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString() : null;
  } catch {
    return null;
  }
}

const cut = (s: string) => (s.length > SUMMARY_MAX ? `${s.slice(0, SUMMARY_MAX - 1)}…` : s);

function item(title: string, url: string | null, summary: string, date: string | null): CollectedItem | null {
  if (!url) return null;
  return { title: title || url, url, summary: cut(summary), published_at: date };
}

function parseRss(xml: string, base: string): CollectResult {
  const channel = first(xml, 'channel') ?? xml;
  const head = channel.split(/<item[\s>]/i)[0] ?? '';
  const items = blocks(xml, 'item').map((b) => {
    const guid = /<guid(\s[^>]*)?>([\s\S]*?)<\/guid>/i.exec(b);
    const guidUrl = guid && attributes(guid[1] ?? '').ispermalink !== 'false' ? textOf(guid[2] ?? '') : undefined;
    const link = textOf(first(b, 'link') ?? '') || guidUrl;
    const summary = textOf(first(b, 'description') ?? first(b, 'encoded') ?? '');
    return item(textOf(first(b, 'title') ?? ''), absolute(link, base), summary, isoDate(textOf(first(b, 'pubDate') ?? first(b, 'date') ?? '')));
  });
  return { format: 'rss', title: textOf(first(head, 'title') ?? ''), items: items.filter((i): i is CollectedItem => i !== null) };
}

function parseAtom(xml: string, base: string): CollectResult {
  const head = xml.split(/<entry[\s>]/i)[0] ?? '';
  const items = blocks(xml, 'entry').map((b) => {
    const links = startTags(b, 'link');
    const alt = links.find((l) => !l.rel || l.rel === 'alternate') ?? links[0];
    const summary = textOf(first(b, 'summary') ?? first(b, 'content') ?? '');
    const date = isoDate(textOf(first(b, 'published') ?? first(b, 'updated') ?? ''));
    return item(textOf(first(b, 'title') ?? ''), absolute(alt?.href, base), summary, date);
  });
  return { format: 'atom', title: textOf(first(head, 'title') ?? ''), items: items.filter((i): i is CollectedItem => i !== null) };
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function parseJsonFeed(doc: Record<string, unknown>, base: string): CollectResult {
  const raw = Array.isArray(doc.items) ? doc.items : [];
  const items = raw.map((r) => {
    const o = (r && typeof r === 'object' ? r : {}) as Record<string, unknown>;
    const summary = str(o.summary) ?? str(o.content_text) ?? textOf(str(o.content_html) ?? '');
    return item(textOf(str(o.title) ?? ''), absolute(str(o.url) ?? str(o.external_url), base), textOf(summary ?? ''), isoDate(str(o.date_published) ?? str(o.date_modified)));
  });
  return { format: 'json_feed', title: textOf(str(doc.title) ?? ''), items: items.filter((i): i is CollectedItem => i !== null) };
}

/** Parses a feed body; throws Error('...') with a readable reason when it is not a feed. */
export function parseFeed(body: string, baseUrl: string): CollectResult {
  const text = body.replace(/^\uFEFF/, '').trim();
  if (text.startsWith('{')) {
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      throw new Error('response is not valid JSON');
    }
    const d = doc as Record<string, unknown>;
    if (typeof d.version === 'string' && d.version.includes('jsonfeed.org')) return parseJsonFeed(d, baseUrl);
    throw new Error('JSON document is not a JSON Feed');
  }
  if (/<rss[\s>]/i.test(text) || /<rdf:RDF[\s>]/i.test(text)) return parseRss(text, baseUrl);
  if (/<feed[\s>]/i.test(text)) return parseAtom(text, baseUrl);
  throw new Error('response is not an RSS, Atom or JSON feed');
}
