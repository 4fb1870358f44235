import { beforeAll, describe, expect, it } from 'vitest';
import { decryptSecret } from '../../../src/platform/crypto.ts';
import { stackInfo, testDb, testEnv } from '../../support/env.ts';
import { seed } from '../../../tools/seed/webhooks.ts';
import { api, BASE, deleteNoContent, HOOK, merchant } from './helpers.ts';
import { encryptionKey } from '../../../src/platform/config/shared.ts';

type Json = any;
let a: Awaited<ReturnType<typeof merchant>>;
let b: Awaited<ReturnType<typeof merchant>>;
const client = api();

beforeAll(async () => {
  a = await merchant('MERCH_A');
  b = await merchant('MERCH_B');
});

async function create(body: unknown, headers = a.headers) {
  const res = await client.post(BASE, body, headers);
  return { res, body: (await res.json()) as Json };
}

describe('authentication', () => {
  it.each([
    ['no key', {}],
    ['unknown simple key', { 'X-UltraCart-Simple-Key': 'uck_nope' }],
    ['not a merchant key', { Authorization: 'Bearer abc' }],
  ])('%s -> 401 in the UltraCart envelope', async (_n, headers) => {
    const res = await client.get(BASE, headers as Record<string, string>);
    expect(res.status).toBe(401);
    expect(res.headers.get('UC-REST-ERROR')).toBe('Unauthorized');
    const body = (await res.json()) as Json;
    expect(body.success).toBe(false);
    expect(body.error.developer_message).toMatch(/Invalid credentials/);
  });

  it('accepts the key as a bearer token', async () => {
    const res = await client.get(BASE, { Authorization: `Bearer ${a.key}` });
    expect(res.status).toBe(200);
  });
});

describe('create and read', () => {
  it('creates a webhook with defaults and the original shape', async () => {
    const { res, body } = await create({ ...HOOK, name: 'books' });
    expect(res.status).toBe(200);
    expect(res.headers.get('Webhook-Signing-Secret')).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(body.success).toBe(true);
    const w = body.webhook;
    expect(w).toMatchObject({
      merchant_id: 'MERCH_A',
      api_version: '2017-03-01',
      authentication_type: 'none',
      compress_events: false,
      consecutive_failures: 0,
      disabled: false,
      maximum_events: 10,
      maximum_size: 900000,
      name: 'books',
      pending: 0,
      webhook_url: 'https://hooks.example.com/in',
    });
    // absent members are omitted, never null (UltraCart's SDK models are not nullable)
    const nulls: string[] = [];
    const walk = (v: unknown, at: string) => {
      if (v === null) nulls.push(at);
      else if (typeof v === 'object') for (const [k, x] of Object.entries(v as object)) walk(x, `${at}.${k}`);
    };
    walk(body, 'body');
    expect(nulls).toEqual([]);
    for (const k of ['error', 'warning']) expect(k in body).toBe(false);
    for (const k of ['next_retry_after', 'basic_password', 'iam_secret_key', 'api_user_oid'])
      expect(k in w).toBe(false);
    expect(w.event_categories).toHaveLength(1);
    expect(w.event_categories[0]).toMatchObject({ event_category: 'book', subscribed: true, any_subscribed: true });
    expect(w.event_categories[0].events.map((e: Json) => e.event_name)).toEqual([
      'book_posted',
      'book_status_changed',
      'book_unlisted',
    ]);
  });

  it('_placeholders lists every category of the catalogue', async () => {
    const { body } = await create(HOOK);
    const res = await client.get(`${BASE}?_placeholders=true`, a.headers);
    const list = (await res.json()) as Json;
    const mine = list.webhooks.find((w: Json) => w.webhook_oid === body.webhook.webhook_oid);
    expect(mine.event_categories.map((c: Json) => [c.event_category, c.any_subscribed])).toEqual([
      ['user', false],
      ['book', true],
      ['request', false],
      ['checkout', false],
      ['pipeline', false],
    ]);
  });

  it.each([
    ['True', 5],
    ['FALSE', 1],
    ['1', 5],
    ['0', 1],
    [' true ', 5],
  ] as const)('_placeholders=%s as real clients send it', async (v, categories) => {
    const { body } = await create(HOOK);
    const res = await client.get(`${BASE}?_placeholders=${encodeURIComponent(v)}`, a.headers);
    expect(res.status).toBe(200);
    const mine = ((await res.json()) as Json).webhooks.find((w: Json) => w.webhook_oid === body.webhook.webhook_oid);
    expect(mine.event_categories).toHaveLength(categories);
  });

  it('answers 400 in its envelope for a boolean it cannot read', async () => {
    const res = await client.get(`${BASE}?_placeholders=yes`, a.headers);
    expect(res.status).toBe(400);
    const body = (await res.json()) as Json;
    expect([body.success, body.error.developer_message]).toEqual([
      false,
      '_placeholders: must be true or false (also True/False, 1/0)',
    ]);
    expect(res.headers.get('UC-REST-ERROR')).toBe('Bad Request');
  });

  it('subscribes single events and keeps expansions', async () => {
    const { body } = await create({
      webhook_url: 'https://x.example.com/h',
      event_categories: [
        {
          event_category: 'pipeline',
          events: [
            { event_name: 'report_published', subscribed: true, expansion: 'sections' },
            { event_name: 'task_finished', subscribed: false },
          ],
        },
      ],
    });
    const cat = body.webhook.event_categories;
    expect(cat).toHaveLength(1);
    expect(cat[0].subscribed).toBe(false);
    expect(cat[0].events).toEqual([
      expect.objectContaining({
        event_name: 'report_published',
        subscribed: true,
        expansion: 'sections',
        supports_reflow: true,
      }),
    ]);
  });
});

