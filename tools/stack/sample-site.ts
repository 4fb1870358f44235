/**
 * A small sample blog the local stack serves for the pipeline's demo sources, so the first demo
 * report reads like a real one (before, the demo source read the pipeline's own feed and the report
 * was about itself). `GET /` is the blog's index page (one `<article>` per post: the `blog_scraper`
 * source), `GET /feed.xml` its RSS 2.0 feed (the `rss` source), `GET /posts/<slug>` each post.
 * The texts are fixed; dates are relative to the server's start (post n is n*19 hours old), so the
 * posts always fall inside the demo monitor's 7-day window.
 */
import { createServer, type Server } from 'node:http';
import { escapeHtml as esc } from '../../src/platform/html.ts';

export interface SamplePost {
  slug: string;
  title: string;
  author: string;
  summary: string;
}

export const SAMPLE_TITLE = 'Harbor Lane Engineering';

export const SAMPLE_POSTS: SamplePost[] = [
  {
    slug: 'lockfile-drift',
    title: 'Lockfile drift: what we found auditing 212 services',
    author: 'Priya Natarajan',
    summary:
      "We compared every service's lockfile with what its CI actually installed. 31 services resolved a different minor version of at least one direct dependency, and 4 of those pulled a version with a published advisory. Pinning ranges was not the fix; regenerating lockfiles weekly and failing CI on drift was.",
  },
  {
    slug: 'pnpm-migration',
    title: 'Moving our monorepo from npm workspaces to pnpm',
    author: 'Tomás Ferreira',
    summary:
      'Install time fell from 4 min 10 s to 58 s on a cold cache, and the store saved 9 GB per build agent. The strict node_modules layout exposed 23 phantom dependencies that only worked because npm hoisted them; each was a real bug waiting for a hoisting change.',
  },
  {
    slug: 'yanked-releases',
    title: 'What happens when a dependency is yanked',
    author: 'Priya Natarajan',
    summary:
      "A transitive crate we build on was yanked on a Friday evening. Cargo kept our lockfile's version, new checkouts without a lockfile failed to resolve, and our Python services pinned to the same library through a wheel were unaffected. We now alert on yanks of anything in our graph.",
  },
  {
    slug: 'sbom-in-ci',
    title: 'Generating an SBOM on every build, in 6 seconds',
    author: 'Lena Okafor',
    summary:
      'Our release pipeline now writes a CycloneDX SBOM for each artifact. Reading the resolved graph from the lockfile instead of scanning node_modules made it 20 times faster, and diffing two SBOMs turned out to be the most useful review tool we have added this year.',
  },
  {
    slug: 'maven-ranges',
    title: 'Maven version ranges considered harmful (mostly)',
    author: 'Tomás Ferreira',
    summary:
      'Three of our Java services declared [1.2,2.0) ranges. Maven picked the newest matching release at build time, so two builds of the same commit a week apart shipped different libraries. We replaced ranges with dependencyManagement pins and a bot that proposes upgrades.',
  },
];

const HOURS_APART = 19;

function postDate(i: number, startedAt: number): Date {
  return new Date(startedAt - (i + 1) * HOURS_APART * 3_600_000);
}

function feed(base: string, startedAt: number): string {
  const items = SAMPLE_POSTS.map(
    (p, i) => `  <item>
    <title>${esc(p.title)}</title>
    <link>${base}/posts/${p.slug}</link>
    <guid>${base}/posts/${p.slug}</guid>
    <dc:creator>${esc(p.author)}</dc:creator>
    <pubDate>${postDate(i, startedAt).toUTCString()}</pubDate>
    <description>${esc(p.summary)}</description>
  </item>`,
  ).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel>
  <title>${SAMPLE_TITLE}</title>
  <link>${base}/</link>
  <description>Notes from the platform team on dependencies, builds and releases.</description>
  <lastBuildDate>${postDate(0, startedAt).toUTCString()}</lastBuildDate>
${items}
</channel>
</rss>
`;
}

function layout(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<link rel="alternate" type="application/rss+xml" href="/feed.xml"><style>body{font:16px/1.5 Georgia,serif;margin:2rem auto;max-width:42rem}</style></head>
<body>${body}</body></html>`;
}

function index(startedAt: number): string {
  const articles = SAMPLE_POSTS.map(
    (p, i) => `<article><h2><a href="/posts/${p.slug}">${esc(p.title)}</a></h2>
<p><time datetime="${postDate(i, startedAt).toISOString()}">${postDate(i, startedAt).toDateString()}</time> · ${esc(p.author)}</p>
<p>${esc(p.summary)}</p></article>`,
  ).join('\n');
  return layout(
    SAMPLE_TITLE,
    `<header><h1>${SAMPLE_TITLE}</h1><p><a href="/feed.xml">RSS</a></p></header>\n${articles}`,
  );
}

export interface SampleSite {
  server: Server;
  port: number;
  url: string;
  close(): Promise<void>;
}

export async function startSampleSite(port: number, host = '127.0.0.1'): Promise<SampleSite> {
  const startedAt = Date.now();
  let base = '';
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'content-type': type });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (path === '/feed.xml') return send(200, 'application/rss+xml; charset=utf-8', feed(base, startedAt));
    if (path === '/' || path === '/index.html') return send(200, 'text/html; charset=utf-8', index(startedAt));
    const i = SAMPLE_POSTS.findIndex((p) => path === `/posts/${p.slug}`);
    if (i >= 0) {
      const p = SAMPLE_POSTS[i]!;
      return send(
        200,
        'text/html; charset=utf-8',
        layout(
          p.title,
          `<article><h1>${esc(p.title)}</h1>
<p><time datetime="${postDate(i, startedAt).toISOString()}">${postDate(i, startedAt).toDateString()}</time> · ${esc(p.author)}</p>
<p>${esc(p.summary)}</p><p><a href="/">← ${SAMPLE_TITLE}</a></p></article>`,
        ),
      );
    }
    return send(404, 'text/plain; charset=utf-8', 'not found\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const actual = (server.address() as { port: number }).port;
  base = `http://${host}:${actual}`;
  return {
    server,
    port: actual,
    url: base,
    async close() {
      await new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections?.();
    },
  };
}
