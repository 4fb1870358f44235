import { describe, expect, it } from 'vitest';
import { parseFeed } from '../../../src/pipeline/collectors/feed.ts';
import { parseHtml } from '../../../src/pipeline/collectors/html.ts';
import { decodeEntities, textOf } from '../../../src/pipeline/collectors/html-text.ts';
import { nextRun, parseCron } from '../../../src/pipeline/cron.ts';
import { inline, renderMarkdown } from '../../../src/pipeline/render/markdown.ts';
import { renderRss, xmlEscape } from '../../../src/pipeline/render/feed-xml.ts';
import { atomBody, blogBody, jsonFeedBody, rssBody } from '../../support/fakes/feed-server.ts';
import { cases as htmlCorpus } from '../../../tools/html-corpus.ts';
import { cases as mdCorpus, normalize, unsafe } from '../../../tools/markdown-corpus.ts';

const BASE = 'https://blog.example';
const NOW = Date.parse('2026-11-20T12:00:00Z');

describe('feed parsing', () => {
  it.each([
    [
      'RSS 2.0',
      rssBody(BASE, NOW),
      'rss',
      'Local Engineering Blog',
      [
        ['Release notes', `${BASE}/posts/release`, 'New release. Faster builds.', '2026-11-20T12:00:00.000Z'],
        [
          'Second & final post',
          `${BASE}/posts/second`,
          'Plain text summary. More text here.',
          '2026-11-20T11:00:00.000Z',
        ],
        ['Relative link post', `${BASE}/posts/relative`, 'Uses a guid.', '2026-11-20T10:00:00.000Z'],
      ],
    ],
    [
      'Atom',
      atomBody(BASE, NOW),
      'atom',
      'Local Atom',
      [
        ['Atom one', `${BASE}/atom/1`, 'First atom entry.', '2026-11-20T12:00:00.000Z'],
        ['Atom two', `${BASE}/atom/2`, 'Second', '2026-11-20T09:00:00.000Z'],
      ],
    ],
    [
      'JSON Feed',
      jsonFeedBody(BASE, NOW),
      'json_feed',
      'Local JSON Feed',
      [
        ['JSON one', `${BASE}/json/1`, 'Text one.', '2026-11-20T12:00:00.000Z'],
        ['JSON two', `${BASE}/json/2`, 'Two bold', null],
      ],
    ],
  ])('%s', (_n, body, format, title, items) => {
    const r = parseFeed(body, `${BASE}/feed`);
    expect(r.format).toBe(format);
    expect(r.title).toBe(title);
    expect(r.items.map((i) => [i.title, i.url, i.summary, i.published_at])).toEqual(items);
  });

  it.each([
    ['<html><body>hi</body></html>', 'response is not an RSS, Atom or JSON feed'],
    ['{"items": []}', 'JSON document is not a JSON Feed'],
    ['{broken', 'response is not valid JSON'],
  ])('refuses %s', (body, message) => {
    expect(() => parseFeed(body, BASE)).toThrow(message);
  });

  it.each([
    [
      'RSS 1.0 (rdf:RDF, items beside the channel, dc:date)',
      `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"
 xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel rdf:about="${BASE}/"><title>RDF &amp; co</title><link>${BASE}/</link></channel>
<item rdf:about="${BASE}/r/1"><title>R1</title><link>${BASE}/r/1</link><description>d1</description>
<dc:date>2026-11-19T08:00:00Z</dc:date></item>
</rdf:RDF>`,
      'rss',
      'RDF & co',
      [['R1', `${BASE}/r/1`, 'd1', '2026-11-19T08:00:00.000Z']],
    ],
    [
      'RSS 2.0 with atom:link first, a comment, CDATA title, content:encoded only',
      `<rss version="2.0"
 xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/">
<channel><title><![CDATA[Blog <b>X</b>]]></title><!-- <item>not one</item> -->
<item><atom:link href="${BASE}/self" rel="self"/><title><![CDATA[A <em>b</em> &amp; c]]></title>
<link> ${BASE}/p/1 </link><content:encoded><![CDATA[<p>Body <script>x()</script>text</p>]]></content:encoded></item>
</channel></rss>`,
      'rss',
      'Blog X',
      [['A b & c', `${BASE}/p/1`, 'Body text', null]],
    ],
    [
      'Atom with xhtml content (mixed content in order) and rel=self before alternate',
      `<feed xmlns="http://www.w3.org/2005/Atom"><title type="text">T</title>
<entry><title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">One <i>two</i> three</div></title>
<link rel="self" href="/self"/><link rel="alternate" href="/x/1"/>
<content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Para <b>bold</b> end.</p></div></content>
<updated>2026-11-18T00:00:00Z</updated></entry></feed>`,
      'atom',
      'T',
      [['One two three', `${BASE}/x/1`, 'Para bold end.', '2026-11-18T00:00:00.000Z']],
    ],
  ] as const)('%s', (_n, body, format, title, items) => {
    const r = parseFeed(body, `${BASE}/feed`);
    expect([r.format, r.title]).toEqual([format, title]);
    expect(r.items.map((i) => [i.title, i.url, i.summary, i.published_at])).toEqual(items);
  });

  it("a feed that is not well-formed XML is refused with the reader's reason", () => {
    expect(() => parseFeed('<rss><channel><item><title>x</item></channel></rss>', BASE)).toThrow(
      /feed is not well-formed XML: mismatched <\/item>/,
    );
  });

  it('drops items whose link is not http(s)', () => {
    const r = parseFeed(
      '<rss><channel><item><title>x</title><link>javascript:alert(1)</link></item><item><title>y</title><link>ftp://h/f</link></item></channel></rss>',
      BASE,
    );
    expect(r.items).toEqual([]);
  });

  it('parses an HTML index page', () => {
    const r = parseHtml(blogBody(NOW), `${BASE}/blog.html`);
    expect(r.title).toBe('Local Blog');
    expect(r.items.map((i) => [i.title, i.url, i.summary, i.published_at])).toEqual([
      ['First blog post', `${BASE}/blog/first`, 'Intro of the first post.', '2026-11-20T12:00:00.000Z'],
      ['Second blog post', 'https://other.example/blog/second', 'Second intro.', null],
    ]);
  });

  it.each(htmlCorpus.map((c) => [c.name, c] as const))('HTML corpus: %s', (_n, c) => {
    const r = parseHtml(c.html, c.url);
    expect(r.title).toBe(c.title);
    expect(r.items.map((i) => [i.title, i.url, i.summary, i.published_at])).toEqual(c.items);
  });

  it('falls back to linked headings without <article>', () => {
    const r = parseHtml(
      '<h2><a href="/a">A</a></h2><h3><a href="/b">B</a></h3><h4><a href="/c">C</a></h4><h2><a href="/a">A again</a></h2>',
      BASE,
    );
    expect(r.items.map((i) => i.url)).toEqual([`${BASE}/a`, `${BASE}/b`]);
  });

  it.each([
    ['&amp;&lt;&gt;&quot;&#39;&#x41;&#66;&nbsp;', '&<>"\'AB\u00a0'],
    ['&eacute;&hellip;&rsquo;&copy;', 'é…’©'],
    ['&unknown; &#xZZ;', '&unknown; &#xZZ;'],
  ])('decodes entities in %s', (s, out) => expect(decodeEntities(s)).toBe(out));

  it('textOf strips markup, scripts and CDATA-wrapped HTML', () => {
    expect(textOf('<![CDATA[<p>a <script>x()</script>b</p>]]> &amp; c')).toBe('a b & c');
  });
});

