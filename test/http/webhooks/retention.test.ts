/**
 * Retention, through the delivery function's scheduled handler (the minute cron): delivered queue rows
 * and logs older than WEBHOOK_RETENTION_DAYS (45) are pruned, fanned-out outbox events older than the
 * replay window WEBHOOK_REPLAY_DAYS (30) too; pending rows, recent rows and replay windows that still
 * have rows are kept. Time passing is simulated by moving one event's rows into the past, consistently
 * (its outbox row older than its queue rows, those older than their logs). Replay stays idempotent:
 * the same window asked after the pruning queues nothing again; a window reaching past the replay
 * window replays what is left and says from when (`replayed_since`, a warning).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import delivery from '../../../functions/delivery.ts';
import { testDb } from '../../support/env.ts';
import { api, BASE } from './helpers.ts';
import { createHook, emit, pending, quiesce, startHarness, waitFor, type Harness } from './harness.ts';
import { startReceiver } from './receiver.ts';

type Json = any;
const PIPELINE = [{ event_category: 'pipeline', subscribed: true }];
const DAY = 86_400_000;
let h: Harness;

beforeAll(async () => {
  h = await startHarness('MERCH_RETENTION');
});

afterAll(async () => {
  await quiesce();
  await h.close();
});

const db = () => testDb();
const iso = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();
const replay = (oid: number, body: unknown) => api(h.env).post(`${BASE}/${oid}/replay`, body, h.m.headers);

/** Runs the delivery function's scheduled handler as the runtime does and waits for its work. */
async function cron(): Promise<void> {
  const work: Promise<unknown>[] = [];
  await delivery.scheduled({ cron: '* * * * *' }, h.env, { waitUntil: (p) => void work.push(p) });
  await Promise.all(work);
}

async function one<T>(sql: string, params: unknown[]): Promise<T> {
  return (await db().query<T & Record<string, unknown>>(sql, params))[0]!;
}

const n = (sql: string, params: unknown[]) => one<{ n: number }>(sql, params).then((r) => r.n);

