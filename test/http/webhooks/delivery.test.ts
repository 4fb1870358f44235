/**
 * Delivery end to end: events written with recordRawEvent, the outbox notification through the local
 * QStash to the delivery worker served over HTTP, fan-out, batches to local receivers (one failing
 * 50% at random and down for a stretch). Checks: every event delivered, none lost, order per webhook
 * kept, retries carry the same webhook-id and body, signatures verify, counters and logs tell the truth.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import delivery from '../../../functions/delivery.ts';
import type { Env } from '../../../src/platform/env.ts';
import { notifyOutbox, recordRawEvent } from '../../../src/platform/events.ts';
import { sweepWebhooks } from '../../../src/webhooks/deliver.ts';
import { findEvent } from '../../../src/webhooks/catalog.ts';
import { insertReport } from '../../../src/pipeline/queries-reports.ts';
import { readBody } from '../../../src/webhooks/payload.ts';
import { verifyStandardSignature, apiUserSignature } from '../../../src/webhooks/signing.ts';
import { apiUserSigningKey } from '../../../src/webhooks/merchant-keys.ts';
import { sign } from '../../../src/webhooks/sigv4.ts';
import { testDb, testEnv } from '../../support/env.ts';
import { serveWorker, type Served } from '../../support/serve.ts';
import { api, BASE, merchant } from './helpers.ts';
import { seeded, startReceiver, type Received } from './receiver.ts';
import { waitFor as poll } from '../../support/wait.ts';

type Json = any;
const RETRY_ENV = { WEBHOOK_RETRY_BASE_SECONDS: '1', WEBHOOK_RETRY_MAX_SECONDS: '1', WEBHOOK_LEASE_SECONDS: '8' };

/** Polls `check` (the queue alone must get there: no sweep runs while waiting). */
async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs = 45_000,
  explain?: () => Promise<unknown>,
): Promise<void> {
  await poll(what, check, { timeoutMs, intervalMs: 200, explain });
}

async function state(oid: number) {
  return (
    await testDb().query<{
      pending: number;
      consecutive_failures: number;
      next_retry_after: Date | null;
      disabled: boolean;
      lease_token: string | null;
    }>(
      `SELECT (SELECT count(*)::int FROM webhooks.queue q WHERE q.webhook_oid = w.webhook_oid AND q.delivered_at IS NULL) AS pending, consecutive_failures, next_retry_after, disabled, lease_token
     FROM webhooks.webhooks w WHERE webhook_oid = $1`,
      [oid],
    )
  )[0]!;
}

async function emit(events: { name: string; id: string; payload: unknown }[], env: Env) {
  await testDb().transaction(async (tx) => {
    for (const e of events) await recordRawEvent(tx, { name: e.name, objectId: e.id, payload: e.payload });
  });
  await notifyOutbox(env);
}

/** Isolation from other suites on the same stack: nothing older is delivered to this file's webhooks. */
async function quiesce() {
  await testDb().query('UPDATE webhooks.outbox SET fanned_out_at = now() WHERE fanned_out_at IS NULL');
  await testDb().query('UPDATE webhooks.webhooks SET disabled = true');
}

