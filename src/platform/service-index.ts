/**
 * `GET /` of a public function: what the service is and where its API description and docs are, as a
 * small HTML page for a browser and as JSON for `Accept: application/json` (the first type the client
 * prefers of the two; a client that names neither gets JSON, as an API's clients expect).
 */
import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import { escapeHtml } from './html.ts';

export interface ServiceIndex {
  name: string;
  description: string;
  /** Where to read more: the OpenAPI document, docs, pages. Paths on this service or absolute URLs. */
  links: { rel: string; href: string; title: string }[];
  /** A few example requests, one line each. */
  examples: { title: string; method: string; path: string }[];
}

const STYLE =
  'body{font:16px/1.55 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#222}code{font-size:.9em}li{margin:.2rem 0}';
/** The page's one style element is allowed by its hash: no `unsafe-inline`. */
const CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

/** Whether the request prefers HTML: `text/html` named before (or without) `application/json`. */
export function prefersHtml(accept: string | undefined): boolean {
  const types = (accept ?? '')
    .toLowerCase()
    .split(',')
    .map((t) => t.split(';')[0]!.trim());
  const html = types.indexOf('text/html');
  const json = types.indexOf('application/json');
  return html >= 0 && (json < 0 || html < json);
}

function page(index: ServiceIndex): string {
  const links = index.links.map((l) => `<li><a href="${escapeHtml(l.href)}">${escapeHtml(l.title)}</a></li>`).join('');
  const examples = index.examples
    .map((e) => {
      const target =
        e.method === 'GET'
          ? `<a href="${escapeHtml(e.path)}"><code>${escapeHtml(e.path)}</code></a>`
          : `<code>${escapeHtml(e.path)}</code>`;
      return `<li>${escapeHtml(e.title)}: <code>${escapeHtml(e.method)}</code> ${target}</li>`;
    })
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(index.name)}</title><style>${STYLE}</style></head><body><main><h1>${escapeHtml(index.name)}</h1><p>${escapeHtml(index.description)}</p><h2>Read more</h2><ul>${links}</ul><h2>Try</h2><ul>${examples}</ul></main></body></html>`;
}

/** Whether the request prefers JSON: `application/json` named before (or without) `text/html`. */
export function prefersJson(accept: string | undefined): boolean {
  const types = (accept ?? '')
    .toLowerCase()
    .split(',')
    .map((t) => t.split(';')[0]!.trim());
  const json = types.indexOf('application/json');
  return json >= 0 && !prefersHtml(accept);
}

export function serviceIndex(index: ServiceIndex) {
  return (c: Context) => {
    c.header('vary', 'accept');
    if (!prefersHtml(c.req.header('accept'))) return c.json(index);
    return c.html(page(index), 200, { 'content-security-policy': CSP, 'x-content-type-options': 'nosniff' });
  };
}
