/**
 * `node tools/compare-markdown.ts`: issue 23's Markdown row. Renders the corpus of tools/markdown-corpus.ts
 * with src/pipeline/render/markdown.ts, with `markdown-it` and with `marked`, the two libraries set up as a
 * report page needs them (raw HTML escaped, no images, links only through the same URL allowlist, links
 * carrying rel="nofollow noopener noreferrer", single newlines as `<br>`), and prints each one's pass rate
 * (report shapes rendered as expected, hostile input rendered without anything outside the allowlist),
 * the failures, and the median time to render a 200-section report. The first column is the module as it
 * stands (marked under the report policy); MARKDOWN_BASELINE=<path> adds another renderer module, e.g. the
 * hand-written one this replaced: `git show 51126a6:src/pipeline/render/markdown.ts |
 * sed 's#../../platform/html.ts#../src/platform/html.ts#' > .tmp/markdown.ts`.
 */
import { resolve } from 'node:path';
import MarkdownIt from 'markdown-it';
import { Marked } from 'marked';
import { escapeHtml } from '../src/platform/html.ts';
import { renderMarkdown } from '../src/pipeline/render/markdown.ts';
import { allowedHref, cases, normalize, unsafe } from './markdown-corpus.ts';

const REL = 'nofollow noopener noreferrer';

const mdit = new MarkdownIt({ html: false, linkify: false, breaks: true });
mdit.disable('image');
mdit.validateLink = (url) => allowedHref(url.trim());
const defaultLinkOpen = mdit.renderer.rules.link_open ?? ((t, i, o, _e, s) => s.renderToken(t, i, o));
mdit.renderer.rules.link_open = (tokens, idx, opts, env, self) => {
  tokens[idx]!.attrSet('rel', REL);
  return defaultLinkOpen(tokens, idx, opts, env, self);
};

const marked = new Marked({ breaks: true, gfm: true, async: false });
marked.use({
  renderer: {
    html: ({ text }) => escapeHtml(text),
    image: ({ text }) => escapeHtml(text),
    link({ href, tokens }) {
      const inner = this.parser.parseInline(tokens);
      return allowedHref(href.trim()) ? `<a href="${escapeHtml(href)}" rel="${REL}">${inner}</a>` : inner;
    },
  },
});

const renderers: [string, (md: string) => string][] = [
  ['markdown.ts', renderMarkdown],
  ['markdown-it', (md) => mdit.render(md)],
  ['marked', (md) => marked.parse(md) as string],
];
if (process.env.MARKDOWN_BASELINE) {
  const mod = (await import(resolve(process.env.MARKDOWN_BASELINE))) as { renderMarkdown: (md: string) => string };
  renderers.push(['baseline', mod.renderMarkdown]);
}

const section = cases
  .slice(0, 3)
  .map((c) => c.md)
  .join('\n\n');
const big = Array.from({ length: 200 }, (_, i) => section.replace('## Releases', `## Releases ${i}`)).join('\n\n');
for (const [name, render] of renderers) {
  const failed: string[] = [];
  for (const c of cases) {
    let out: string;
    try {
      out = render(c.md);
    } catch (e) {
      failed.push(`${c.name}: throws ${(e as Error).message}`);
      continue;
    }
    const got = normalize(out);
    if (c.html !== undefined && got !== c.html) failed.push(`${c.name}:\n      got  ${got.slice(0, 400)}`);
    const bad = unsafe(out);
    if (bad.length) failed.push(`${c.name}: unsafe ${bad.slice(0, 4).join(' ')}`);
  }
  const t: number[] = [];
  for (let r = 0; r < 11; r++) {
    const t0 = performance.now();
    render(big);
    t.push(performance.now() - t0);
  }
  t.sort((x, y) => x - y);
  const rate = `${cases.length - failed.length}/${cases.length}`;
  const kib = (big.length / 1024).toFixed(0);
  console.log(`${name.padEnd(12)} ${rate}  render ${kib} KiB: median ${t[5]!.toFixed(1)} ms`);
  for (const f of failed) console.log(`   FAIL ${f}`);
}
