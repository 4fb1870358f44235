/**
 * Live and reflowed events keep one contract: an object's live event (written by the marketplace when
 * a user signs up or posts a book, delivered through the queue) and its reflowed event
 * (`POST .../webhooks/{oid}/reflow/{event_name}`) reach the receiver as the same JSON, and both pass
 * the event's schema. Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import delivery from '../../../functions/delivery.ts';
import type { Env } from '../../../src/platform/env.ts';
import { readBody } from '../../../src/webhooks/payload.ts';
import { MARKETPLACE_EVENTS } from '../../../src/marketplace/events.ts';
import { PIPELINE_EVENTS } from '../../../src/pipeline/events.ts';
import { stackInfo, testDb, testEnv } from '../../support/env.ts';
import { serveWorker, type Served } from '../../support/serve.ts';
import { waitFor } from '../../support/wait.ts';
import { BOOK, client as marketplace, makeUser, waitForMail } from '../marketplace/helpers.ts';
import { api, BASE, merchant } from './helpers.ts';
import { startReceiver, type Received } from './receiver.ts';

type Json = any;
const EVENT_CONTRACTS = { ...MARKETPLACE_EVENTS, ...PIPELINE_EVENTS };
type EventName = keyof typeof EVENT_CONTRACTS;
const BOOKS = { event_category: 'book', events: [{ event_name: 'book_posted' }] };
let served: Served;
let env: Env;
let m: Awaited<ReturnType<typeof merchant>>;

beforeAll(async () => {
  served = await serveWorker(delivery, (url) => testEnv({ DELIVERY_URL: url }));
  env = testEnv({ DELIVERY_URL: served.url, MARKETPLACE_URL: 'https://market.example.edu' });
  m = await merchant('MERCH_REFLOW');
  // Nothing older is delivered to this file's webhooks, and other suites' webhooks stay quiet.
  await testDb().query('UPDATE webhooks.outbox SET fanned_out_at = now() WHERE fanned_out_at IS NULL');
  await testDb().query('UPDATE webhooks.webhooks SET disabled = true');
});

afterAll(async () => {
  await testDb().query('UPDATE webhooks.webhooks SET disabled = true');
  await served.close();
});

async function createHook(url: string, events: Record<string, unknown>[]): Promise<number> {
  const body = { webhook_url: url, maximum_events: 1000, event_categories: events };
  const res = await api(env).post(BASE, body, m.headers);
  const created = (await res.json()) as Json;
  expect(res.status, JSON.stringify(created)).toBe(200);
  return created.webhook.webhook_oid;
}

/** Every delivered item `{<name>: payload}` for the object `id`, as the JSON text the receiver got. */
async function itemsFor(received: Received[], name: EventName, id: string): Promise<string[]> {
  const items = (await Promise.all(received.filter((r) => r.status === 200).map((r) => readBody(r.body)))).flat();
  const objectId = EVENT_CONTRACTS[name].objectId as (p: unknown) => string;
  return items.filter((i) => i[name] !== undefined && objectId(i[name]) === id).map((i) => JSON.stringify(i[name]));
}

/** Reflows `name` to the webhook and returns the live and the reflowed JSON of object `id`. */
async function liveThenReflowed(rec: { received: Received[] }, oid: number, name: EventName, id: string) {
  const count = async () => (await itemsFor(rec.received, name, id)).length;
  await waitFor(`live ${name}`, async () => (await count()) === 1, { timeoutMs: 30_000 });
  const res = await api(env).post(`${BASE}/${oid}/reflow/${name}`, undefined, m.headers);
  expect(await res.json()).toMatchObject({ reflow: { event_name: name, queued: true }, success: true });
  await waitFor(`reflowed ${name}`, async () => (await count()) === 2, { timeoutMs: 30_000 });
  const [live, reflowed] = await itemsFor(rec.received, name, id);
  return [live!, reflowed!] as const;
}

describe('a live event and a reflowed event of the same object are the same JSON', () => {
  it('book_posted: the book as POST /api/books/postBook answered it', async () => {
    const rec = await startReceiver(() => 200);
    try {
      const oid = await createHook(`${rec.url}/books`, [BOOKS]);
      const owner = await makeUser();
      const data = { ...BOOK, name: 'Reflow and live' };
      const res = await marketplace(env).post('/api/books/postBook', { data }, owner.auth);
      expect(res.status).toBe(200);
      const book = ((await res.json()) as Json).data.book;
      const [live, reflowed] = await liveThenReflowed(rec, oid, 'book_posted', book._id);
      expect(reflowed).toBe(live);
      expect(JSON.parse(live)).toEqual(book);
      expect(EVENT_CONTRACTS.book_posted.schema.safeParse(JSON.parse(reflowed)).success).toBe(true);
      // Both queue rows are cut into batches by the size of the item as it was sent.
      const sizes = await testDb().query<{ size: number }>(
        `SELECT size FROM webhooks.queue WHERE webhook_oid = $1 AND payload->>'_id' = $2 ORDER BY queue_id`,
        [oid, book._id],
      );
      const sent = Buffer.byteLength(`{"book_posted":${live}}`);
      expect(sizes.map((r) => r.size)).toEqual([sent, sent]);
    } finally {
      await rec.close();
    }
  });

  it('user_signup: the user as the confirmation link answered it', async () => {
    const rec = await startReceiver(() => 200);
    try {
      // The user category carries customer data (HTTPS required); the loopback receiver speaks http,
      // which the local-development setting of the test stack (OUTBOUND_LOOPBACK_HTTP=on) allows.
      const oid = await createHook(`${rec.url}/users`, [
        { event_category: 'user', events: [{ event_name: 'user_signup' }] },
      ]);
      const email = `reflow${Date.now().toString(36)}@school.edu`;
      const signup = {
        emailAddress: email,
        password: 'secret-pass-1',
        firstName: 'Ada',
        lastName: 'Reflow',
        university: 'University of Rochester',
        CMC: '1234',
        venmoUsername: '@ada-venmo',
      };
      expect((await marketplace(env).post('/api/auth/signup', { data: signup })).status).toBe(201);
      const mail = await waitForMail(stackInfo().mailUrl, email, 'Confirm your e-mail');
      const link = /https:\/\/market\.example\.edu(\/api\/auth\/confirm\/[A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
      const confirmed = await marketplace(env).get(link);
      expect(confirmed.status).toBe(201);
      const user = ((await confirmed.json()) as Json).data.user;
      const [live, reflowed] = await liveThenReflowed(rec, oid, 'user_signup', user._id);
      expect(reflowed).toBe(live);
      expect(JSON.parse(live)).toEqual(user);
      expect(EVENT_CONTRACTS.user_signup.schema.safeParse(JSON.parse(reflowed)).success).toBe(true);
    } finally {
      await rec.close();
    }
  });
});