describe('field rules (400 in the envelope)', () => {
  it.each([
    ['missing webhook_url', { event_categories: HOOK.event_categories }, /webhook_url is required/],
    ['bad api_version', { ...HOOK, api_version: '2020-01-01' }, /api_version must be 2017-03-01/],
    ['bad authentication_type', { ...HOOK, authentication_type: 'oauth' }, /authentication_type must be one of/],
    [
      'unknown category',
      { ...HOOK, event_categories: [{ event_category: 'orders', subscribed: true }] },
      /unknown event category orders/,
    ],
    [
      'unknown event',
      { ...HOOK, event_categories: [{ event_category: 'book', events: [{ event_name: 'order_create' }] }] },
      /unknown event order_create/,
    ],
    ['maximum_events 0', { ...HOOK, maximum_events: 0 }, /maximum_events/],
    ['maximum_events too large', { ...HOOK, maximum_events: 1001 }, /maximum_events/],
    ['maximum_size too small', { ...HOOK, maximum_size: 999 }, /maximum_size/],
    ['maximum_size too large', { ...HOOK, maximum_size: 5242881 }, /maximum_size/],
    [
      'http with customer data',
      { webhook_url: 'http://hooks.example.com/in', event_categories: [{ event_category: 'user', subscribed: true }] },
      /HTTPS is required \(subscribed events carry customer data\)/,
    ],
    ['private address', { ...HOOK, webhook_url: 'https://10.0.0.1/x' }, /private address/],
    ['not a URL', { ...HOOK, webhook_url: 'nope' }, /not a valid absolute URL/],
    [
      'aws iam without keys',
      { ...HOOK, authentication_type: 'aws iam', webhook_url: 'https://sqs.us-east-2.amazonaws.com/123456789012/q' },
      /needs iam_access_key and iam_secret_key/,
    ],
    [
      'aws iam not a queue URL',
      {
        ...HOOK,
        authentication_type: 'aws iam',
        iam_access_key: 'AKID',
        iam_secret_key: 'SECRET',
        webhook_url: 'https://example.com/x',
      },
      /SQS queue URL/,
    ],
    [
      'api_user_oid of another merchant',
      { ...HOOK, authentication_type: 'api user', api_user_oid: -1 },
      /api_user_oid/,
    ],
    ['wrong type', { ...HOOK, compress_events: 'yes' }, /compress_events/],
  ])('%s', async (_n, input, message) => {
    const { res, body } = await create(input);
    expect(res.status).toBe(400);
    expect(body.success).toBe(false);
    expect(body.error.developer_message).toMatch(message);
  });

  it('malformed JSON is a 400', async () => {
    const res = await client.post(BASE, '{"webhook_url":', a.headers);
    expect(res.status).toBe(400);
    expect(((await res.json()) as Json).success).toBe(false);
  });

  it('http to an allow-listed loopback receiver is fine for customer data in local development only', async () => {
    const local = {
      webhook_url: 'http://127.0.0.1:9/in',
      event_categories: [{ event_category: 'checkout', subscribed: true }],
    };
    expect((await create(local)).res.status).toBe(200);
    const refused = await api(testEnv({ OUTBOUND_LOOPBACK_HTTP: 'off' })).post(BASE, local, a.headers);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as Json).error.developer_message).toBe(
      'webhook_url: HTTPS is required (subscribed events carry customer data)',
    );
  });

  it('http is fine without customer data', async () => {
    const { res } = await create({ ...HOOK, webhook_url: 'http://hooks.example.com/in' });
    expect(res.status).toBe(200);
  });

  it('api_user_oid must belong to the merchant', async () => {
    const { res, body } = await create({ ...HOOK, authentication_type: 'api user', api_user_oid: b.keyId });
    expect(res.status).toBe(400);
    expect(body.error.developer_message).toBe('api_user_oid is not an API user of this merchant');
    const ok = await create({ ...HOOK, authentication_type: 'api user' });
    expect(ok.body.webhook.api_user_oid).toBe(a.keyId);
  });
});