describe('markdown rendering is escape-first', () => {
  it.each([
    ['<script>alert(1)</script>', '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>'],
    ['[x](javascript:alert(1))', '<p>x</p>'],
    ['[x](data:text/html,hi)', '<p>x</p>'],
    ['[x](//evil.example/a)', '<p>x</p>'],
    ['[x](/reports/1)', '<p><a href="/reports/1" rel="nofollow noopener noreferrer">x</a></p>'],
    [
      '[a "q"](https://e.example/"onmouseover=1)',
      '<p><a href="https://e.example/%22onmouseover=1" rel="nofollow noopener noreferrer">a &quot;q&quot;</a></p>',
    ],
    ['# Title *em*', '<h1>Title <em>em</em></h1>'],
    ['1. one\n2. two', '<ol>\n<li>one</li>\n<li>two</li>\n</ol>'],
    ['> quote\n> more', '<blockquote>\n<p>quote<br>more</p>\n</blockquote>'],
    [
      '- [A \\[b\\] \\*c\\*](https://e.example/a) \\<x\\>',
      '<ul>\n<li><a href="https://e.example/a" rel="nofollow noopener noreferrer">A [b] *c*</a> &lt;x&gt;</li>\n</ul>',
    ],
    ['a\n\n---\n\nb', '<p>a</p>\n<hr>\n<p>b</p>'],
  ])('%s', (md, html) => expect(renderMarkdown(md)).toBe(html));

  it.each(mdCorpus.map((c) => [c.name, c] as const))('Markdown corpus: %s', (_n, c) => {
    const html = renderMarkdown(c.md);
    if (c.html !== undefined) expect(normalize(html)).toBe(c.html);
    expect(unsafe(html)).toEqual([]);
  });

  it('the corpus judge catches what it must', () => {
    expect(unsafe('<a href="javascript:x" onclick="y">x</a><img src=x><a href="//e.example/">y</a><!-- c -->')).toEqual(
      ['href=javascript:x', 'a onclick=', '<img>', 'img src=', 'href=//e.example/', 'comment'],
    );
  });

  it('never lets an attribute break out of href', () => {
    expect(inline('[x](https://e.example/a"b)')).toBe(
      '<a href="https://e.example/a%22b" rel="nofollow noopener noreferrer">x</a>',
    );
  });
});

