/**
 * Inside workerd (the Workers runtime): the real Neon driver (HTTP and WebSocket paths) through the
 * local proxy, the QStash Receiver, jose, Web Crypto, and the delivery function's fetch.
 */
import { env } from 'cloudflare:workers';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import worker from '../../functions/delivery.ts';
import { createDb } from '../../src/platform/db.ts';
import type { Env } from '../../src/platform/env.ts';
import { decryptSecret, encryptSecret, hashPassword, verifyPassword } from '../../src/platform/crypto.ts';
import { encryptionKey, queueReceiverConfig } from '../../src/platform/config/shared.ts';

const bindings = env as unknown as Env;

async function qstashSignature(url: string, body: string, key: string, exp = 300): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(body)));
  const hash = btoa(String.fromCharCode(...digest))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ body: hash })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer('Upstash')
    .setSubject(url)
    .setIssuedAt(now)
    .setNotBefore(now)
    .setExpirationTime(now + exp)
    .sign(new TextEncoder().encode(key));
}

function ctx() {
  const pending: Promise<unknown>[] = [];
  return { pending, waitUntil: (p: Promise<unknown>) => void pending.push(p), passThroughOnException() {}, props: {} };
}

describe('platform inside workerd', () => {
  it('queries through neon() over HTTP and a Pool transaction over WebSocket', async () => {
    const db = createDb(bindings);
    const [row] = await db.query<{ one: number; runtime: string }>("SELECT 1::int AS one, 'workerd'::text AS runtime");
    expect(row).toEqual({ one: 1, runtime: 'workerd' });
    const n = await db.transaction(async (tx) => {
      const [r] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM platform.schema_migrations');
      return r!.n;
    });
    expect(n).toBeGreaterThan(0);
    await db.close();
  });

  it('serves /healthz through the delivery worker', async () => {
    const c = ctx();
    const res = await worker.fetch(new Request('http://delivery.test/healthz'), bindings, c as never);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ function: 'delivery', ok: true });
    await Promise.all(c.pending);
  });

  it('verifies QStash signatures with the Receiver: good one accepted, forged and expired refused', async () => {
    const body = JSON.stringify({ from: 'workerd' });
    const url = `${bindings.DELIVERY_URL}/platform/echo`;
    const id = `workerd-${crypto.randomUUID()}`;
    const send = async (signature: string) => {
      const c = ctx();
      const res = await worker.fetch(
        new Request(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'upstash-signature': signature, 'upstash-message-id': id },
          body,
        }),
        bindings,
        c as never,
      );
      await Promise.all(c.pending);
      return res.status;
    };
    expect(await send(await qstashSignature(url, body, 'sig_forgedKey000000000000000000'))).toBe(401);
    expect(
      await send(await qstashSignature(url, body, queueReceiverConfig(bindings).QSTASH_CURRENT_SIGNING_KEY, -60)),
    ).toBe(401);
    expect(
      await send(
        await qstashSignature(
          'http://elsewhere.test/platform/echo',
          body,
          queueReceiverConfig(bindings).QSTASH_CURRENT_SIGNING_KEY,
        ),
      ),
    ).toBe(401);
    expect(await send(await qstashSignature(url, body, queueReceiverConfig(bindings).QSTASH_CURRENT_SIGNING_KEY))).toBe(
      200,
    );
    const db = createDb(bindings);
    expect(await db.query('SELECT payload FROM platform.queue_echoes WHERE message_id = $1', [id])).toEqual([
      { payload: { from: 'workerd' } },
    ]);
    await db.close();
  });

  it('runs Web Crypto: AES-GCM secrets and PBKDF2 at the Workers maximum of 100k iterations', async () => {
    const stored = await encryptSecret(encryptionKey(bindings), 'api-key');
    expect(await decryptSecret(encryptionKey(bindings), stored)).toBe('api-key');
    const hash = await hashPassword('pw-in-workerd');
    expect(await verifyPassword('pw-in-workerd', hash)).toBe(true);
  });
});
