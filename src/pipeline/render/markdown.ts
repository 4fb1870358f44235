/**
 * Markdown -> safe HTML for report pages and the RSS feed's `content:encoded`, rendered by `marked`
 * (issue 23, docs/libraries.md) with a policy on top: raw HTML is never passed through (every inline
 * tag and HTML block is rendered as escaped text, a block in its own paragraph), images render as their
 * alt text, and links keep their `href` only when it is http(s), mailto, site-relative (`/x`, not `//x`)
 * or a fragment (anything else, e.g. `javascript:` or `data:`, renders as the link's text); kept links get
 * rel="nofollow noopener noreferrer". Single newlines are `<br>` (`breaks`), code blocks carry no class.
 *
 * Why marked and not the hand-written renderer it replaced, or markdown-it: on the corpus of
 * tools/markdown-corpus.ts (the report writer's and paper cards' Markdown, a model's digest, 16 hostile
 * inputs) marked and markdown-it 15 pass 19/19, the hand-written renderer 17/19 (it knew no backslash
 * escapes, so every title `mdText` escaped showed its backslashes and a title holding `[` lost its link);
 * marked renders a 173 KiB report in 403-453 ms against 614-659 ms for markdown-it (the hand-written one
 * 140-268 ms), and is 51 KB minified (gzip 15) against 100 KB (gzip 42). `node tools/compare-markdown.ts`.
 */
import { Marked } from 'marked';
import { escapeHtml } from '../../platform/html.ts';

export { escapeHtml };

const REL = 'nofollow noopener noreferrer';

/** The href a link may keep (normalised), or null: http(s), mailto, site-relative or a fragment. */
export function safeHref(raw: string): string | null {
  const url = raw.trim();
  if (/^\/(?!\/)/.test(url) || /^#/.test(url)) return url;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' || u.protocol === 'mailto:' ? u.toString() : null;
  } catch {
    return null;
  }
}

const marked = new Marked({ breaks: true, gfm: true, async: false });
marked.use({
  renderer: {
    html: ({ text, block }) => (block ? `<p>${escapeHtml(text.trim())}</p>\n` : escapeHtml(text)),
    image: ({ text }) => escapeHtml(text),
    code: ({ text }) => `<pre><code>${escapeHtml(text)}</code></pre>\n`,
    link({ href, tokens }) {
      const inner = this.parser.parseInline(tokens);
      const safe = safeHref(href);
      return safe ? `<a href="${escapeHtml(safe)}" rel="${REL}">${inner || escapeHtml(safe)}</a>` : inner;
    },
  },
});

/** Inline Markdown (one line, no blocks) as HTML. */
export function inline(md: string): string {
  return marked.parseInline(md) as string;
}

export function renderMarkdown(md: string): string {
  return (marked.parse(md) as string).trim();
}
