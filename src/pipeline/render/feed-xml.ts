/**
 * RSS 2.0 of recent reports: channel title/link/description/lastBuildDate, an atom:link rel=self,
 * one item per report (title, link to its page, guid isPermaLink=false = report id, pubDate in
 * RFC 822, description = the TL;DR or the Markdown's first 500 characters, content:encoded = the whole
 * report as its page renders it, paper cards included, when given). Every text node is
 * XML-escaped; characters XML 1.0 forbids (controls, U+FFFE/U+FFFF, unpaired surrogates) are removed.
 */
export interface FeedItem {
  id: string;
  title: string;
  link: string;
  description: string;
  date: Date;
  /** The report as HTML (the page's rendering), carried escaped in content:encoded. */
  html?: string;
}

export function xmlEscape(s: string): string {
  return s
    .replace(
      /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
      '',
    )
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

export function renderRss(
  channel: { title: string; link: string; description: string; self: string },
  items: FeedItem[],
): string {
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/">',
    '<channel>',
    `<title>${xmlEscape(channel.title)}</title>`,
    `<link>${xmlEscape(channel.link)}</link>`,
    `<description>${xmlEscape(channel.description)}</description>`,
    `<atom:link href="${xmlEscape(channel.self)}" rel="self" type="application/rss+xml"/>`,
  ];
  // An empty feed has no build date to give (lastBuildDate is optional; the epoch would claim 1970).
  if (items[0]) out.push(`<lastBuildDate>${items[0].date.toUTCString()}</lastBuildDate>`);
  for (const i of items) {
    out.push(
      '<item>',
      `<title>${xmlEscape(i.title)}</title>`,
      `<link>${xmlEscape(i.link)}</link>`,
      `<guid isPermaLink="false">${xmlEscape(i.id)}</guid>`,
      `<pubDate>${i.date.toUTCString()}</pubDate>`,
      `<description>${xmlEscape(i.description)}</description>`,
      ...(i.html ? [`<content:encoded>${xmlEscape(i.html)}</content:encoded>`] : []),
      '</item>',
    );
  }
  out.push('</channel>', '</rss>');
  return out.join('\n');
}
