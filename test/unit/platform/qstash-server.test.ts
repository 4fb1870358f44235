/**
 * The QStash-compatible local server against a plain HTTP receiver: publish with forwarded headers,
 * callbacks and failure callbacks, dead-letter list and retry from it, deduplication, FIFO queues,
 * batch, cancellation and the token check.
 */
import { Receiver } from '@upstash/qstash';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QSTASH_DEV } from '../../../tools/stack/config.ts';
import { startQstashServer, type QstashServer } from '../../../tools/stack/qstash-server.ts';
import { waitFor } from '../../support/wait.ts';

interface Hit {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}
let q: QstashServer;
let receiver: Server;
let base: string;
const hits: Hit[] = [];
const failing = new Set<string>();
const slow = new Set<string>();

beforeAll(async () => {
  q = await startQstashServer({ port: 0, retryBaseMs: 20 });
  receiver = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const path = req.url ?? '/';
    hits.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString(), at: Date.now() });
    if (slow.has(path)) await new Promise((r) => setTimeout(r, 100));
    res.writeHead(failing.has(path) ? 500 : 200);
    res.end(failing.has(path) ? 'nope' : 'ok');
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
});
afterAll(async () => {
  await q.close();
  receiver.closeAllConnections();
  receiver.close();
});

const auth = { authorization: `Bearer ${QSTASH_DEV.token}` };
async function publish(path: string, body: string, headers: Record<string, string> = {}, kind = 'publish') {
  const res = await fetch(`${q.url}/v2/${kind}/${base}${path}`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json', ...headers },
    body,
  });
  return { status: res.status, json: (await res.json()) as { messageId: string; deduplicated?: boolean } };
}
const until = <T>(fn: () => T | undefined, timeoutMs = 5000) =>
  waitFor('the condition', fn, { timeoutMs, intervalMs: 20 });

