/**
 * Markdown -> safe HTML for report pages. Escape-first: every character of the source is HTML-escaped
 * before any markup is added, and markup is added only by this renderer, so neither feed content nor a
 * model's output can inject tags, attributes or script. Supported: ATX headings, paragraphs, `-`/`*`/
 * `1.` lists, `>` quotes, fenced code, `---` rules, inline code, **strong**, *em*, and links
 * `[text](url)` whose URL is http(s), mailto or site-relative (anything else, e.g. `javascript:`,
 * renders as plain text). Links get rel="nofollow noopener noreferrer".
 */
import { escapeHtml } from '../../platform/html.ts';

export { escapeHtml };

function safeHref(raw: string): string | null {
  const url = raw.trim();
  if (/^\/(?!\/)/.test(url) || /^#/.test(url)) return url;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' || u.protocol === 'mailto:' ? u.toString() : null;
  } catch {
    return null;
  }
}

/** Inline markup on one line of raw Markdown; returns HTML. */
export function inline(raw: string): string {
  const parts: string[] = [];
  // Split off code spans first so their content is never interpreted.
  const segments = raw.split(/(`[^`]+`)/);
  for (const seg of segments) {
    if (/^`[^`]+`$/.test(seg)) {
      parts.push(`<code>${escapeHtml(seg.slice(1, -1))}</code>`);
      continue;
    }
    let out = '';
    let rest = seg;
    const linkRe = /\[([^\]]*)\]\(((?:[^()\s]|\([^()\s]*\))+)\)/;
    for (;;) {
      const m = linkRe.exec(rest);
      if (!m) break;
      out += emphasis(escapeHtml(rest.slice(0, m.index)));
      const href = safeHref(m[2]!);
      const text = emphasis(escapeHtml(m[1]!));
      out += href ? `<a href="${escapeHtml(href)}" rel="nofollow noopener noreferrer">${text || escapeHtml(href)}</a>` : text;
      rest = rest.slice(m.index + m[0].length);
    }
    parts.push(out + emphasis(escapeHtml(rest)));
  }
  return parts.join('');
}

function emphasis(escaped: string): string {
  return escaped.replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>').replace(/(^|[^*])\*([^*\s][^*]*)\*/g, '$1<em>$2</em>');
}

export function renderMarkdown(md: string): string {
  const lines = md.replace(/\r\n?/g, '\n').split('\n');
  const html: string[] = [];
  let para: string[] = [];
  let list: { tag: 'ul' | 'ol'; items: string[] } | null = null;
  let quote: string[] = [];
  const flushPara = () => {
    if (para.length) html.push(`<p>${para.map(inline).join('<br>\n')}</p>`);
    para = [];
  };
  const flushList = () => {
    if (list) html.push(`<${list.tag}>${list.items.map((i) => `<li>${inline(i)}</li>`).join('')}</${list.tag}>`);
    list = null;
  };
  const flushQuote = () => {
    if (quote.length) html.push(`<blockquote>${renderMarkdown(quote.join('\n'))}</blockquote>`);
    quote = [];
  };
  const flushAll = () => {
    flushPara();
    flushList();
    flushQuote();
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = /^\s*(```|~~~)/.exec(line);
    if (fence) {
      flushAll();
      const code: string[] = [];
      for (i++; i < lines.length && !lines[i]!.trim().startsWith(fence[1]!); i++) code.push(lines[i]!);
      html.push(`<pre><code>${escapeHtml(code.join('\n'))}</code></pre>`);
      continue;
    }
    if (/^\s*>/.test(line)) {
      flushPara();
      flushList();
      quote.push(line.replace(/^\s*>\s?/, ''));
      continue;
    }
    flushQuote();
    if (!line.trim()) {
      flushPara();
      flushList();
      continue;
    }
    const h = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (h) {
      flushAll();
      html.push(`<h${h[1]!.length}>${inline(h[2]!)}</h${h[1]!.length}>`);
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      flushAll();
      html.push('<hr>');
      continue;
    }
    const ul = /^\s*[-*+]\s+(.*)$/.exec(line);
    const ol = /^\s*\d+[.)]\s+(.*)$/.exec(line);
    if (ul || ol) {
      flushPara();
      const tag = ul ? 'ul' : 'ol';
      if (!list || list.tag !== tag) {
        flushList();
        list = { tag, items: [] };
      }
      list.items.push((ul ?? ol)![1]!);
      continue;
    }
    if (list && /^\s{2,}\S/.test(line)) {
      list.items[list.items.length - 1] += ` ${line.trim()}`;
      continue;
    }
    flushList();
    para.push(line.trim());
  }
  flushAll();
  return html.join('\n');
}