describe('secrets', () => {
  it('generates basic credentials once, stores the password encrypted and masks it afterwards', async () => {
    const { body } = await create({ ...HOOK, authentication_type: 'basic' });
    const w = body.webhook;
    expect(w.basic_username).toMatch(/^uc_.{12}$/);
    expect(w.basic_password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const row = (
      await testDb().query<{ basic_password_enc: string }>(
        'SELECT basic_password_enc FROM webhooks.webhooks WHERE webhook_oid = $1',
        [w.webhook_oid],
      )
    )[0]!;
    expect(row.basic_password_enc).not.toContain(w.basic_password);
    expect(await decryptSecret(encryptionKey(testEnv()), row.basic_password_enc)).toBe(w.basic_password);
    const again = (await (await client.get(BASE, a.headers)).json()) as Json;
    expect(again.webhooks.find((x: Json) => x.webhook_oid === w.webhook_oid).basic_password).toBe(
      `****${w.basic_password.slice(-4)}`,
    );
  });

  it('never returns a given password or IAM secret in clear; a masked echo keeps it', async () => {
    const { body } = await create({
      ...HOOK,
      authentication_type: 'aws iam',
      iam_access_key: 'AKIDEXAMPLE',
      iam_secret_key: 'wJalrXUtnFEMI/K7MDENG',
      webhook_url: 'https://sqs.eu-west-1.amazonaws.com/123456789012/orders',
    });
    expect(body.webhook.iam_secret_key).toBe('****DENG');
    const oid = body.webhook.webhook_oid;
    const put = (await (
      await client.put(`${BASE}/${oid}`, { ...body.webhook, name: 'renamed' }, a.headers)
    ).json()) as Json;
    expect(put.webhook.name).toBe('renamed');
    expect(put.webhook.iam_secret_key).toBe('****DENG');
    const row = (
      await testDb().query<{ iam_secret_key_enc: string }>(
        'SELECT iam_secret_key_enc FROM webhooks.webhooks WHERE webhook_oid = $1',
        [oid],
      )
    )[0]!;
    expect(await decryptSecret(encryptionKey(testEnv()), row.iam_secret_key_enc)).toBe('wJalrXUtnFEMI/K7MDENG');
    const basic = await create({
      ...HOOK,
      authentication_type: 'basic',
      basic_username: 'u',
      basic_password: 'hunter2-secret',
    });
    expect(basic.body.webhook.basic_password).toBe('****cret');
    expect(JSON.stringify(basic.body)).not.toContain('hunter2');
  });
});

describe('update, paging, isolation, delete', () => {
  it('PUT keeps absent fields, changes given ones, 404 for another merchant', async () => {
    const { body } = await create({ ...HOOK, name: 'one', maximum_events: 50 });
    const oid = body.webhook.webhook_oid;
    const res = await client.put(`${BASE}/${oid}`, { compress_events: true }, a.headers);
    const w = ((await res.json()) as Json).webhook;
    expect(w).toMatchObject({ name: 'one', maximum_events: 50, compress_events: true });
    for (const [method, path, payload] of [
      ['GET', `${BASE}/${oid}/logs`, undefined],
      ['PUT', `${BASE}/${oid}`, { name: 'x' }],
      ['DELETE', `${BASE}/${oid}`, undefined],
      ['POST', `${BASE}/${oid}/reflow/book_posted`, undefined],
    ] as const) {
      const other =
        method === 'DELETE'
          ? await deleteNoContent(path, b.headers)
          : await client.request(method, path, payload, b.headers);
      expect(other.status, `${method} ${path}`).toBe(404);
    }
    const list = (await (await client.get(BASE, b.headers)).json()) as Json;
    expect(list.webhooks.some((x: Json) => x.webhook_oid === oid)).toBe(false);
  });

  it('pages with _limit/_offset and reports the result set', async () => {
    const c = await merchant('MERCH_PAGE');
    for (const n of ['w1', 'w2', 'w3']) await create({ ...HOOK, name: n }, c.headers);
    const p1 = (await (await client.get(`${BASE}?_limit=2&_offset=0`, c.headers)).json()) as Json;
    expect(p1.webhooks.map((w: Json) => w.name)).toEqual(['w1', 'w2']);
    expect(p1.metadata.result_set).toEqual({
      count: 2,
      limit: 2,
      more: true,
      next_offset: 2,
      offset: 0,
      total_records: 3,
    });
    const p2 = (await (await client.get(`${BASE}?_limit=2&_offset=2&_sort=-name`, c.headers)).json()) as Json;
    expect(p2.webhooks.map((w: Json) => w.name)).toEqual(['w1']);
    expect(p2.metadata.result_set).toEqual({ count: 1, limit: 2, more: false, offset: 2, total_records: 3 });
    for (const q of ['_limit=0', '_limit=abc', '_offset=-1', '_sort=secret']) {
      const r = await client.get(`${BASE}?${q}`, c.headers);
      expect(r.status, q).toBe(400);
    }
  });

  it('deletes by oid (204) and by URL (200 with the webhook)', async () => {
    const one = await create({ ...HOOK, webhook_url: 'https://del.example.com/1' });
    const del = await deleteNoContent(`${BASE}/${one.body.webhook.webhook_oid}`, a.headers);
    expect(del.status).toBe(204);
    expect(await del.text()).toBe('');
    expect((await client.delete(`${BASE}/${one.body.webhook.webhook_oid}`, undefined, a.headers)).status).toBe(404);
    const two = await create({ ...HOOK, webhook_url: 'https://del.example.com/2' });
    const byUrl = await client.delete(BASE, { webhook_url: 'https://del.example.com/2' }, a.headers);
    expect(byUrl.status).toBe(200);
    expect(((await byUrl.json()) as Json).webhook.webhook_oid).toBe(two.body.webhook.webhook_oid);
    expect((await client.delete(BASE, { webhook_url: 'https://del.example.com/2' }, a.headers)).status).toBe(404);
    expect((await client.delete(BASE, { webhook_url: 'https://del.example.com/2' }, b.headers)).status).toBe(404);
    expect((await client.delete(BASE, {}, a.headers)).status).toBe(400);
  });

  it('unknown paths and bad ids answer in the envelope', async () => {
    const r1 = await client.get('/rest/v2/webhook/nothing', a.headers);
    expect(r1.status).toBe(404);
    expect(((await r1.json()) as Json).success).toBe(false);
    const r2 = await client.get(`${BASE}/abc/logs`, a.headers);
    expect(r2.status).toBe(400);
    const r3 = await client.get(`${BASE}/1/logs/nope`, a.headers);
    expect(r3.status).toBe(404);
  });
});

describe('reflow', () => {
  it.each([
    ['unknown event', 'order_create', /unknown event order_create/],
    ['no reflow support', 'book_unlisted', /does not support reflow/],
    ['not subscribed', 'report_published', /not subscribed to report_published/],
  ])('%s -> 400', async (_n, event, message) => {
    const { body } = await create(HOOK);
    const res = await client.post(`${BASE}/${body.webhook.webhook_oid}/reflow/${event}`, undefined, a.headers);
    expect(res.status).toBe(400);
    expect(((await res.json()) as Json).error.developer_message).toMatch(message);
  });
});

describe('demo seed', () => {
  it('is idempotent and prints a working DEMO key', async () => {
    const ctx = { databaseUrl: stackInfo().databaseUrl, env: testEnv() as unknown as Record<string, string> };
    const first = await seed(ctx);
    const second = await seed(ctx);
    expect(second).toEqual(first);
    const key = /API key (uck_\S+)/.exec(first[0]!)![1]!;
    expect(await testDb().query('SELECT 1 FROM webhooks.merchant_keys WHERE merchant_id = $1', ['DEMO'])).toHaveLength(
      1,
    );
    const res = await client.get(BASE, { 'X-UltraCart-Simple-Key': key });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Json).success).toBe(true);
  });
});