describe('local QStash server', () => {
  it('answers /v2/keys with the development keys and refuses a wrong token', async () => {
    expect(await (await fetch(`${q.url}/v2/keys`)).json()).toEqual({
      current: QSTASH_DEV.currentSigningKey,
      next: QSTASH_DEV.nextSigningKey,
    });
    const res = await fetch(`${q.url}/v2/publish/${base}/x`, {
      method: 'POST',
      headers: { authorization: 'Bearer wrong' },
      body: '{}',
    });
    expect(res.status).toBe(401);
  });

  it('delivers with forwarded headers and a signature the real Receiver accepts', async () => {
    const { status, json } = await publish('/plain', '{"a":1}', { 'Upstash-Forward-X-Custom': 'yes' });
    expect(status).toBe(201);
    const hit = await until(() => hits.find((h) => h.headers['upstash-message-id'] === json.messageId));
    expect(hit.headers['x-custom']).toBe('yes');
    expect(hit.headers['upstash-retried']).toBe('0');
    const r = new Receiver({
      currentSigningKey: QSTASH_DEV.currentSigningKey,
      nextSigningKey: QSTASH_DEV.nextSigningKey,
    });
    expect(
      await r.verify({ signature: String(hit.headers['upstash-signature']), body: hit.body, url: `${base}/plain` }),
    ).toBe(true);
    await expect(
      r.verify({ signature: String(hit.headers['upstash-signature']), body: '{"a":2}', url: `${base}/plain` }),
    ).rejects.toThrow();
  });

  it('retries with backoff, then dead-letters and calls the failure callback', async () => {
    failing.add('/always-fails');
    const { json } = await publish('/always-fails', '{"x":1}', {
      'Upstash-Retries': '2',
      'Upstash-Failure-Callback': `${base}/failure-cb`,
    });
    const cb = await until(() =>
      hits.find((h) => h.path === '/failure-cb' && JSON.parse(h.body).sourceMessageId === json.messageId),
    );
    const payload = JSON.parse(cb.body);
    expect(payload).toMatchObject({ status: 500, retried: 2, maxRetries: 2, url: `${base}/always-fails` });
    expect(Buffer.from(payload.body, 'base64').toString()).toBe('nope');
    expect(Buffer.from(payload.sourceBody, 'base64').toString()).toBe('{"x":1}');
    const attempts = hits.filter((h) => h.headers['upstash-message-id'] === json.messageId);
    expect(attempts.map((h) => h.headers['upstash-retried'])).toEqual(['0', '1', '2']);
    // the backoff of retryBaseMs 20: 20 ms before the first retry, 40 before the second; load only adds to a wait,
    // so each gap is at least its backoff (1 ms of slack for the clock's rounding)
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(20 - 1);
    expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(40 - 1);
    const dlq = (await (await fetch(`${q.url}/v2/dlq`, { headers: auth })).json()) as {
      messages: { messageId: string; dlqId: string }[];
    };
    const dead = dlq.messages.find((m) => m.messageId === json.messageId)!;
    expect(dead).toBeDefined();
    failing.delete('/always-fails');
    expect((await fetch(`${q.url}/v2/dlq/retry/${dead.dlqId}`, { method: 'POST', headers: auth })).status).toBe(200);
    await until(() => q.events.find((e) => e.messageId === json.messageId && e.state === 'DELIVERED'));
  });

  it('calls the success callback with the response', async () => {
    const { json } = await publish('/with-cb', '{}', { 'Upstash-Callback': `${base}/cb` });
    const cb = await until(() =>
      hits.find((h) => h.path === '/cb' && JSON.parse(h.body).sourceMessageId === json.messageId),
    );
    expect(JSON.parse(cb.body)).toMatchObject({ status: 200, retried: 0 });
  });

  it('deduplicates by id, delays, and delivers a queue in FIFO order one at a time', async () => {
    const a = await publish('/dedup', '{}', { 'Upstash-Deduplication-Id': 'same-id' });
    const b = await publish('/dedup', '{}', { 'Upstash-Deduplication-Id': 'same-id' });
    expect(b.json).toMatchObject({ messageId: a.json.messageId, deduplicated: true });
    const t0 = Date.now();
    const d = await publish('/delayed', '{}', { 'Upstash-Delay': '1s' });
    const delayed = await until(() => hits.find((h) => h.headers['upstash-message-id'] === d.json.messageId), 3000);
    expect(delayed.at - t0).toBeGreaterThanOrEqual(950);
    slow.add('/fifo');
    for (let i = 0; i < 5; i++) await publish('/fifo', JSON.stringify({ i }), {}, 'enqueue/q1');
    await until(() => (hits.filter((h) => h.path === '/fifo').length === 5 ? true : undefined));
    const fifo = hits.filter((h) => h.path === '/fifo');
    expect(fifo.map((h) => JSON.parse(h.body).i)).toEqual([0, 1, 2, 3, 4]);
    for (let i = 1; i < fifo.length; i++) expect(fifo[i]!.at - fifo[i - 1]!.at).toBeGreaterThanOrEqual(95);
  });

  it('accepts batches, cancels delayed messages and rejects bad input', async () => {
    const res = await fetch(`${q.url}/v2/batch`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify([
        { destination: `${base}/b1`, body: '1' },
        { destination: `${base}/b2`, body: '2' },
      ]),
    });
    expect(((await res.json()) as unknown[]).length).toBe(2);
    await until(() => (hits.some((h) => h.path === '/b2') ? true : undefined));
    const later = await publish('/cancelled', '{}', { 'Upstash-Delay': '2s' });
    expect(
      (await fetch(`${q.url}/v2/messages/${later.json.messageId}`, { method: 'DELETE', headers: auth })).status,
    ).toBe(202);
    expect((await publish('/x', '{}', { 'Upstash-Delay': 'soon' })).status).toBe(400);
    expect((await publish('/x', '{}', { 'Upstash-Retries': '-1' })).status).toBe(400);
    expect((await fetch(`${q.url}/v2/publish/not-a-url`, { method: 'POST', headers: auth, body: '{}' })).status).toBe(
      400,
    );
    await new Promise((r) => setTimeout(r, 2200));
    expect(hits.some((h) => h.path === '/cancelled')).toBe(false);
  });
});
