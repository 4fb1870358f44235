/**
 * Feed parsing: RSS 2.0 (`<item>`: title, link or guid isPermaLink, description/content:encoded,
 * pubDate/dc:date), Atom 1.0 (`<entry>`: title, link rel=alternate or first href, summary/content,
 * published/updated) and JSON Feed 1.x (`items[]`: title, url or external_url, summary/content_text/
 * content_html, date_published). The format is detected from the body, not the Content-Type (feeds
 * are served with every type under the sun). Items without an absolute http(s) URL are dropped;
 * relative links resolve against the feed URL. Summaries are plain text cut at 1,000 characters.
 */
import { child, children, descendants, parseXml, textContent, type XmlNode } from '../../platform/xml.ts';
import { isoDate, textOf } from './html-text.ts';
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

/** Plain text of the first child with one of the local names (in that order of preference) that has any. */
function field(node: XmlNode, ...names: string[]): string {
  for (const n of names) {
    const t = textOf(textContent(child(node, n)));
    if (t) return t;
  }
  return '';
}

function parseRss(doc: XmlNode, base: string): CollectResult {
  const channel = descendants(doc, 'channel')[0];
  const items = descendants(doc, 'item').map((b) => {
    const guid = child(b, 'guid');
    const guidUrl = guid && guid.attrs.isPermaLink !== 'false' ? textOf(textContent(guid)) : undefined;
    // `link` unprefixed first: an `atom:link` beside it is a self-closing reference, not the item's page
    const link = textOf(textContent(b.children.find((c) => c.name === 'link'))) || field(b, 'link') || guidUrl;
    const date = isoDate(field(b, 'pubDate', 'date'));
    return item(field(b, 'title'), absolute(link, base), field(b, 'description', 'encoded'), date);
  });
  const title = channel ? field(channel, 'title') : '';
  return { format: 'rss', title, items: items.filter((i): i is CollectedItem => i !== null) };
}

function parseAtom(feed: XmlNode, base: string): CollectResult {
  const items = children(feed, 'entry').map((b) => {
    const links = children(b, 'link').map((l) => l.attrs);
    const alt = links.find((l) => !l.rel || l.rel === 'alternate') ?? links[0];
    const date = isoDate(field(b, 'published', 'updated'));
    return item(field(b, 'title'), absolute(alt?.href, base), field(b, 'summary', 'content'), date);
  });
  return { format: 'atom', title: field(feed, 'title'), items: items.filter((i): i is CollectedItem => i !== null) };
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function parseJsonFeed(doc: Record<string, unknown>, base: string): CollectResult {
  const raw = Array.isArray(doc.items) ? doc.items : [];
  const items = raw.map((r) => {
    const o = (r && typeof r === 'object' ? r : {}) as Record<string, unknown>;
    const summary = str(o.summary) ?? str(o.content_text) ?? textOf(str(o.content_html) ?? '');
    return item(
      textOf(str(o.title) ?? ''),
      absolute(str(o.url) ?? str(o.external_url), base),
      textOf(summary ?? ''),
      isoDate(str(o.date_published) ?? str(o.date_modified)),
    );
  });
  return {
    format: 'json_feed',
    title: textOf(str(doc.title) ?? ''),
    items: items.filter((i): i is CollectedItem => i !== null),
  };
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
  const looksXml = /<rss[\s>]/i.test(text) || /<rdf:RDF[\s>]/i.test(text) || /<feed[\s>]/i.test(text);
  let doc: XmlNode;
  try {
    doc = parseXml(text);
  } catch (e) {
    if (looksXml) throw new Error(`feed is not well-formed XML: ${(e as Error).message}`);
    throw new Error('response is not an RSS, Atom or JSON feed');
  }
  const root = doc.children[0];
  const local = root?.name.replace(/^[\w.-]+:/, '');
  if (local === 'rss' || local === 'RDF') return parseRss(doc, baseUrl);
  if (local === 'feed' && root) return parseAtom(root, baseUrl);
  throw new Error('response is not an RSS, Atom or JSON feed');
}