describe('retention', () => {
  it('prunes old delivered rows, keeps pending and recent ones, and replay stays idempotent', async () => {
    const rec = await startReceiver(() => 200);
    try {
      const hook = await createHook(h, {
        webhook_url: `${rec.url}/ret`,
        maximum_events: 1,
        event_categories: PIPELINE,
      });
      const tag = `ret-${Date.now()}`;
      await emit(h.env, [
        { name: 'task_finished', id: `${tag}-old`, payload: { n: 1 } },
        { name: 'task_finished', id: `${tag}-mid`, payload: { n: 2 } },
      ]);
      await waitFor('live delivery', async () => (await pending(hook.oid)) === 0 && rec.received.length === 2);
      const ids = await db().query<{ event_id: string; object_id: string }>(
        'SELECT event_id, object_id FROM webhooks.outbox WHERE object_id LIKE $1 ORDER BY event_id',
        [`${tag}-%`],
      );
      const [oldId, midId] = ids.map((r) => Number(r.event_id));
      // Both recorded five days ago, then replayed once as the window [6 days ago, 4 days ago).
      await db().query('UPDATE webhooks.outbox SET created_at = $2 WHERE object_id LIKE $1', [
        `${tag}-%`,
        iso(5 * DAY),
      ]);
      const window = { since: iso(6 * DAY), until: iso(4 * DAY) };
      const first = ((await (await replay(hook.oid, window)).json()) as Json).replay;
      expect(first).toMatchObject({ scanned: 2, queued: 2, already_queued: 0 });
      expect('replayed_since' in first).toBe(false);
      await waitFor('replayed', async () => (await pending(hook.oid)) === 0 && rec.received.length === 4);

      // Time passes for the first event only: recorded 55 days ago, queued 52 and delivered 50 days ago.
      const rowsOf = `webhook_oid = $1 AND (event_id = $2 OR replay_event_id = $2)`;
      await db().query('UPDATE webhooks.outbox SET created_at = $2 WHERE event_id = $1', [oldId, iso(55 * DAY)]);
      await db().query(
        `UPDATE webhooks.logs SET delivery_dts = $3 WHERE batch_id IN (SELECT batch_id FROM webhooks.queue WHERE ${rowsOf})`,
        [hook.oid, oldId, iso(50 * DAY)],
      );
      await db().query(`UPDATE webhooks.queue SET created_at = $3, delivered_at = $4 WHERE ${rowsOf}`, [
        hook.oid,
        oldId,
        iso(52 * DAY),
        iso(50 * DAY),
      ]);
      // A disabled webhook: a row pending for 60 days, rows delivered 44 and 46 days ago, an empty
      // replay window of 50 days ago and one that still has a (pending) row.
      const other = await createHook(h, { webhook_url: `${rec.url}/other`, event_categories: PIPELINE });
      await db().query('UPDATE webhooks.webhooks SET disabled = true WHERE webhook_oid = $1', [other.oid]);
      const q = (created: number, delivered: number | null) =>
        one<{ queue_id: string }>(
          `INSERT INTO webhooks.queue (webhook_oid, event_name, payload, size, created_at, delivered_at)
           VALUES ($1, 'task_finished', '{}', 20, $2, $3) RETURNING queue_id`,
          [other.oid, iso(created * DAY), delivered === null ? null : iso(delivered * DAY)],
        ).then((r) => Number(r.queue_id));
      const pendingOld = await q(60, null);
      const delivered44 = await q(44.5, 44);
      const delivered46 = await q(46.5, 46);
      const emptyReplay = await one<{ replay_id: string }>(
        `INSERT INTO webhooks.replays (webhook_oid, since, until, created_at) VALUES ($1, $2, $3, $4) RETURNING replay_id`,
        [other.oid, iso(80 * DAY), iso(70 * DAY), iso(50 * DAY)],
      ).then((r) => Number(r.replay_id));
      const busyReplay = await one<{ replay_id: string }>(
        `INSERT INTO webhooks.replays (webhook_oid, since, until, created_at) VALUES ($1, $2, $3, $4) RETURNING replay_id`,
        [other.oid, iso(90 * DAY), iso(85 * DAY), iso(50 * DAY)],
      ).then((r) => Number(r.replay_id));
      await db().query('UPDATE webhooks.queue SET replay_id = $2, replay_event_id = 1 WHERE queue_id = $1', [
        pendingOld,
        busyReplay,
      ]);

      await cron();

      expect(await n(`SELECT count(*)::int AS n FROM webhooks.queue WHERE ${rowsOf}`, [hook.oid, oldId])).toBe(0);
      expect(await n(`SELECT count(*)::int AS n FROM webhooks.queue WHERE ${rowsOf}`, [hook.oid, midId])).toBe(2);
      expect(await n('SELECT count(*)::int AS n FROM webhooks.logs WHERE webhook_oid = $1', [hook.oid])).toBe(2);
      const outbox = await db().query<{ event_id: string }>(
        'SELECT event_id FROM webhooks.outbox WHERE object_id LIKE $1',
        [`${tag}-%`],
      );
      expect(outbox.map((r) => Number(r.event_id))).toEqual([midId]);
      const kept = await db().query<{ queue_id: string }>(
        'SELECT queue_id FROM webhooks.queue WHERE webhook_oid = $1 ORDER BY queue_id',
        [other.oid],
      );
      expect(kept.map((r) => Number(r.queue_id))).toEqual([pendingOld, delivered44]);
      expect(delivered46).toBeGreaterThan(0);
      const replays = await db().query<{ replay_id: string }>(
        'SELECT replay_id FROM webhooks.replays WHERE webhook_oid = $1 ORDER BY replay_id',
        [other.oid],
      );
      expect(replays.map((r) => Number(r.replay_id))).toEqual([busyReplay]);
      expect(emptyReplay).toBeLessThan(busyReplay);

      // The same window again: the pruned event is past the replay window, the kept one already queued.
      const again = ((await (await replay(hook.oid, window)).json()) as Json).replay;
      expect(again).toMatchObject({ scanned: 1, queued: 0, already_queued: 1, skipped_pending: 0 });
      // A window reaching past the replay window: what is left, and from when.
      const wideRes = (await (await replay(hook.oid, { since: iso(60 * DAY), until: iso(4 * DAY) })).json()) as Json;
      expect(wideRes.replay).toMatchObject({ scanned: 1, queued: 1, already_queued: 0 });
      const horizon = Date.parse(wideRes.replay.replayed_since);
      expect(Math.abs(horizon - (Date.now() - 30 * DAY))).toBeLessThan(60_000);
      expect(wideRes.warning.warning_message).toBe(
        `events recorded before ${wideRes.replay.replayed_since} were not replayed: they are older than the replay window (30 days)`,
      );
      // A window wholly past it: nothing, said so.
      const gone = (await (await replay(hook.oid, { since: iso(60 * DAY), until: iso(50 * DAY) })).json()) as Json;
      expect(gone.replay).toMatchObject({ scanned: 0, queued: 0, more: false });
      expect(gone.warning.warning_message).toMatch(
        /^nothing replayed: the whole window is older than the replay window/,
      );
      await waitFor('wide replay delivered', async () => (await pending(hook.oid)) === 0 && rec.received.length === 5);
      expect(await n(`SELECT count(*)::int AS n FROM webhooks.queue WHERE ${rowsOf}`, [hook.oid, oldId])).toBe(0);
    } finally {
      await rec.close();
      await quiesce();
    }
  });
});
