/**
 * Plain text out of the short HTML that feed and API fields carry (feed.ts, pubmed.ts, europe-pmc.ts):
 * entity decoding (named basics, decimal and hex), CDATA unwrapping, tag stripping; and ISO dates.
 * Everything returned is plain text; rendering escapes it again (see render/markdown.ts), so nothing
 * from a feed reaches a page raw. XML documents are read by src/platform/xml.ts; HTML, whole pages and
 * these fields alike, by htmlparser2 (html-dom.ts; one HTML implementation, issue 23). A field may hold
 * HTML escaped twice, so text that still reads as markup after one pass is read once more.
 */
import { parseDocument } from 'htmlparser2';
import { parsePage, text } from './html-dom.ts';

/** Character references decoded as HTML does (every named one, decimal, hex); anything else left as written. */
export function decodeEntities(s: string): string {
  let out = '';
  for (const n of parseDocument(s.replace(/</g, '&lt;')).children) if (n.type === 'text') out += n.data;
  return out;
}

function unwrapCdata(s: string): string {
  return s.replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, (_m, inner: string) =>
    inner.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'),
  );
}

/** Text content of markup: CDATA kept as text, tags removed, entities decoded, whitespace collapsed. */
export function textOf(markup: string): string {
  const once = text(parsePage(unwrapCdata(markup)));
  // A field whose HTML was escaped once more (or wrapped in CDATA) decodes to markup: read that too.
  return /<[a-z!/?]/i.test(once) ? text(parsePage(once)) : once;
}

/** A date string as ISO 8601, or null when it does not parse. */
export function isoDate(s: string | undefined | null): string | null {
  if (!s) return null;
  const t = Date.parse(s.trim());
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}
