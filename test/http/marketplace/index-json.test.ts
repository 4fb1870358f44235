/** `GET /` of the marketplace: the listing page for a browser, an index in JSON for `Accept: application/json`. */
import { describe, expect, it } from 'vitest';
import marketplace from '../../../functions/marketplace.ts';
import { workerClient } from '../../support/env.ts';

describe('marketplace GET /', () => {
  const client = workerClient(marketplace);

  it('answers JSON naming the API to a client that asks for JSON', async () => {
    const res = await client.get('/', { accept: 'application/json' });
    expect(res.status).toBe(200);
    expect(res.headers.get('vary')).toMatch(/accept/i);
    const body = (await res.json()) as { name: string; examples: { method: string; path: string }[] };
    expect(body.name).toBe('Textbook marketplace');
    const listing = body.examples.find((e) => e.method === 'GET')!;
    expect((await client.get(listing.path)).status).toBe(200);
  });

  it('answers a browser the listing page', async () => {
    const res = await client.get('/', { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toContain('<form');
  });
});
