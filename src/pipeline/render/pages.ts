/**
 * Server-rendered report pages (list and detail). Every dynamic value passes through `escapeHtml`
 * or the escape-first Markdown renderer; the response carries a CSP with no script sources at all,
 * so even a renderer bug could not run script from feed or model content.
 */
import { escapeHtml, renderMarkdown } from './markdown.ts';
import { plural } from '../../platform/plural.ts';

export const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const STYLE = `body{font:16px/1.55 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#222}
a{color:#0b57d0}header a{text-decoration:none}ul.reports{list-style:none;padding:0}ul.reports li{margin:0 0 1.2rem}
.meta{color:#666;font-size:.9rem}blockquote{border-left:3px solid #ccc;margin:0;padding-left:1rem;color:#444}
pre{background:#f4f4f4;padding:.8rem;overflow:auto}nav.pager a{margin-right:1rem}
ul.topics{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.4rem 1rem;font-size:.9rem}`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style>
<link rel="alternate" type="application/rss+xml" title="Reports" href="/api/v1/feed.xml"></head>
<body><header><a href="/reports">Insight Pipeline Reports</a> · <a href="/api/v1/feed.xml">RSS</a></header>
<main>${body}</main></body></html>`;
}

export interface PageReport {
  id: string;
  title: string;
  report_date: string;
  time_period: string;
  report_type: string;
  tldr: string;
  article_count: number;
}

export function reportListPage(reports: PageReport[], page: number, hasNext: boolean): string {
  const items = reports
    .map(
      (r) => `<li><a class="report-link" href="/reports/${escapeHtml(r.id)}">${escapeHtml(r.title)}</a>
<div class="meta">${escapeHtml(r.report_date)} · ${escapeHtml(r.time_period)} · ${escapeHtml(r.report_type)} · ${plural(r.article_count, 'article')}</div>
<div class="tldr">${escapeHtml(r.tldr)}</div></li>`,
    )
    .join('\n');
  const pager = [
    page > 1 ? `<a href="/reports?page=${page - 1}">Newer</a>` : '',
    hasNext ? `<a href="/reports?page=${page + 1}">Older</a>` : '',
  ].join('');
  return layout(
    'Reports',
    `<h1>Reports</h1>${reports.length ? `<ul class="reports">${items}</ul>` : '<p>No reports yet.</p>'}<nav class="pager">${pager}</nav>`,
  );
}

export function reportDetailPage(
  r: PageReport & { content: string; published_to: string[]; topics?: { name: string; weight: number }[] },
): string {
  const topics = (r.topics ?? [])
    .map((t) => `<li>${escapeHtml(String(t.name))} <span class="meta">${Number(t.weight) || 0}</span></li>`)
    .join('');
  return layout(
    r.title,
    `<article><h1 id="report-title">${escapeHtml(r.title)}</h1>
<div class="meta">${escapeHtml(r.report_date)} · ${escapeHtml(r.report_type)} · ${plural(r.article_count, 'article')} · published to ${escapeHtml(r.published_to.join(', '))}</div>
${topics ? `<ul id="report-topics" class="topics">${topics}</ul>` : ''}
<div id="report-content">${renderMarkdown(r.content)}</div></article>`,
  );
}

export function notFoundPage(): string {
  return layout('Not found', '<h1>Report not found</h1><p><a href="/reports">All reports</a></p>');
}
