/**
 * The queue round trip on the test stack: publish through @upstash/qstash's Client -> the local
 * QStash-compatible server -> signed callback over HTTP -> the delivery function verifies it with the
 * Receiver -> row written. Forged, re-targeted and expired signatures are refused with 401, and a
 * message whose signature never verifies is retried and dead-lettered.
 */
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import delivery from '../../../functions/delivery.ts';
import { publish } from '../../../src/platform/queue.ts';
import { queueMail } from '../../../src/platform/mail-queue.ts';
import { QSTASH_DEV } from '../../../tools/stack/config.ts';
import { startQstashServer, type QstashServer } from '../../../tools/stack/qstash-server.ts';
import { stackInfo, testDb, testEnv } from '../../support/env.ts';
import { serveWorker, type Served } from '../../support/serve.ts';
import { waitFor } from '../../support/wait.ts';

let served: Served;
beforeAll(async () => {
  served = await serveWorker(delivery, (url) => testEnv({ DELIVERY_URL: url }));
});
afterAll(async () => served.close());

const until = <T>(fn: () => Promise<T | undefined>, timeoutMs = 15_000) => waitFor('the condition', fn, { timeoutMs });

async function echoRow(messageId: string) {
  const rows = await testDb().query<{ payload: unknown }>(
    'SELECT payload FROM platform.queue_echoes WHERE message_id = $1',
    [messageId],
  );
  return rows[0];
}

async function sign(claims: Record<string, unknown>, opts: { key?: string; sub: string; exp?: number; body: string }) {
  const { createHash } = await import('node:crypto');
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ body: createHash('sha256').update(opts.body).digest('base64url'), ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer('Upstash')
    .setSubject(opts.sub)
    .setIssuedAt(now - 1)
    .setNotBefore(now - 1)
    .setExpirationTime(opts.exp ?? now + 300)
    .sign(new TextEncoder().encode(opts.key ?? QSTASH_DEV.currentSigningKey));
}

describe('queue round trip', () => {
  it('publishes, delivers a signed callback and writes the row', async () => {
    const env = testEnv({ DELIVERY_URL: served.url });
    const { messageId } = await publish(env, { path: '/platform/echo', body: { hello: 'queue' } });
    expect(messageId).toMatch(/^msg_/);
    const row = await until(() => echoRow(messageId));
    expect(row.payload).toEqual({ hello: 'queue' });
  });

  it('is used by @upstash/qstash in development mode (QSTASH_DEV) like the official dev server', async () => {
    const { Client } = await import('@upstash/qstash');
    const port = new URL(stackInfo().qstashUrl).port;
    const saved = process.env.QSTASH_DEV_PORT;
    process.env.QSTASH_DEV_PORT = port;
    try {
      const client = new Client({ devMode: true });
      const { messageId } = (await client.publishJSON({
        url: `${served.url}/platform/echo`,
        body: { via: 'devMode' },
      })) as { messageId: string };
      expect((await until(() => echoRow(messageId))).payload).toEqual({ via: 'devMode' });
    } finally {
      if (saved === undefined) delete process.env.QSTASH_DEV_PORT;
      else process.env.QSTASH_DEV_PORT = saved;
    }
  });

  it('honours a delay', async () => {
    const env = testEnv({ DELIVERY_URL: served.url });
    const t0 = Date.now();
    const { messageId } = await publish(env, { path: '/platform/echo', body: { delayed: true }, delaySeconds: 1 });
    expect(await echoRow(messageId)).toBeUndefined();
    await until(() => echoRow(messageId));
    expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
  });

  describe('signature checks at the delivery function', () => {
    const body = JSON.stringify({ forged: true });
    const cases: [string, (url: string) => Promise<Record<string, string>>][] = [
      ['no signature', async () => ({})],
      [
        'signed with a foreign key',
        async (url) => ({
          'upstash-signature': await sign({}, { key: 'sig_notTheRealKeyAtAll000000000', sub: url, body }),
        }),
      ],
      [
        're-signed for another URL',
        async () => ({ 'upstash-signature': await sign({}, { sub: 'http://127.0.0.1:1/platform/echo', body }) }),
      ],
      [
        'expired',
        async (url) => ({
          'upstash-signature': await sign({}, { sub: url, body, exp: Math.floor(Date.now() / 1000) - 600 }),
        }),
      ],
      [
        'over a different body',
        async (url) => ({ 'upstash-signature': await sign({}, { sub: url, body: '{"other":1}' }) }),
      ],
    ];
    it.each(cases)('refuses %s with 401 and writes nothing', async (_name, headers) => {
      const url = `${served.url}/platform/echo`;
      const id = `forged-${Math.random()}`;
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'upstash-message-id': id, ...(await headers(url)) },
        body,
      });
      expect(res.status).toBe(401);
      expect(await echoRow(id)).toBeUndefined();
    });

    it('accepts the same request correctly signed with the next key (key rotation)', async () => {
      const url = `${served.url}/platform/echo`;
      const id = `rotated-${Math.random()}`;
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'upstash-message-id': id,
          'upstash-signature': await sign({}, { key: QSTASH_DEV.nextSigningKey, sub: url, body }),
        },
        body,
      });
      expect(res.status).toBe(200);
      expect((await echoRow(id))?.payload).toEqual({ forged: true });
    });
  });

  it('passes a retry-delay expression through to QStash', async () => {
    let rogue: QstashServer | undefined;
    try {
      rogue = await startQstashServer({ port: 0, signingKey: 'sig_rogueKeyThatNobodyTrusts0000', retryBaseMs: 5000 });
      const env = testEnv({ DELIVERY_URL: served.url, QSTASH_URL: rogue.url });
      const { messageId } = await publish(env, {
        path: '/platform/echo',
        body: {},
        retries: 2,
        retryDelay: '50 + retried * 100',
      });
      const dead = await until(async () => rogue!.dlq().find((m) => m.messageId === messageId), 5000);
      const active = rogue.events.filter((e) => e.messageId === messageId && e.state === 'ACTIVE').map((e) => e.time);
      expect(dead.retried).toBe(2);
      expect(active).toHaveLength(3);
      expect(active[2]! - active[0]!).toBeLessThan(2000);
    } finally {
      await rogue?.close();
    }
  });

  it('retries a message whose signature is refused until it is dead-lettered', async () => {
    let rogue: QstashServer | undefined;
    try {
      rogue = await startQstashServer({ port: 0, signingKey: 'sig_rogueKeyThatNobodyTrusts0000', retryBaseMs: 20 });
      const env = testEnv({ DELIVERY_URL: served.url, QSTASH_URL: rogue.url });
      const { messageId } = await publish(env, { path: '/platform/echo', body: { tampered: true }, retries: 2 });
      const dead = await until(async () => rogue!.dlq().find((m) => m.messageId === messageId));
      expect(dead.retried).toBe(2);
      expect(dead.lastResponse?.status).toBe(401);
      const attempts = rogue.events.filter((e) => e.messageId === messageId && e.state === 'ACTIVE');
      expect(attempts).toHaveLength(3);
      expect(await echoRow(messageId)).toBeUndefined();
    } finally {
      await rogue?.close();
    }
  });
});

