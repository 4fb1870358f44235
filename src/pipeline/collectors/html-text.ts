/**
 * Text out of HTML, for pages (html.ts, github-trending.ts) and for the HTML that feed and API fields
 * carry (feed.ts, pubmed.ts, europe-pmc.ts): entity decoding (named basics, decimal and hex), attribute
 * reads, CDATA unwrapping, tag stripping, the first element of a name. Everything returned is plain
 * text; rendering escapes it again (see render/markdown.ts), so nothing from a page reaches a page raw.
 * XML documents (feeds, PubMed) are read by the one XML reader, src/platform/xml.ts (issue 23); this is
 * not a second one: it reads HTML, which is not XML.
 */
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', hellip: '…', mdash: '—', ndash: '–', rsquo: '’', lsquo: '‘', rdquo: '”', ldquo: '“' };

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : m;
    }
    return NAMED[e.toLowerCase()] ?? m;
  });
}

function unwrapCdata(s: string): string {
  return s.replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, (_m, inner: string) => inner.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'));
}

/** Text content of markup: CDATA kept as text, tags removed, entities decoded, whitespace collapsed. */
export function textOf(markup: string): string {
  let s = unwrapCdata(markup);
  s = s.replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ').replace(/<!--[\s\S]*?-->/g, ' ').replace(/<[^>]*>/g, ' ');
  s = decodeEntities(s);
  // CDATA content was entity-escaped above and may itself hold HTML: strip once more after decoding.
  s = s.replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ').replace(/<[^>]*>/g, ' ');
  return decodeEntities(s).replace(/\s+/g, ' ').trim();
}

const tagName = (name: string) => `(?:[\\w.-]+:)?${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;

/** Inner markup of the first element called `name`, or undefined. */
export function first(html: string, name: string): string | undefined {
  const re = new RegExp(`<${tagName(name)}(?:\\s[^>]*)?>([\\s\\S]*?)<\\/${tagName(name)}\\s*>`, 'i');
  return re.exec(html)?.[1];
}

export function attributes(s: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of s.matchAll(/([\w:.-]+)\s*=\s*("([^"]*)"|'([^']*)'|([^\s"'>]+))/g)) {
    out[m[1]!.toLowerCase()] = decodeEntities(m[3] ?? m[4] ?? m[5] ?? '');
  }
  return out;
}

/** A date string as ISO 8601, or null when it does not parse. */
export function isoDate(s: string | undefined | null): string | null {
  if (!s) return null;
  const t = Date.parse(s.trim());
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}
