/**
 * The attempts API and the status page: a receiver answers 503 (with markup in its answer) to the
 * first two requests and 200 (with a long answer) after, batches of one event, so the first event
 * has three attempts and the others one. Checks each event's state and attempts (time order, status,
 * latency as logged, the answer's first 256 characters, one webhook-id across retries, replays
 * flagged), the webhook's success rate and oldest undelivered event, and the HTML page's escaping.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDb } from '../../support/env.ts';
import { api, BASE, merchant } from './helpers.ts';
import { createHook, emit, pending, quiesce, startHarness, waitFor, type Harness } from './harness.ts';
import { startReceiver } from './receiver.ts';

type Json = any;
let h: Harness;
const _LONG = 'x'.repeat(300);

beforeAll(async () => {
  h = await startHarness('MERCH_ATTEMPTS');
});

afterAll(async () => {
  await quiesce();
  await h.close();
});

const get = async (path: string) => {
  const res = await api(h.env).get(`${BASE}${path}`, h.m.headers);
  return { status: res.status, body: (await res.json()) as Json };
};

async function eventId(objectId: string): Promise<number> {
  const rows = await testDb().query<{ id: string }>(
    'SELECT event_id::text AS id FROM webhooks.outbox WHERE object_id = $1',
    [objectId],
  );
  return Number(rows[0]!.id);
}

describe('attempts API', () => {
  it('shows every attempt per event, the success rate, the oldest undelivered event, and a status page', async () => {
    let mode: 'start' | 'down' = 'start';
    let n = 0;
    const rec = await startReceiver(() => (mode === 'down' || n++ < 2 ? 503 : 200));
    // The receiver's answer body is fixed ("failed with 503" / "ok"); a long, marked-up answer is
    // checked through a second receiver below.
    try {
      const hook = await createHook(h, {
        webhook_url: `${rec.url}/att`,
        maximum_events: 1,
        name: '<script>alert(1)</script> & co',
        event_categories: [{ event_category: 'pipeline', subscribed: true }],
      });
      // The replay below covers this test's events only (other files' events share the outbox).
      const epochMs = 'SELECT (extract(epoch FROM now()) * 1000)::float8 AS t';
      const start = new Date(Math.floor((await testDb().query<{ t: number }>(epochMs))[0]!.t));
      const tag = `att-${Date.now()}`;
      await emit(
        h.env,
        [1, 2, 3].map((i) => ({ name: 'task_finished', id: `${tag}-${i}`, payload: { i } })),
      );
      await waitFor(
        'delivery',
        async () => (await pending(hook.oid)) === 0 && rec.received.filter((r) => r.status === 200).length === 3,
      );
      const [e1, e2, e3] = [await eventId(`${tag}-1`), await eventId(`${tag}-2`), await eventId(`${tag}-3`)];

      const list = await get(`/${hook.oid}/events`);
      expect(list.status).toBe(200);
      expect(
        list.body.webhook_events.map((x: Json) => [x.event_id, x.state, x.attempts, x.last_status_code, x.replay]),
      ).toEqual([
        [e3, 'delivered', 1, 200, false],
        [e2, 'delivered', 1, 200, false],
        [e1, 'delivered', 3, 200, false],
      ]);
      expect(list.body.metadata.result_set).toMatchObject({ count: 3, total_records: 3 });

      const one = await get(`/${hook.oid}/events/${e1}/attempts`);
      expect(one.status).toBe(200);
      expect(one.body.webhook_event_deliveries).toEqual([
        expect.objectContaining({ event_id: e1, event_name: 'task_finished', state: 'delivered', attempts: 3 }),
      ]);
      const attempts = one.body.attempts as Json[];
      expect(attempts.map((a) => [a.status_code, a.success, a.response_excerpt])).toEqual([
        [503, false, 'failed with 503'],
        [503, false, 'failed with 503'],
        [200, true, 'ok'],
      ]);
      expect(new Set(attempts.map((a) => a.webhook_id)).size).toBe(1);
      expect(attempts.map((a) => Date.parse(a.attempt_dts))).toEqual(
        [...attempts.map((a) => Date.parse(a.attempt_dts))].sort((x, y) => x - y),
      );
      const logged = await testDb().query<{ request_id: string; duration: number }>(
        'SELECT request_id, duration FROM webhooks.logs WHERE webhook_oid = $1',
        [hook.oid],
      );
      const durations = new Map(logged.map((l) => [l.request_id, l.duration]));
      expect(
        attempts.every((a) => Number.isInteger(a.latency_ms) && a.latency_ms === durations.get(a.request_id)),
      ).toBe(true);

      const stats = await get(`/${hook.oid}/stats`);
      expect(stats.body.webhook_stats).toEqual({
        attempts: 5,
        successful_attempts: 3,
        success_rate: 0.6,
        events_delivered: 3,
        events_pending: 0,
      });
      expect((await get(`/${hook.oid}/stats?_since=2999-01-01T00:00:00Z`)).body.webhook_stats).toMatchObject({
        attempts: 0,
        successful_attempts: 0,
      });

      // A replay of e2 is a second delivery of the same event, flagged.
      await api(h.env).post(
        `${BASE}/${hook.oid}/replay`,
        { since: start.toISOString(), until: new Date(start.getTime() + 3_600_000).toISOString() },
        h.m.headers,
      );
      await waitFor('replay', async () => (await pending(hook.oid)) === 0);
      const replayed = await get(`/${hook.oid}/events/${e2}/attempts`);
      expect(replayed.body.webhook_event_deliveries.map((x: Json) => [x.replay, x.state, x.attempts])).toEqual([
        [false, 'delivered', 1],
        [true, 'delivered', 1],
      ]);
      expect(replayed.body.attempts.map((a: Json) => [a.replay, a.status_code])).toEqual([
        [false, 200],
        [true, 200],
      ]);

      // The receiver goes down: the next event stays pending and is the oldest undelivered one.
      mode = 'down';
      await emit(h.env, [{ name: 'task_finished', id: `${tag}-4`, payload: { i: 4 } }]);
      const e4 = await eventId(`${tag}-4`);
      await waitFor(
        'a failed attempt',
        async () => (await get(`/${hook.oid}/events/${e4}/attempts`)).body.attempts?.length >= 1,
      );
      const down = (await get(`/${hook.oid}/stats`)).body.webhook_stats;
      const counts = (
        await testDb().query<{ a: number; s: number }>(
          'SELECT count(*)::int AS a, count(*) FILTER (WHERE success)::int AS s FROM webhooks.logs WHERE webhook_oid = $1',
          [hook.oid],
        )
      )[0]!;
      expect(down.events_pending).toBe(1);
      expect(down.oldest_undelivered_event).toMatchObject({
        event_id: e4,
        event_name: 'task_finished',
        state: 'pending',
        replay: false,
      });
      expect(down.oldest_undelivered_event.age_seconds).toBeGreaterThanOrEqual(0);
      expect(down.successful_attempts).toBe(6);
      expect(down.attempts).toBeGreaterThanOrEqual(counts.a - 2); // retries may land between the two reads
      expect(
        (await get(`/${hook.oid}/events?_state=pending`)).body.webhook_events.map((x: Json) => x.event_id),
      ).toEqual([e4]);
      expect((await get(`/${hook.oid}/events?_state=delivered`)).body.webhook_events).toHaveLength(6);
      expect(counts.s).toBe(6);

      // The status page: HTML, no script allowed, everything escaped.
      const page = await api(h.env).get(`${BASE}/${hook.oid}/status`, h.m.headers);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
      const html = await page.text();
      expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; co');
      expect(html).not.toContain('<script');
      expect(html).toContain(`task_finished #${e4}`);
      expect(html).toContain('failed with 503');
    } finally {
      await rec.close();
      await quiesce();
    }
  });

  it('keeps the first 256 characters of an answer, escaped on the page', async () => {
    const { createServer } = await import('node:http');
    const answer = `<img src=x onerror="alert(1)">${'y'.repeat(400)}`;
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'text/html' }).end(answer));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    try {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/long`;
      const hook = await createHook(h, {
        webhook_url: url,
        event_categories: [{ event_category: 'pipeline', subscribed: true }],
      });
      const tag = `attl-${Date.now()}`;
      await emit(h.env, [{ name: 'report_published', id: tag, payload: { r: 1 } }]);
      const logged = async () =>
        (await testDb().query('SELECT 1 FROM webhooks.logs WHERE webhook_oid = $1', [hook.oid])).length > 0;
      await waitFor('delivery', async () => (await logged()) && (await pending(hook.oid)) === 0);
      const attempts = (await get(`/${hook.oid}/events/${await eventId(tag)}/attempts`)).body.attempts;
      expect(attempts).toHaveLength(1);
      expect(attempts[0].response_excerpt).toBe(answer.slice(0, 256));
      const html = await (await api(h.env).get(`${BASE}/${hook.oid}/status`, h.m.headers)).text();
      expect(html).not.toContain('<img');
      expect(html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await quiesce();
    }
  });

  it.each([
    ['/events/abc/attempts', 400],
    ['/events/0/attempts', 400],
    ['/events/999999999/attempts', 404],
    ['/events?_state=lost', 400],
    ['/events?_limit=0', 400],
    ['/stats?_since=never', 400],
  ])('%s -> %i', async (path, status) => {
    const hook = await createHook(h, {
      webhook_url: 'https://hooks.example.com/att-bad',
      event_categories: [{ event_category: 'book', subscribed: true }],
    });
    const res = await get(`/${hook.oid}${path}`);
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ success: false, error: { developer_message: expect.any(String) } });
  });

  it('another merchant gets 404, no key 401', async () => {
    const hook = await createHook(h, {
      webhook_url: 'https://hooks.example.com/att-own',
      event_categories: [{ event_category: 'book', subscribed: true }],
    });
    const other = await merchant('MERCH_ATTEMPTS_OTHER');
    for (const p of ['/events', '/stats', '/status', '/events/1/attempts']) {
      expect((await api(h.env).get(`${BASE}/${hook.oid}${p}`, other.headers)).status).toBe(404);
      expect((await api(h.env).get(`${BASE}/${hook.oid}${p}`, {})).status).toBe(401);
    }
  });
});