/** The first 2xx request of each webhook-id, in arrival order (duplicates share the webhook-id). */
function firstOk(received: Received[]): Received[] {
  const seen = new Set<string>();
  return received.filter((r) => {
    const id = String(r.headers['webhook-id']);
    if (r.status !== 200 || seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

let served: Served;
let env: Env;
let m: Awaited<ReturnType<typeof merchant>>;

beforeAll(async () => {
  served = await serveWorker(delivery, (url) =>
    testEnv({ DELIVERY_URL: url, ...RETRY_ENV, WEBHOOK_DISABLE_AFTER_FAILURES: '1000' }),
  );
  env = testEnv({ DELIVERY_URL: served.url, ...RETRY_ENV });
  m = await merchant('MERCH_DELIVERY');
  await quiesce();
});

afterAll(async () => {
  await served.close();
});

async function createHook(body: Record<string, unknown>): Promise<{ oid: number; secret: string; webhook: Json }> {
  const res = await api(env).post(BASE, body, m.headers);
  expect(res.status).toBe(200);
  const json = (await res.json()) as Json;
  return { oid: json.webhook.webhook_oid, secret: res.headers.get('Webhook-Signing-Secret')!, webhook: json.webhook };
}

describe('delivery through the queue', () => {
  it('delivers every event once acknowledged, in order, through random failures and an outage', async () => {
    const rand = seeded(20261121);
    let downUntil = 0;
    let successes = 0;
    const flaky = await startReceiver(({ at }) => {
      if (at < downUntil) return 'down';
      if (successes === 2 && downUntil === 0) {
        downUntil = at + 2500;
        return 'down';
      }
      if (rand() < 0.5) return rand() < 0.5 ? 500 : 503;
      successes++;
      return 200;
    });
    const steady = await startReceiver(() => 200);
    const sqs = await startReceiver(() => 200);
    try {
      const hookA = await createHook({
        webhook_url: `${flaky.url}/hook`,
        maximum_events: 4,
        event_categories: [{ event_category: 'book', subscribed: true }],
      });
      const hookB = await createHook({
        webhook_url: `${steady.url}/gz`,
        maximum_events: 3,
        compress_events: true,
        authentication_type: 'basic',
        basic_username: 'bob',
        basic_password: 'pw-123456',
        event_categories: [{ event_category: 'book', events: [{ event_name: 'book_posted' }] }],
      });
      const hookC = await createHook({
        webhook_url: `${sqs.url}/123456789012/books`,
        authentication_type: 'aws iam',
        iam_access_key: 'AKIDTEST',
        iam_secret_key: 'SECRETTEST',
        maximum_events: 10,
        event_categories: [{ event_category: 'book', events: [{ event_name: 'book_posted' }] }],
      });

      const events = Array.from({ length: 30 }, (_, i) => ({
        name: i % 3 === 2 ? 'book_status_changed' : 'book_posted',
        id: `b${i}`,
        payload: { book_id: `b${i}`, seq: i, title: `Book ${i}` },
      }));
      await emit(events.slice(0, 10), env);
      await emit(events.slice(10), env);

      await waitFor(
        'all queues empty',
        async () =>
          (await state(hookA.oid)).pending === 0 &&
          (await state(hookB.oid)).pending === 0 &&
          (await state(hookC.oid)).pending === 0 &&
          (await testDb().query('SELECT 1 FROM webhooks.queue WHERE webhook_oid = $1', [hookA.oid])).length === 30,
        45_000,
        async () => ({
          a: await state(hookA.oid),
          b: await state(hookB.oid),
          c: await state(hookC.oid),
          flaky: flaky.received.map((r) => r.status),
          steady: steady.received.length,
          sqs: sqs.received.map((r) => r.status),
          queued: await testDb().query('SELECT webhook_oid, count(*) FROM webhooks.queue GROUP BY 1'),
          outbox: await testDb().query(
            'SELECT count(*) FILTER (WHERE fanned_out_at IS NULL) AS unfanned, count(*) FROM webhooks.outbox',
          ),
        }),
      );

      // A: every event delivered, in order. Duplicates (a 2xx whose bookkeeping failed) carry the same
      // webhook-id; the first 2xx of each webhook-id, in arrival order, is exactly the emitted sequence.
      const byId = new Map<string, Received[]>();
      for (const r of flaky.received)
        byId.set(String(r.headers['webhook-id']), [...(byId.get(String(r.headers['webhook-id'])) ?? []), r]);
      const firstOkA = [...byId.values()].map((attempts) => attempts.find((a) => a.status === 200)!);
      expect(firstOkA.every(Boolean)).toBe(true);
      firstOkA.sort((x, y) => flaky.received.indexOf(x) - flaky.received.indexOf(y));
      const deliveredA = (await Promise.all(firstOkA.map((r) => readBody(r.body)))).flat();
      expect(deliveredA).toEqual(events.map((e) => ({ [e.name]: e.payload })));
      // Retries of a batch carry the same webhook-id and the same body; each body has at most 4 events;
      // a batch is never followed by another before its 2xx (one batch in flight, FIFO).
      let current = '';
      const done = new Set<string>();
      for (const r of flaky.received) {
        const id = String(r.headers['webhook-id']);
        if (id !== current) {
          expect(done.has(id) || current === '' || done.has(current)).toBe(true);
          current = id;
        }
        if (r.status === 200) done.add(id);
      }
      for (const [id, attempts] of byId) {
        expect(id).toMatch(/^msg_[0-9a-f]{32}$/);
        expect(new Set(attempts.map((a) => a.body)).size).toBe(1);
        expect((await readBody(attempts[0]!.body)).length).toBeLessThanOrEqual(4);
      }
      expect(flaky.received.some((r) => r.status === 0)).toBe(true);
      expect(flaky.received.some((r) => r.status >= 500)).toBe(true);
      // Signatures verify with the secret shown at creation.
      for (const r of flaky.received) {
        expect(
          await verifyStandardSignature(
            hookA.secret,
            {
              id: String(r.headers['webhook-id']),
              timestamp: String(r.headers['webhook-timestamp']),
              signature: String(r.headers['webhook-signature']),
            },
            r.body,
          ),
        ).toBe(true);
      }
      // Counters and logs tell the truth: every attempt is logged.
      expect(await state(hookA.oid)).toEqual({
        pending: 0,
        consecutive_failures: 0,
        next_retry_after: null,
        disabled: false,
        lease_token: null,
      });
      const logs = await testDb().query<{ status_code: number; success: boolean; batch_id: string; uri: string }>(
        'SELECT status_code, success, batch_id, uri FROM webhooks.logs WHERE webhook_oid = $1 ORDER BY delivery_dts, request_id',
        [hookA.oid],
      );
      const statuses = (xs: number[]) => {
        const n: Record<number, number> = {};
        for (const x of xs) n[x] = (n[x] ?? 0) + 1;
        return n;
      };
      expect(statuses(logs.map((l) => l.status_code))).toEqual(statuses(flaky.received.map((r) => r.status)));
      expect(logs.every((l) => l.success === (l.status_code === 200))).toBe(true);
      expect(new Set(logs.map((l) => l.batch_id))).toEqual(new Set(byId.keys()));
      expect(new Set(logs.map((l) => l.uri))).toEqual(new Set([`${flaky.url}/hook`]));

      // B: compressed batches decode to the same events; basic auth; only book_posted.
      const posted = events.filter((e) => e.name === 'book_posted').map((e) => ({ book_posted: e.payload }));
      expect(steady.received.every((r) => typeof JSON.parse(r.body).events === 'string')).toBe(true);
      expect((await Promise.all(firstOk(steady.received).map((r) => readBody(r.body)))).flat()).toEqual(posted);
      expect(steady.received.map((r) => r.headers.authorization)).toEqual(
        steady.received.map(() => `Basic ${btoa('bob:pw-123456')}`),
      );

      // C: SigV4-signed SQS SendMessage whose MessageBody is the payload.
      expect(sqs.received.length).toBeGreaterThan(0);
      const sqsEvents: unknown[] = [];
      for (const r of firstOk(sqs.received)) {
        const form = new URLSearchParams(r.body);
        expect(form.get('Action')).toBe('SendMessage');
        expect(form.get('Version')).toBe('2012-11-05');
        sqsEvents.push(...(await readBody(form.get('MessageBody')!)));
        const expected = await sign(
          {
            method: 'POST',
            url: `${sqs.url}${r.path}`,
            body: r.body,
            region: 'us-east-1',
            service: 'sqs',
            amzDate: String(r.headers['x-amz-date']),
            headers: {
              'content-type': String(r.headers['content-type']),
              host: String(r.headers.host),
              'x-amz-date': String(r.headers['x-amz-date']),
            },
          },
          { accessKeyId: 'AKIDTEST', secretAccessKey: 'SECRETTEST' },
        );
        expect(r.headers.authorization).toBe(expected.authorization);
      }
      expect(sqsEvents).toEqual(posted);

      // The logs endpoint shows the same attempts with the original's fields.
      const list = (await (await api(env).get(`${BASE}/${hookA.oid}/logs?_limit=500`, m.headers)).json()) as Json;
      expect(list.webhook_log_summaries).toHaveLength(logs.length);
      const first = list.webhook_log_summaries.at(-1);
      const detail = (await (
        await api(env).get(`${BASE}/${hookA.oid}/logs/${first.request_id}`, m.headers)
      ).json()) as Json;
      expect(Object.keys(detail.webhook_log).sort()).toEqual([
        'delivery_dts',
        'duration',
        'queue_delay',
        'request',
        'request_headers',
        'request_id',
        'response',
        'response_headers',
        'status_code',
        'success',
        'uri',
        'webhook_oid',
      ]);
      expect(detail.webhook_log.request_headers).toEqual(
        expect.arrayContaining([expect.objectContaining({ name: 'webhook-id' })]),
      );
      const basicLog = (
        await testDb().query<{ request_headers: { name: string; value: string }[] }>(
          'SELECT request_headers FROM webhooks.logs WHERE webhook_oid = $1 LIMIT 1',
          [hookB.oid],
        )
      )[0]!;
      expect(basicLog.request_headers.find((h) => h.name === 'authorization')!.value).toBe('Basic ****');
    } finally {
      await Promise.all([flaky.close(), steady.close(), sqs.close()]);
      await quiesce();
    }
  });

  it('signs api user deliveries with the key-derived signing key', async () => {
    const rec = await startReceiver(() => 200);
    try {
      const hook = await createHook({
        webhook_url: `${rec.url}/u`,
        authentication_type: 'api user',
        event_categories: [{ event_category: 'pipeline', subscribed: true }],
      });
      await emit([{ name: 'task_finished', id: 't1', payload: { task_id: 't1', state: 'done' } }], env);
      await waitFor('delivery', async () => rec.received.length === 1 && (await state(hook.oid)).pending === 0);
      const r = rec.received[0]!;
      expect(r.headers['x-ultracart-api-user-oid']).toBe(String(m.keyId));
      const ts = Number(r.headers['webhook-timestamp']);
      expect(r.headers['x-ultracart-signature']).toBe(
        await apiUserSignature(await apiUserSigningKey(m.key), ts, r.body),
      );
      expect(await readBody(r.body)).toEqual([{ task_finished: { task_id: 't1', state: 'done' } }]);
    } finally {
      await rec.close();
      await quiesce();
    }
  });

  it('disables the webhook on 410 Gone and keeps its events pending', async () => {
    const rec = await startReceiver(() => 410);
    try {
      const hook = await createHook({
        webhook_url: `${rec.url}/gone`,
        event_categories: [{ event_category: 'pipeline', subscribed: true }],
      });
      await emit([{ name: 'report_published', id: 'r1', payload: { report_id: 'r1' } }], env);
      await waitFor('disabled', async () => (await state(hook.oid)).disabled);
      expect(rec.received).toHaveLength(1);
      expect(await state(hook.oid)).toEqual({
        pending: 1,
        consecutive_failures: 1,
        next_retry_after: null,
        disabled: true,
        lease_token: null,
      });
      const view = (await (await api(env).get(`${BASE}?_limit=500`, m.headers)).json()) as Json;
      expect(view.webhooks.find((w: Json) => w.webhook_oid === hook.oid)).toMatchObject({
        disabled: true,
        pending: 1,
        consecutive_failures: 1,
      });
    } finally {
      await rec.close();
      await quiesce();
    }
  });

  it('re-enabling a disabled webhook through PUT restarts delivery of its pending events (same webhook-id for the cut batch)', async () => {
    let status = 410;
    const rec = await startReceiver(() => status);
    const tag = `reenable-${Date.now()}`;
    try {
      const hook = await createHook({
        webhook_url: `${rec.url}/back`,
        maximum_events: 2,
        event_categories: [{ event_category: 'pipeline', events: [{ event_name: 'task_finished' }] }],
      });
      const early = [1, 2, 3].map((i) => ({
        name: 'task_finished',
        id: `${tag}-${i}`,
        payload: { task_id: `${tag}-${i}` },
      }));
      await emit(early, env);
      await waitFor('disabled by 410', async () => (await state(hook.oid)).disabled);
      expect(await state(hook.oid)).toEqual({
        pending: 3,
        consecutive_failures: 1,
        next_retry_after: null,
        disabled: true,
        lease_token: null,
      });
      // An event emitted while disabled is not queued for this webhook (disabled webhooks receive no new events).
      await emit([{ name: 'task_finished', id: `${tag}-late`, payload: { task_id: `${tag}-late` } }], env);
      await waitFor(
        'late event fanned out',
        async () =>
          (
            await testDb().query('SELECT 1 FROM webhooks.outbox WHERE object_id = $1 AND fanned_out_at IS NOT NULL', [
              `${tag}-late`,
            ])
          ).length === 1,
      );
      expect((await state(hook.oid)).pending).toBe(3);

      status = 200;
      const res = await api(env).put(`${BASE}/${hook.oid}`, { disabled: false }, m.headers);
      expect(res.status).toBe(200);
      const webhook = ((await res.json()) as Json).webhook;
      expect(webhook).toMatchObject({ disabled: false, consecutive_failures: 0 });
      expect('next_retry_after' in webhook).toBe(false);
      await waitFor(
        're-enabled delivery',
        async () => (await state(hook.oid)).pending === 0 && rec.received.length === 3,
      );

      expect(await state(hook.oid)).toEqual({
        pending: 0,
        consecutive_failures: 0,
        next_retry_after: null,
        disabled: false,
        lease_token: null,
      });
      expect(rec.received.map((r) => r.status)).toEqual([410, 200, 200]);
      expect(rec.received[1]!.headers['webhook-id']).toBe(rec.received[0]!.headers['webhook-id']);
      expect(rec.received[1]!.body).toBe(rec.received[0]!.body);
      expect(rec.received[2]!.headers['webhook-id']).not.toBe(rec.received[0]!.headers['webhook-id']);
      expect((await Promise.all(rec.received.slice(1).map((r) => readBody(r.body)))).flat()).toEqual(
        early.map((e) => ({ task_finished: e.payload })),
      );
      const logs = await testDb().query<{ status_code: number; event_count: number }>(
        'SELECT status_code, event_count FROM webhooks.logs WHERE webhook_oid = $1 ORDER BY delivery_dts, request_id',
        [hook.oid],
      );
      expect(logs).toEqual([
        { status_code: 410, event_count: 2 },
        { status_code: 200, event_count: 2 },
        { status_code: 200, event_count: 1 },
      ]);
    } finally {
      await rec.close();
      await quiesce();
    }
  });

  it("reflow re-sends the event's current objects to that webhook only", async () => {
    const rec = await startReceiver(() => 200);
    const other = await startReceiver(() => 200);
    try {
      const hook = await createHook({
        webhook_url: `${rec.url}/reflow`,
        maximum_events: 50,
        event_categories: [{ event_category: 'pipeline', events: [{ event_name: 'report_published' }] }],
      });
      const reports = [{ event_category: 'pipeline', events: [{ event_name: 'report_published' }] }];
      const bystander = await createHook({ webhook_url: `${other.url}/bystander`, event_categories: reports });
      const report = await insertReport(testDb(), {
        run_id: null,
        monitor_id: null,
        time_period: 'daily',
        report_type: 'summary',
        title: 'Reflowed report',
        content: '# Reflowed',
        article_ids: [],
        metadata: { global_tldr: 'tl;dr', topics: [] },
      });
      const current = await findEvent('report_published')!.event.reflow!(testDb());
      const expected = current.map((e) => ({ [e.name]: e.payload }));
      const asReflowed = expect.objectContaining({ id: report.id, title: 'Reflowed report', destination: 'database' });
      expect(expected).toContainEqual({ report_published: asReflowed });
      const res = await api(env).post(`${BASE}/${hook.oid}/reflow/report_published`, undefined, m.headers);
      const answer = await res.json();
      expect(answer).toMatchObject({ reflow: { event_name: 'report_published', queued: true }, success: true });
      await waitFor('reflow', async () => (await state(hook.oid)).pending === 0 && firstOk(rec.received).length >= 1);
      const reflowed = (await Promise.all(firstOk(rec.received).map((r) => readBody(r.body)))).flat();
      expect(reflowed).toEqual(expected);
      expect((await state(bystander.oid)).pending).toBe(0);
      expect(other.received).toHaveLength(0);
    } finally {
      await rec.close();
      await other.close();
      await quiesce();
    }
  });

  it('the sweep restarts a webhook whose delivery message was lost', async () => {
    const rec = await startReceiver(() => 200);
    try {
      const hook = await createHook({
        webhook_url: `${rec.url}/sweep`,
        event_categories: [{ event_category: 'pipeline', subscribed: true }],
      });
      await testDb().transaction((tx) =>
        recordRawEvent(tx, { name: 'task_finished', objectId: 'lost', payload: { task_id: 'lost' } }),
      );
      await new Promise((r) => setTimeout(r, 300));
      expect(rec.received).toHaveLength(0);
      const swept = await sweepWebhooks(env);
      expect(swept.drained).toBe(1);
      await waitFor('swept delivery', async () => (await state(hook.oid)).pending === 0 && rec.received.length === 1);
      expect(await readBody(rec.received[0]!.body)).toEqual([{ task_finished: { task_id: 'lost' } }]);
    } finally {
      await rec.close();
      await quiesce();
    }
  });
});
