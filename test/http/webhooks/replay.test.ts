/**
 * Recovery: replaying a webhook's events between since and until. The test's events get fixed
 * creation times (set in the database), so window edges are exact: since is inclusive, until
 * exclusive, only subscribed events, event order, pages bounded by `limit` and resumed with the
 * token, the same window (or page) asked twice queues nothing new, events still pending for the
 * webhook are skipped, events missed while it was disabled are replayed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduleDelivery } from '../../../src/webhooks/deliver.ts';
import { readBody } from '../../../src/webhooks/payload.ts';
import { testDb } from '../../support/env.ts';
import { api, BASE, merchant } from './helpers.ts';
import { createHook, emit, pending, quiesce, startHarness, waitFor, type Harness } from './harness.ts';
import { startReceiver, type Received } from './receiver.ts';

type Json = any;
const PIPELINE = [{ event_category: 'pipeline', subscribed: true }];
const BOOK = [{ event_category: 'book', subscribed: true }];
let h: Harness;
// Midnight two days ago: inside the replay window (WEBHOOK_REPLAY_DAYS, default 30; retention.test.ts
// covers windows reaching past it).
const T0 = (Math.floor(Date.now() / 86_400_000) - 2) * 86_400_000;
const at = (s: number) => new Date(T0 + s * 1000).toISOString();

beforeAll(async () => {
  h = await startHarness('MERCH_REPLAY');
});

afterAll(async () => {
  await quiesce();
  await h.close();
});

/** Emits events and gives each the creation time T0 + its second. */
async function emitAt(tag: string, events: { name: string; n: number; second: number }[]): Promise<void> {
  const id = (n: number) => `${tag}-${n}`;
  await emit(
    h.env,
    events.map((e) => ({ name: e.name, id: id(e.n), payload: { id: id(e.n), n: e.n } })),
  );
  for (const e of events) {
    await testDb().query('UPDATE webhooks.outbox SET created_at = $2 WHERE object_id = $1', [id(e.n), at(e.second)]);
  }
}

async function events(received: Received[]): Promise<number[]> {
  const ok = received.filter((r) => r.status === 200);
  const all = (await Promise.all(ok.map((r) => readBody(r.body)))).flat() as Json[];
  return all.map((e) => Object.values(e)[0] as Json).map((p) => p.n);
}

const replay = (oid: number, body: unknown) => api(h.env).post(`${BASE}/${oid}/replay`, body, h.m.headers);

