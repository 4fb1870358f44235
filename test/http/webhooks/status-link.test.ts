/**
 * The status page through a signed link: the API issues it with the merchant key; the link opens the
 * page without a key until it expires; an expired, altered or foreign token, or one signed with another
 * key, is a 403 page saying which; bad requests for a link are 400, another merchant's webhook 404.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { issueStatusToken } from '../../../src/webhooks/status-link.ts';
import { testEnv } from '../../support/env.ts';
import { api, BASE, HOOK, merchant } from './helpers.ts';

type Json = any;
let m: Awaited<ReturnType<typeof merchant>>;
let other: Awaited<ReturnType<typeof merchant>>;
let oid: number;
let otherOid: number;
const client = api();

async function hook(headers: Record<string, string>): Promise<number> {
  const res = await client.post(BASE, { ...HOOK, name: 'linked' }, headers);
  return ((await res.json()) as Json).webhook.webhook_oid;
}

async function link(id: number, body?: unknown, headers = m.headers) {
  const res = await client.post(`${BASE}/${id}/status_link`, body, headers);
  return { res, body: (await res.json()) as Json };
}

/** Opens a link as a browser would: no key, the path and query of the URL the API answered. */
async function open(url: string) {
  const u = new URL(url);
  const res = await client.get(u.pathname + u.search);
  return { res, html: await res.text() };
}

beforeAll(async () => {
  m = await merchant('MERCH_STATUS_LINK');
  other = await merchant('MERCH_STATUS_LINK_OTHER');
  oid = await hook(m.headers);
  otherOid = await hook(other.headers);
});

describe('status link', () => {
  it('is issued with the key and opens the page without one', async () => {
    const before = Date.now();
    const { res, body } = await link(oid);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(body.success).toBe(true);
    const url = new URL(body.status_link.url);
    expect(url.pathname).toBe(`${BASE}/${oid}/status`);
    expect(url.searchParams.get('token')).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const expires = Date.parse(body.status_link.expires_dts);
    expect(expires - before).toBeGreaterThan(899_000);
    expect(expires - before).toBeLessThanOrEqual(901_000);
    const page = await open(body.status_link.url);
    expect(page.res.status).toBe(200);
    expect(page.res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.html).toContain(`<title>Webhook ${oid} status</title>`);
    // without key or token the page still needs the key
    expect((await client.get(`${BASE}/${oid}/status`)).status).toBe(401);
  });

  it('expires', async () => {
    const { body } = await link(oid, { expires_in_seconds: 1 });
    expect((await open(body.status_link.url)).res.status).toBe(200);
    await new Promise((r) => setTimeout(r, 2100));
    const page = await open(body.status_link.url);
    expect(page.res.status).toBe(403);
    expect(page.res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.html).toContain('data-reason="expired"');
    expect(page.html).toContain('This link has expired');
    expect(page.html).not.toContain('linked');
  });

  it('refuses altered, foreign and otherwise-signed tokens', async () => {
    const { body } = await link(oid);
    const url = new URL(body.status_link.url);
    const token = url.searchParams.get('token')!;
    const refused = async (path: string) => {
      const page = await open(`http://localhost${path}`);
      expect(page.res.status).toBe(403);
      expect(page.html).toContain('data-reason="invalid"');
    };
    const flipped = token.slice(0, -2) + (token.at(-2) === 'A' ? 'B' : 'A') + token.at(-1);
    await refused(`${BASE}/${oid}/status?token=${flipped}`);
    await refused(`${BASE}/${otherOid}/status?token=${token}`); // another webhook's page
    await refused(`${BASE}/${oid}/status?token=`);
    await refused(`${BASE}/${oid}/status?token=not-a-token`);
    const elsewhere = testEnv({ ENCRYPTION_KEY: btoa('another-key-of-exactly-32-bytes!') });
    const foreign = await issueStatusToken(elsewhere, 'MERCH_STATUS_LINK', oid, 600);
    await refused(`${BASE}/${oid}/status?token=${foreign.token}`);
    // a valid token of one merchant does not open another merchant's webhook even if re-targeted
    const mine = await issueStatusToken(testEnv(), 'MERCH_STATUS_LINK', otherOid, 600);
    const page = await open(`http://localhost${BASE}/${otherOid}/status?token=${mine.token}`);
    expect(page.res.status).toBe(404);
  });

  it.each([
    ['zero', { expires_in_seconds: 0 }],
    ['over an hour', { expires_in_seconds: 3601 }],
    ['a string', { expires_in_seconds: '60' }],
    ['a fraction', { expires_in_seconds: 1.5 }],
    ['an unknown member', { expires: 60 }],
  ])('a request for a link with %s is a 400', async (_n, body) => {
    const r = await link(oid, body);
    expect(r.res.status).toBe(400);
    expect(r.body.success).toBe(false);
  });

  it('needs the key, and only for the merchant’s own webhooks', async () => {
    expect((await link(oid, undefined, {})).res.status).toBe(401);
    expect((await link(otherOid)).res.status).toBe(404);
    expect((await link(2_000_000_000)).res.status).toBe(404);
  });
});
