/**
 * issue 23's Markdown corpus for report pages (src/pipeline/render/markdown.ts). Two kinds of case:
 * - `html`: Markdown in the shapes the pipeline writes (report-writer.ts's extractive report, with titles
 *   and summaries backslash-escaped by `mdText`; paper-cards.ts's cards; a model's digest as the report
 *   prompt asks for it) and the HTML it must render to, compared after `normalize` (inter-tag
 *   whitespace, `<br />`, a code block's language class and trailing newline, `&#39;`/`&quot;` spellings);
 * - `hostile`: input that tries to get script, event handlers, raw HTML, images or javascript:/data:/
 *   protocol-relative links through; the output is judged by `unsafe` (tags and attributes outside the
 *   renderer's allowlist, hrefs outside http(s), mailto, site-relative and `#`).
 */
import { Parser } from 'htmlparser2';

export type Case = { name: string; md: string; html?: string };
const REL = 'rel="nofollow noopener noreferrer"';
const a = (href: string, text: string) => `<a href="${href}" ${REL}>${text}</a>`;

export const cases: Case[] = [
  {
    name: 'extractive report: escaped brackets, stars, underscores and angle brackets in titles and summaries',
    md: [
      '> 3 new items from 2 sources: A \\[beta\\] release; Fix \\*all\\* the things; x\\_y\\_z.',
      '',
      '## AI & ML',
      '',
      '- [A \\[beta\\] release](https://e.example/a%28b%29) — It is \\<fast\\>.',
      '- [Fix \\*all\\* the things](https://e.example/b?x=1&y=2) — Done.',
      '',
      '## uncategorised',
      '',
      '- [x\\_y\\_z](https://e.example/c)',
    ].join('\n'),
    html:
      '<blockquote><p>3 new items from 2 sources: A [beta] release; Fix *all* the things; x_y_z.</p></blockquote>' +
      '<h2>AI &amp; ML</h2><ul>' +
      `<li>${a('https://e.example/a%28b%29', 'A [beta] release')} — It is &lt;fast&gt;.</li>` +
      `<li>${a('https://e.example/b?x=1&amp;y=2', 'Fix *all* the things')} — Done.</li></ul>` +
      `<h2>uncategorised</h2><ul><li>${a('https://e.example/c', 'x_y_z')}</li></ul>`,
  },
  {
    name: 'paper card: escaped markup in the title, emphasised byline, DOI link, quoted abstract',
    md: [
      '### [Prime editing with \\<i\\>Cas9\\</i\\> \\#1](https://pubmed.ncbi.nlm.nih.gov/41900001/)',
      '',
      '*Sami Haddad, Ji-woo Kim* · Nature biotechnology · 2026-03-20 · ' +
        'DOI [10.1038/s41587\\_1](https://doi.org/10.1038/s41587_1)',
      '',
      '**Verdict:** relevant — strong results',
      '',
      '> BACKGROUND: Prime editing is inefficient \\(40%\\).',
    ].join('\n'),
    html:
      `<h3>${a('https://pubmed.ncbi.nlm.nih.gov/41900001/', 'Prime editing with &lt;i&gt;Cas9&lt;/i&gt; #1')}</h3>` +
      '<p><em>Sami Haddad, Ji-woo Kim</em> · Nature biotechnology · 2026-03-20 · ' +
      `DOI ${a('https://doi.org/10.1038/s41587_1', '10.1038/s41587_1')}</p>` +
      '<p><strong>Verdict:</strong> relevant — strong results</p>' +
      '<blockquote><p>BACKGROUND: Prime editing is inefficient (40%).</p></blockquote>',
  },
  {
    name: "a model's digest: TL;DR, sections, bullets with links, code, ordered list, rule, soft break",
    md: [
      'TL;DR: Two releases and a **security** fix.',
      '',
      '## Releases',
      '',
      '- **v2.0** of [Tool](https://tool.example/v2) ships `--fast <x>` mode.',
      '- See [the notes](/reports/12#notes) and [mail us](mailto:team@e.example).',
      '',
      '1. First',
      '2. Second',
      '',
      '```js',
      'if (a < b) alert("x");',
      '```',
      '',
      '---',
      '',
      'Plain paragraph',
      'continued line.',
    ].join('\n'),
    html:
      '<p>TL;DR: Two releases and a <strong>security</strong> fix.</p><h2>Releases</h2>' +
      `<ul><li><strong>v2.0</strong> of ${a('https://tool.example/v2', 'Tool')} ` +
      'ships <code>--fast &lt;x&gt;</code> mode.</li>' +
      `<li>See ${a('/reports/12#notes', 'the notes')} and ${a('mailto:team@e.example', 'mail us')}.</li></ul>` +
      '<ol><li>First</li><li>Second</li></ol><pre><code>if (a &lt; b) alert("x");</code></pre><hr>' +
      '<p>Plain paragraph<br>continued line.</p>',
  },
  { name: 'script tag', md: '<script>alert(1)</script>' },
  { name: 'img onerror', md: 'x <img src=x onerror=alert(1)> y' },
  { name: 'raw anchor', md: '<a href="javascript:alert(1)">x</a>' },
  { name: 'javascript: link', md: '[x](javascript:alert(1))' },
  { name: 'mixed-case javascript: link', md: '[x](JaVaScRiPt:alert(1))' },
  { name: 'entity-split javascript: link', md: '[x](java&#x09;script:alert(1)) [y](&#106;avascript:alert(1))' },
  { name: 'data: link', md: '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)' },
  { name: 'protocol-relative link', md: '[x](//evil.example/a)' },
  {
    name: 'attribute break-out',
    md: '[x](https://e.example/"onmouseover=alert(1)) [y](https://e.example/\'onfocus=alert(1))',
  },
  { name: 'autolink javascript:', md: '<javascript:alert(1)> <https://ok.example/>' },
  { name: 'reference link to javascript:', md: '[x][1]\n\n[1]: javascript:alert(1)' },
  { name: 'images (none rendered)', md: '![a](https://e.example/pixel.png) ![b](javascript:alert(1))' },
  { name: 'HTML comment and block', md: '<!-- <script>x</script> -->\n\n<div onclick="alert(1)">\n*x*\n</div>' },
  { name: 'emphasis around raw HTML', md: '*<b onmouseover=alert(1)>x</b>* **<iframe src=//e.example>**' },
  { name: 'deep quote nesting', md: `${'>'.repeat(300)} deep` },
  { name: 'many stars and brackets', md: `${'*['.repeat(2000)}x${'](y)*'.repeat(2000)}` },
];

