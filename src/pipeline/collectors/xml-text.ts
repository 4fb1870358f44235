/**
 * Just enough XML/HTML text handling for feeds and pages, without a DOM (Workers have none):
 * element blocks by tag name (namespace prefixes allowed), attribute reads, CDATA unwrapping,
 * entity decoding (named basics, decimal and hex) and tag stripping. Everything returned is plain
 * text; rendering escapes it again (see render/markdown.ts), so nothing from a feed reaches a page raw.
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

/** Inner markup of every `<name ...>...</name>` element (non-nested), in order. */
export function blocks(xml: string, name: string): string[] {
  const re = new RegExp(`<${tagName(name)}(?:\\s[^>]*)?>([\\s\\S]*?)<\\/${tagName(name)}\\s*>`, 'gi');
  return [...xml.matchAll(re)].map((m) => m[1] ?? '');
}

/** Inner markup of the first element called `name`, or undefined. */
export function first(xml: string, name: string): string | undefined {
  return blocks(xml, name)[0];
}

/** Start tags (`<name attr...>` or self-closing) with their attributes. */
export function startTags(xml: string, name: string): Record<string, string>[] {
  const re = new RegExp(`<${tagName(name)}(\\s[^>]*)?\\/?>`, 'gi');
  return [...xml.matchAll(re)].map((m) => attributes(m[1] ?? ''));
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
