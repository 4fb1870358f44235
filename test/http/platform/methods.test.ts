/**
 * Every route of every function, asked with every method it does not serve: a 405 in the function's
 * envelope with `Allow` naming the methods the path does serve (HEAD beside GET), never a 404 or a 5xx.
 * The expected methods come from the routes as registered (`app.routes`), matched here by a pattern of
 * this test's own, not by the router the product asks.
 */
import { describe, expect, it } from 'vitest';
import { app as delivery } from '../../../functions/delivery.ts';
import { app as insights } from '../../../functions/insights.ts';
import { app as marketplace } from '../../../functions/marketplace.ts';
import { app as pipeline } from '../../../functions/pipeline.ts';
import { workerClient } from '../../support/env.ts';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** A concrete path for a route pattern: `:p{a|b}` takes `a`, `:p` takes `1`, `*` takes `npm/packages/x`. */
function concrete(pattern: string): string {
  return pattern
    .replace(/:\w+\{([^|}]+)[^}]*\}/g, '$1')
    .replace(/:\w+/g, '1')
    .replace(/\*/g, 'npm/packages/x');
}

function matches(pattern: string, path: string): boolean {
  const re = pattern
    .split('/')
    .map((seg) => {
      const alt = /^:\w+\{(.+)\}$/.exec(seg);
      if (alt) return `(?:${alt[1]})`;
      if (seg.startsWith(':')) return '[^/]+';
      if (seg === '*') return '.*';
      return seg.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^${re}$`).test(path);
}

const APPS = [
  ['insights', insights],
  ['marketplace', marketplace],
  ['pipeline', pipeline],
  ['delivery', delivery],
] as const;

describe.each(APPS)('%s: a wrong method on a known path', (_name, app) => {
  const routes = app.routes.filter((r) => r.method !== 'ALL');
  const paths = [...new Set(routes.map((r) => concrete(r.path)))];
  const client = workerClient({ fetch: app.fetch } as never);

  it.each(paths)('%s', async (path) => {
    const served = new Set(routes.filter((r) => matches(r.path, path)).map((r) => r.method));
    expect(served.size, `the test's matcher finds the route of ${path}`).toBeGreaterThan(0);
    const expected = METHODS.filter((m) => served.has(m));
    if (served.has('GET')) expected.splice(1, 0, 'HEAD');
    for (const method of METHODS.filter((m) => !served.has(m))) {
      const res = await client.request(method, path);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get('allow'), `${method} ${path}`).toBe(expected.join(', '));
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      await res.text();
    }
  });
});

// delivery is left out: its signature check answers 401 before any route, for every path
describe('a path no method serves is still a 404', () => {
  it.each(APPS.slice(0, 3))('%s', async (_name, app) => {
    const res = await workerClient({ fetch: app.fetch } as never).request('POST', '/no/such/path');
    expect(res.status).toBe(404);
  });
});
