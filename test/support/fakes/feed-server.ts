/**
 * A local feed server: RSS 2.0 at /rss.xml, Atom 1.0 at /atom.xml, JSON Feed 1.1 at /feed.json, an
 * HTML blog index at /blog.html, plus any route a test sets with `route(path, reply)`. Dates are
 * relative to start-up (items "now" and "1 hour ago") so monitor windows include them. The RSS feed
 * carries hostile markup (a script in CDATA and an escaped one) to prove pages never run it.
 */
import { startFake, type Fake, type FakeReply } from './http-fake.ts';

export interface FeedServer extends Fake {
  route(path: string, reply: FakeReply): void;
}

export const HOSTILE_TITLE = 'Release <script>alert(1)</script> notes';

export function rssBody(base: string, now = Date.now()): string {
  const d = (h: number) => new Date(now - h * 3_600_000).toUTCString();
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel>
<title>Local Engineering Blog</title><link>${base}/</link><description>test feed</description>
<item><title>${HOSTILE_TITLE.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</title><link>${base}/posts/release</link>
<description><![CDATA[<p>New release. <img src=x onerror="alert(2)"> Faster builds.</p>]]></description><pubDate>${d(0)}</pubDate></item>
<item><title>Second &amp; final post</title><link>${base}/posts/second</link><description>Plain text summary. More text here.</description><pubDate>${d(1)}</pubDate></item>
<item><title>Relative link post</title><guid isPermaLink="true">/posts/relative</guid><description>Uses a guid.</description><pubDate>${d(2)}</pubDate></item>
</channel></rss>`;
}

export function atomBody(base: string, now = Date.now()): string {
  const d = (h: number) => new Date(now - h * 3_600_000).toISOString();
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>Local Atom</title><id>urn:x</id><updated>${d(0)}</updated>
<entry><title type="html">Atom &lt;b&gt;one&lt;/b&gt;</title><link rel="alternate" href="${base}/atom/1"/><id>urn:1</id><updated>${d(0)}</updated><summary>First atom entry.</summary></entry>
<entry><title>Atom two</title><link href="/atom/2"/><id>urn:2</id><published>${d(3)}</published><content type="html">&lt;p&gt;Second&lt;/p&gt;</content></entry>
</feed>`;
}

export function jsonFeedBody(base: string, now = Date.now()): string {
  return JSON.stringify({
    version: 'https://jsonfeed.org/version/1.1',
    title: 'Local JSON Feed',
    items: [
      {
        id: '1',
        url: `${base}/json/1`,
        title: 'JSON one',
        content_text: 'Text one.',
        date_published: new Date(now).toISOString(),
      },
      { id: '2', external_url: `${base}/json/2`, title: 'JSON two', content_html: '<p>Two <b>bold</b></p>' },
      { id: '3', title: 'No URL, dropped' },
    ],
  });
}

export function blogBody(now = Date.now()): string {
  return `<!doctype html><html><head><title>Local Blog</title><script>var x = "<article>";</script></head><body>
<article><h2><a href="/blog/first">First blog post</a></h2><time datetime="${new Date(now).toISOString()}">today</time><p>Intro of the first post.</p></article>
<article><h2><a href="https://other.example/blog/second#top">Second blog post</a></h2><p>Second intro.</p></article>
<article><h2><a href="javascript:alert(1)">Bad link</a></h2></article>
</body></html>`;
}

export async function startFeedServer(): Promise<FeedServer> {
  const routes = new Map<string, FakeReply>();
  const fake = await startFake((r) => {
    const base = `http://${r.headers.host}`;
    const custom = routes.get(r.path);
    if (custom) return custom;
    if (r.path === '/rss.xml')
      return { status: 200, headers: { 'content-type': 'application/rss+xml' }, body: rssBody(base) };
    if (r.path === '/atom.xml')
      return { status: 200, headers: { 'content-type': 'application/atom+xml' }, body: atomBody(base) };
    if (r.path === '/feed.json')
      return { status: 200, headers: { 'content-type': 'application/feed+json' }, body: jsonFeedBody(base) };
    if (r.path === '/blog.html') return { status: 200, headers: { 'content-type': 'text/html' }, body: blogBody() };
    if (r.path === '/moved') return { status: 301, headers: { location: '/rss.xml' } };
    return { status: 404, body: 'not found' };
  });
  return Object.assign(fake, { route: (path: string, reply: FakeReply) => void routes.set(path, reply) });
}
