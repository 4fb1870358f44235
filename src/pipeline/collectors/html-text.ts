/**
 * Plain text out of the short HTML that feed and API fields carry (feed.ts, pubmed.ts, europe-pmc.ts):
 * entity decoding (named basics, decimal and hex), CDATA unwrapping, tag stripping; and ISO dates.
 * Everything returned is plain text; rendering escapes it again (see render/markdown.ts), so nothing
 * from a feed reaches a page raw. XML documents are read by src/platform/xml.ts and whole HTML pages by
 * html-dom.ts (htmlparser2; issue 23). Not moved onto htmlparser2: fields may hold HTML escaped twice,
 * which this strips in two rounds, and the text of a field needs no tree.
 */
const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  rsquo: '’',
  lsquo: '‘',
  rdquo: '”',
  ldquo: '“',
};

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
  return s.replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, (_m, inner: string) =>
    inner.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'),
  );
}

/** Text content of markup: CDATA kept as text, tags removed, entities decoded, whitespace collapsed. */
export function textOf(markup: string): string {
  let s = unwrapCdata(markup);
  s = s
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]*>/g, ' ');
  s = decodeEntities(s);
  // CDATA content was entity-escaped above and may itself hold HTML: strip once more after decoding.
  s = s.replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ').replace(/<[^>]*>/g, ' ');
  return decodeEntities(s).replace(/\s+/g, ' ').trim();
}

/** A date string as ISO 8601, or null when it does not parse. */
export function isoDate(s: string | undefined | null): string | null {
  if (!s) return null;
  const t = Date.parse(s.trim());
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}
