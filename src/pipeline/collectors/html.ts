/**
 * Plain HTML page collector (`blog_scraper`): the page title (`<title>`, else OpenGraph `og:title`), and
 * one item per `<article>` (the first link of its heading, else its first link; the heading's text; its
 * first paragraph as summary; a `<time datetime>` or the time's text if present); a page without
 * `<article>` elements yields its links that sit inside headings (`<h1>`-`<h3>`), which is how blog index
 * pages list posts. Links resolve against the page's `<base href>` or URL, same-URL duplicates are
 * dropped, non-http(s) dropped.
 *
 * Parsed with `htmlparser2` 12 (issue 23, docs/libraries.md): the regex tag scanning this replaced got 0 of
 * the 3 pages of the shared corpus (tools/html-corpus.ts: comments, scripts and styles holding markup,
 * unclosed `<p>`, a quoted `>` in an attribute, `<base>`, og:title, `<textarea>`) right, htmlparser2 3/3.
 * It costs speed (a 392 KiB page in 208-283 ms against 97-225 ms) and size (pipeline bundle 438.20 ->
 * 495.54 KiB, gzip 138.77 -> 163.69; only `parseDocument` is imported, the tree is walked here, since
 * `DomUtils` would add 11 KB more). Workers' native HTMLRewriter was not adopted: it exists only inside
 * workerd, this collector also runs under Node (tests, `npm start`), and it streams a Response through
 * selector callbacks where this code needs the whole page (an article's first link, heading and
 * paragraph together). `node tools/compare-html.ts` measures it (HTML_BASELINE= adds the old scanner).
 */
import type { AnyNode } from 'domhandler';
import { all, find, named, parsePage, text } from './html-dom.ts';
import { isoDate } from './html-text.ts';
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

const link = (nodes: AnyNode[]) => find(nodes, (e) => e.name === 'a' && e.attribs.href !== undefined);

function timeOf(nodes: AnyNode[]): string | null {
  const t = find(nodes, named('time'));
  return t ? (isoDate(t.attribs.datetime) ?? isoDate(text(t.children))) : null;
}

export function parseHtml(html: string, pageUrl: string): CollectResult {
  const doc = parsePage(html);
  const og = find(doc, (e) => e.name === 'meta' && e.attribs.property === 'og:title');
  const title = text(find(doc, named('title'))?.children) || (og?.attribs.content ?? '').replace(/\s+/g, ' ').trim();
  const baseHref = find(doc, (e) => e.name === 'base' && e.attribs.href !== undefined)?.attribs.href;
  const base = resolve(baseHref, pageUrl) ?? pageUrl;
  const seen = new Set<string>();
  const items: CollectedItem[] = [];
  const push = (url: string | null, t: string, summary: string, date: string | null) => {
    if (!url || seen.has(url)) return;
    seen.add(url);
    items.push({ title: t || url, url, summary: summary.slice(0, 1000), published_at: date });
  };
  const articles = all(doc, named('article'));
  if (articles.length > 0) {
    for (const a of articles) {
      const heading = find(a.children, named('h1', 'h2', 'h3', 'h4', 'h5', 'h6'));
      const l = (heading && link(heading.children)) ?? link(a.children);
      const p = find(a.children, named('p'));
      const t = text(heading?.children) || text(l?.children);
      push(resolve(l?.attribs.href, base), t, text(p?.children), timeOf(a.children));
    }
  } else {
    for (const h of all(doc, named('h1', 'h2', 'h3'))) {
      const l = link(h.children);
      if (l) push(resolve(l.attribs.href, base), text(l.children), '', null);
    }
  }
  return { format: 'html', title, items };
}
