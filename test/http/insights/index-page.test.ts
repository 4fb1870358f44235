/** `GET /` of insights: JSON for API clients, a page for browsers, each linking the OpenAPI document. */
import { describe, expect, it } from 'vitest';
import insights from '../../../functions/insights.ts';
import { workerClient } from '../../support/env.ts';

describe('insights GET /', () => {
  const client = workerClient(insights);

  it('answers JSON naming the OpenAPI document, whose link works', async () => {
    const res = await client.get('/', { accept: 'application/json' });
    expect(res.status).toBe(200);
    expect(res.headers.get('vary')).toMatch(/accept/i);
    const body = (await res.json()) as { name: string; links: { rel: string; href: string }[] };
    const desc = body.links.find((l) => l.rel === 'service-desc')!;
    expect(desc.href).toBe('/openapi.json');
    const doc = await client.get(desc.href);
    expect(doc.status).toBe(200);
    expect(((await doc.json()) as { openapi: string }).openapi).toMatch(/^3\./);
  });

  it('answers a browser an HTML page under a CSP without unsafe-inline', async () => {
    const res = await client.get('/', { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await res.text();
    expect(html).toContain('<a href="/openapi.json">');
    expect(html).toContain('/v3/systems/npm/packages/express');
  });

  it('a client that names no type gets JSON', async () => {
    const res = await client.get('/');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });
});
