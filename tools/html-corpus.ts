/**
 * issue 23's HTML corpus for the `blog_scraper` collector (src/pipeline/collectors/html.ts): real-shaped
 * blog and news pages under test/fixtures/pipeline/pages with comments, scripts and styles holding
 * markup, CDATA, named and numeric entities, malformed nesting and unclosed `<p>`, attributes without
 * quotes, upper-case tags, `<base href>`, OpenGraph tags and a `<textarea>` holding markup. Each case gives
 * the page URL it was fetched from and the page title and items (title, url, summary, published_at) the
 * collector must return, written by hand from what a browser's parser makes of the page.
 */
import { readFileSync } from 'node:fs';

export type Item = [title: string, url: string, summary: string, publishedAt: string | null];
export type Case = { name: string; html: string; url: string; title: string; items: Item[] };
const page = (p: string): string =>
  readFileSync(new URL(`../test/fixtures/pipeline/pages/${p}`, import.meta.url), 'utf8');

export const cases: Case[] = [
  {
    name: 'news index: <base>, unquoted attributes, entities, upper-case tags, markup in comments/script/style',
    html: page('news-index.html'),
    url: 'https://news.example/latest',
    title: 'Tech News & Views — Today',
    items: [
      [
        'Chips & dips: a “quoted” headline',
        'https://news.example/section/story/1.html?ref=idx&p=2',
        'Lead paragraph with an entity, a tag and a <literal>.',
        '2026-11-20T08:00:00.000Z',
      ],
      ['Second — story', 'https://news.example/abs/2', 'Second lead.', null],
      ['Third, upper-case tags', 'https://other.example/third', 'Third lead.', null],
    ],
  },
  {
    name: 'blog: malformed nesting, unclosed <p>, CDATA in svg script, heading without link, duplicates',
    html: page('blog-malformed.html'),
    url: 'https://blog.example/',
    title: 'A Blog',
    items: [
      [
        'First post',
        'https://blog.example/2026/11/first-post/',
        'Intro with bold and mixed nesting.',
        '2026-11-19T00:00:00.000Z',
      ],
      [
        'Heading without link',
        'https://blog.example/2026/11/second/',
        'See the second post for more.',
        '2026-11-18T08:30:00.000Z',
      ],
    ],
  },
  {
    name: 'index without <article>: linked h1-h3, og:title, markup in comment/style/textarea ignored',
    html: page('headings-only.html'),
    url: 'https://blog.example/archive/',
    title: 'Index & Archive',
    items: [
      ['One …', 'https://blog.example/posts/one', '', null],
      ['Two', 'https://blog.example/posts/two', '', null],
      ['Three', 'https://elsewhere.example/three', '', null],
    ],
  },
];