/** Canonical spelling of rendered HTML, so that renderers that agree on the markup compare equal. */
export function normalize(html: string): string {
  return html
    .replace(/<(br|hr)\s*\/?>/g, '<$1>')
    .replace(/<code class="language-[^"]*">/g, '<code>')
    .replace(/\n<\/code>/g, '</code>')
    .replace(/&#39;|&#x27;|&apos;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/<br>\s+/g, '<br>')
    .replace(/>\s+</g, '><')
    .trim();
}

const TAGS = new Set([
  'p',
  'a',
  'em',
  'strong',
  'code',
  'pre',
  'ul',
  'ol',
  'li',
  'blockquote',
  'hr',
  'br',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'del',
  's',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
]);

/** An href the renderer may emit: http(s) or mailto, site-relative (`/x`, not `//x`) or a fragment. */
export function allowedHref(href: string): boolean {
  if (/^\/(?!\/)/.test(href) || href.startsWith('#')) return true;
  try {
    return ['http:', 'https:', 'mailto:'].includes(new URL(href).protocol);
  } catch {
    return false;
  }
}

/** What in rendered HTML is outside the allowlist (empty when safe). */
export function unsafe(html: string): string[] {
  const bad: string[] = [];
  const p = new Parser(
    {
      onopentag(name, attrs) {
        if (!TAGS.has(name)) bad.push(`<${name}>`);
        for (const [k, v] of Object.entries(attrs)) {
          const codeClass = name === 'code' && k === 'class' && /^language-[\w-]+$/.test(v);
          if (name === 'a' && k === 'href') {
            if (!allowedHref(v)) bad.push(`href=${v}`);
          } else if (!(name === 'a' && k === 'rel') && !codeClass) bad.push(`${name} ${k}=`);
        }
      },
      oncomment() {
        bad.push('comment');
      },
    },
    { decodeEntities: true },
  );
  p.end(html);
  return bad;
}