describe('cron', () => {
  it.each([
    ['*/15 * * * *', '2026-11-20T12:07:30Z', '2026-11-20T12:15:00.000Z'],
    ['0 0 * * *', '2026-11-20T12:00:00Z', '2026-11-21T00:00:00.000Z'],
    ['0 0 * * 1', '2026-11-20T12:00:00Z', '2026-11-23T00:00:00.000Z'],
    ['30 8 1 * *', '2026-11-20T12:00:00Z', '2026-12-01T08:30:00.000Z'],
    ['0 9 * * mon-fri', '2026-11-21T10:00:00Z', '2026-11-23T09:00:00.000Z'],
    ['0 0 29 2 *', '2026-03-01T00:00:00Z', '2028-02-29T00:00:00.000Z'],
    ['0 12 13 * 5', '2026-11-20T12:00:00Z', '2026-11-27T12:00:00.000Z'],
    ['0 0 * * 7', '2026-11-20T00:00:00Z', '2026-11-22T00:00:00.000Z'],
  ])('%s after %s -> %s', (expr, after, next) => {
    expect(nextRun(expr, new Date(after))?.toISOString()).toBe(next);
  });

  it.each(['* * * *', '60 * * * *', '* 24 * * *', '*/0 * * * *', '5-1 * * * *', 'x * * * *'])('refuses %s', (expr) => {
    expect(() => parseCron(expr)).toThrow();
  });
});

describe('rss rendering', () => {
  it('escapes text and drops characters XML forbids', () => {
    const xml = renderRss(
      { title: 'A & B', link: 'https://x.example/', description: 'd', self: 'https://x.example/f' },
      [
        {
          id: '1',
          title: '<t>\u0001',
          link: 'https://x.example/1?a=1&b=2',
          description: '"q"',
          date: new Date('2026-11-20T00:00:00Z'),
        },
      ],
    );
    expect(xml).toContain('<title>A &amp; B</title>');
    expect(xml).toContain('<title>&lt;t&gt;</title>');
    expect(xml).toContain('<link>https://x.example/1?a=1&amp;b=2</link>');
    expect(xml).toContain('<description>&quot;q&quot;</description>');
    expect(xml).toContain('<lastBuildDate>Fri, 20 Nov 2026 00:00:00 GMT</lastBuildDate>');
  });

  it('an empty feed carries no build date (not the epoch)', () => {
    const xml = renderRss(
      { title: 'T', link: 'https://x.example/', description: 'd', self: 'https://x.example/f' },
      [],
    );
    expect(xml).not.toContain('lastBuildDate');
    expect(xml).not.toContain('1970');
    expect(xml).toContain('<title>T</title>');
  });
});

describe('xmlEscape', () => {
  it.each([
    ['markup', '<a href="x">&\'</a>', '&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;'],
    ['controls and non-characters', 'a\u0000b\u001fc\ufffed\tok\n', 'abcd\tok\n'],
    ['unpaired surrogates dropped, pairs kept', 'a\ud800b\ud83d\ude00c\udc00d', 'ab\ud83d\ude00cd'],
  ])('%s', (_n, input, want) => {
    expect(xmlEscape(input)).toBe(want);
  });
});