describe('mail round trip', () => {
  it('queues a mail that the delivery function sends into the mail catcher, once', async () => {
    const env = testEnv({ DELIVERY_URL: served.url });
    const subject = `Welcome ${Math.random().toString(36).slice(2)}`;
    await queueMail(env, {
      to: 'student@school.edu',
      subject,
      text: 'Hello <b>there</b>\n\nSecond line',
      key: `test-${subject}`,
    });
    await queueMail(env, {
      to: 'student@school.edu',
      subject,
      text: 'Hello <b>there</b>\n\nSecond line',
      key: `test-${subject}`,
    });
    const mailUrl = stackInfo().mailUrl;
    type Caught = {
      id: string;
      from: string;
      to: string[];
      subject: string;
      text: string;
      html: string;
      receivedAt: string;
    };
    const mail = await until(async () =>
      ((await (await fetch(`${mailUrl}/api/messages`)).json()) as Caught[]).find((m) => m.subject === subject),
    );
    expect(mail.to).toEqual(['student@school.edu']);
    expect(mail.from).toBe('Local Stack <no-reply@local.test>');
    expect(mail.text).toBe('Hello <b>there</b>\n\nSecond line');
    expect(mail.html).toBe('<p>Hello &lt;b&gt;there&lt;/b&gt;</p><p>Second line</p>');
    await new Promise((r) => setTimeout(r, 500));
    const all = (await (await fetch(`${mailUrl}/api/messages`)).json()) as Caught[];
    expect(all.filter((m) => m.subject === subject)).toHaveLength(1);
    expect(Date.parse(all[0]!.receivedAt)).toBeGreaterThanOrEqual(Date.parse(all[all.length - 1]!.receivedAt));
  });

  it('the mail catcher refuses a wrong API key and incomplete mail', async () => {
    const mailUrl = stackInfo().mailUrl;
    const bad = await fetch(`${mailUrl}/emails`, {
      method: 'POST',
      headers: { authorization: 'Bearer nope', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(bad.status).toBe(401);
    const incomplete = await fetch(`${mailUrl}/emails`, {
      method: 'POST',
      headers: { authorization: `Bearer ${testEnv().MAIL_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ from: 'a@b.c', to: 'x@y.z' }),
    });
    expect(incomplete.status).toBe(422);
  });
});