describe('replay', () => {
  it('replays a window in order, in bounded pages, and queues nothing twice', async () => {
    const rec = await startReceiver(() => 200);
    try {
      const hook = await createHook(h, {
        webhook_url: `${rec.url}/replay`,
        maximum_events: 2,
        event_categories: PIPELINE,
      });
      const tag = `rp-${Date.now()}`;
      // 1..6 subscribed (seconds 1..6), 99 not subscribed (second 3).
      const subscribed = [1, 2, 3, 4, 5, 6].map((n) => ({ name: 'task_finished', n, second: n }));
      await emitAt(tag, [...subscribed, { name: 'book_posted', n: 99, second: 3 }]);
      const liveDone = async () => (await pending(hook.oid)) === 0 && (await events(rec.received)).length === 6;
      await waitFor('live delivery', liveDone);
      const live = rec.received.length;

      // Window [2 s, 5 s): events 2, 3, 4; pages of 2.
      const first = await replay(hook.oid, { since: at(2), until: at(5), limit: 2 });
      expect(first.status).toBe(200);
      const p1 = ((await first.json()) as Json).replay;
      expect(p1).toMatchObject({
        since: at(2),
        until: at(5),
        scanned: 2,
        queued: 2,
        already_queued: 0,
        skipped_pending: 0,
        more: true,
      });
      expect(p1.resume_token).toMatch(/^rt_\d+_\d+$/);
      // The same first page again: nothing new.
      const again = ((await (await replay(hook.oid, { since: at(2), until: at(5), limit: 2 })).json()) as Json).replay;
      expect(again).toMatchObject({
        scanned: 2,
        queued: 0,
        already_queued: 2,
        more: true,
        resume_token: p1.resume_token,
      });
      const p2 = ((await (await replay(hook.oid, { resume_token: p1.resume_token, limit: 2 })).json()) as Json).replay;
      expect(p2).toMatchObject({ since: at(2), until: at(5), scanned: 1, queued: 1, already_queued: 0, more: false });
      expect('resume_token' in p2).toBe(false);
      // Resuming the same page twice, and the whole window at once: nothing new.
      const resumedAgain = ((await (await replay(hook.oid, { resume_token: p1.resume_token })).json()) as Json).replay;
      expect(resumedAgain).toMatchObject({ queued: 0, already_queued: 1 });
      const whole = ((await (await replay(hook.oid, { since: at(2), until: at(5) })).json()) as Json).replay;
      expect(whole).toMatchObject({ scanned: 3, queued: 0, already_queued: 3, more: false });

      const replayedCount = async (n: number) =>
        (await pending(hook.oid)) === 0 && (await events(rec.received.slice(live))).length === n;
      await waitFor('replayed delivery', () => replayedCount(3));
      await new Promise((r) => setTimeout(r, 300));
      const replayed = rec.received.slice(live);
      expect(await events(replayed)).toEqual([2, 3, 4]);
      // New attempts: new webhook-ids, never one of the live batches'.
      const liveIds = new Set(rec.received.slice(0, live).map((r) => r.headers['webhook-id']));
      expect(replayed.every((r) => !liveIds.has(r.headers['webhook-id']))).toBe(true);
      const rows = await testDb().query<{ n: number }>(
        'SELECT count(*)::int AS n FROM webhooks.queue WHERE webhook_oid = $1 AND replay_id IS NOT NULL',
        [hook.oid],
      );
      expect(rows[0]!.n).toBe(3);

      // A wider window is another replay: it queues its events once.
      const wide = ((await (await replay(hook.oid, { since: at(0), until: at(60) })).json()) as Json).replay;
      expect(wide).toMatchObject({ scanned: 6, queued: 6, more: false });
      await waitFor('wide replay', () => replayedCount(9));
      expect(await events(rec.received.slice(live))).toEqual([2, 3, 4, 1, 2, 3, 4, 5, 6]);
    } finally {
      await rec.close();
      await quiesce();
    }
  });

  it('skips events still pending for the webhook and replays what it missed while disabled', async () => {
    let status = 410;
    const rec = await startReceiver(() => status);
    try {
      const hook = await createHook(h, { webhook_url: `${rec.url}/back`, event_categories: PIPELINE });
      const tag = `rpd-${Date.now()}`;
      await emitAt(tag, [{ name: 'report_published', n: 1, second: 10 }]);
      const disabled = async () =>
        (
          await testDb().query<{ disabled: boolean }>('SELECT disabled FROM webhooks.webhooks WHERE webhook_oid = $1', [
            hook.oid,
          ])
        )[0]!.disabled;
      await waitFor('disabled by 410', disabled);
      // Emitted while disabled: not fanned out to this webhook.
      await emitAt(tag, [
        { name: 'report_published', n: 2, second: 11 },
        { name: 'task_finished', n: 3, second: 12 },
      ]);
      const unfanned = 'SELECT 1 FROM webhooks.outbox WHERE object_id LIKE $1 AND fanned_out_at IS NULL';
      await waitFor('fanned out', async () => (await testDb().query(unfanned, [`${tag}-%`])).length === 0);
      expect(await pending(hook.oid)).toBe(1);

      const r = ((await (await replay(hook.oid, { since: at(10), until: at(13) })).json()) as Json).replay;
      expect(r).toMatchObject({ scanned: 3, queued: 2, skipped_pending: 1, already_queued: 0, more: false });
      expect(await pending(hook.oid)).toBe(3);
      expect(rec.received).toHaveLength(1); // disabled: nothing sent until re-enabled
      // Another window over the same events while they wait: nothing queued twice.
      const overlap = ((await (await replay(hook.oid, { since: at(9), until: at(14) })).json()) as Json).replay;
      expect(overlap).toMatchObject({ scanned: 3, queued: 0, skipped_pending: 3, already_queued: 0 });
      expect(await pending(hook.oid)).toBe(3);

      status = 200;
      expect((await api(h.env).put(`${BASE}/${hook.oid}`, { disabled: false }, h.m.headers)).status).toBe(200);
      await waitFor('re-enabled delivery', async () => (await pending(hook.oid)) === 0);
      expect(await events(rec.received)).toEqual([1, 2, 3]);
    } finally {
      await rec.close();
      await quiesce();
    }
  });

  it('delivers an event queued more than 24.8 days ago (queue_delay is capped, not overflowed)', async () => {
    const rec = await startReceiver(() => 200);
    try {
      const hook = await createHook(h, { webhook_url: `${rec.url}/old`, event_categories: PIPELINE });
      await testDb().query(
        `INSERT INTO webhooks.queue (webhook_oid, event_name, payload, size, created_at)
         VALUES ($1, 'task_finished', '{"n":7}', 20, now() - interval '40 days')`,
        [hook.oid],
      );
      await scheduleDelivery(h.env, hook.oid);
      await waitFor('old event delivered', async () => (await pending(hook.oid)) === 0);
      expect(await events(rec.received)).toEqual([7]);
      const logs = await testDb().query<{ queue_delay: number }>(
        'SELECT queue_delay FROM webhooks.logs WHERE webhook_oid = $1',
        [hook.oid],
      );
      expect(logs).toEqual([{ queue_delay: 2_147_483_647 }]);
    } finally {
      await rec.close();
      await quiesce();
    }
  });

  it.each([
    ['since after until', { since: '2026-03-02T00:00:00Z', until: '2026-03-01T00:00:00Z' }],
    ['since equal to until', { since: '2026-03-01T00:00:00Z', until: '2026-03-01T00:00:00Z' }],
    ['no window and no token', {}],
    ['until missing', { since: '2026-03-01T00:00:00Z' }],
    ['not a date', { since: 'yesterday-ish', until: '2026-03-01T00:00:00Z' }],
    ['limit 0', { since: '2026-03-01T00:00:00Z', until: '2026-03-02T00:00:00Z', limit: 0 }],
    ['limit over 1000', { since: '2026-03-01T00:00:00Z', until: '2026-03-02T00:00:00Z', limit: 1001 }],
    ['malformed token', { resume_token: 'rt_x_1' }],
    ['unknown token', { resume_token: 'rt_999999999_1' }],
    ['unknown member', { since: '2026-03-01T00:00:00Z', until: '2026-03-02T00:00:00Z', from: 1 }],
  ])('%s is a 400', async (_n, body) => {
    const hook = await createHook(h, { webhook_url: 'https://hooks.example.com/rp-bad', event_categories: BOOK });
    const res = await replay(hook.oid, body);
    expect(res.status).toBe(400);
    const err = (await res.json()) as Json;
    expect(err).toMatchObject({ success: false, error: { developer_message: expect.any(String) } });
  });

  it('a token is bound to its webhook and window; other merchants get 404', async () => {
    const a = await createHook(h, { webhook_url: 'https://hooks.example.com/rp-a', event_categories: BOOK });
    const b = await createHook(h, { webhook_url: 'https://hooks.example.com/rp-b', event_categories: BOOK });
    const tag = `rpt-${Date.now()}`;
    await emitAt(
      tag,
      [1, 2, 3].map((n) => ({ name: 'book_posted', n, second: 100 + n })),
    );
    await testDb().query('UPDATE webhooks.webhooks SET disabled = true WHERE webhook_oid = ANY ($1)', [[a.oid, b.oid]]);
    const p1 = ((await (await replay(a.oid, { since: at(100), until: at(200), limit: 1 })).json()) as Json).replay;
    expect(p1.more).toBe(true);
    expect((await replay(b.oid, { resume_token: p1.resume_token })).status).toBe(400);
    expect((await replay(a.oid, { resume_token: p1.resume_token, since: at(101) })).status).toBe(400);
    expect((await replay(a.oid, { resume_token: p1.resume_token, since: at(100), until: at(200) })).status).toBe(200);
    const other = await merchant('MERCH_REPLAY_OTHER');
    const win = { since: at(100), until: at(200) };
    expect((await api(h.env).post(`${BASE}/${a.oid}/replay`, win, other.headers)).status).toBe(404);
    expect((await api(h.env).post(`${BASE}/${a.oid}/replay`, win, {})).status).toBe(401);
  });
});
