/**
 * SQL of recovery: replaying the outbox events a webhook is subscribed to, created in [since, until),
 * in event_id order, as new queue rows (new batches, new attempts). Idempotent per window: the
 * window's replay row is found again, and (replay_id, replay_event_id) is unique. Bounded in time: only
 * events recorded since the replay horizon (now − WEBHOOK_REPLAY_DAYS) are replayed; retention prunes
 * behind it (queries-retention.ts says why that keeps replays idempotent).
 */
import type { Queryable } from '../platform/db.ts';
import { DRAIN_LOCK } from './queries-delivery.ts';

export interface ReplayWindow {
  replayId: number;
  since: Date;
  until: Date;
}

/** The replay row of a webhook's window, created on first use. */
export async function replayFor(q: Queryable, oid: number, since: Date, until: Date): Promise<ReplayWindow> {
  const rows = await q.query<{ replay_id: number | string }>(
    `INSERT INTO webhooks.replays (webhook_oid, since, until) VALUES ($1, $2, $3)
     ON CONFLICT (webhook_oid, since, until) DO UPDATE SET webhook_oid = EXCLUDED.webhook_oid
     RETURNING replay_id`,
    [oid, since.toISOString(), until.toISOString()],
  );
  return { replayId: Number(rows[0]!.replay_id), since, until };
}

export async function getReplay(q: Queryable, oid: number, replayId: number): Promise<ReplayWindow | undefined> {
  const rows = await q.query<{ since: Date | string; until: Date | string }>(
    'SELECT since, until FROM webhooks.replays WHERE webhook_oid = $1 AND replay_id = $2',
    [oid, replayId],
  );
  const r = rows[0];
  return r ? { replayId, since: new Date(r.since), until: new Date(r.until) } : undefined;
}

export interface ReplayPage {
  /** Events of the window looked at in this page (queued, already queued, or skipped as pending). */
  scanned: number;
  queued: number;
  alreadyQueued: number;
  /** Events already waiting for this webhook (their original or another replay's row): delivered anyway. */
  skippedPending: number;
  /** event_id of the last event scanned, the resume position; null when the page was empty. */
  lastEventId: number | null;
  more: boolean;
  /** The replay window's start (now − replayDays): events recorded before it are not replayed. */
  horizon: Date;
}

/**
 * Queues one page (at most `limit` events after `afterEventId`) of the window for the webhook, under
 * the drain lock so queue order stays event order. Call inside a transaction.
 */
export async function replayPage(
  q: Queryable,
  oid: number,
  w: ReplayWindow,
  afterEventId: number,
  limit: number,
  replayDays: number,
): Promise<ReplayPage> {
  await q.query('SELECT pg_advisory_xact_lock($1)', [DRAIN_LOCK]);
  // b.lo: the window's start, or the replay horizon when the window reaches further back (retention)
  const inWindow = `o.event_name = ANY (h.events) AND o.created_at >= b.lo AND o.created_at < $3`;
  type Row = {
    scanned: number;
    queued: number;
    pending: number;
    last: number | string | null;
    more: boolean;
    horizon: Date | string;
  };
  const rows = await q.query<Row>(
    `WITH h AS (SELECT events FROM webhooks.webhooks WHERE webhook_oid = $1),
     z AS (SELECT now() - make_interval(days => $7::int) AS horizon),
     b AS (SELECT greatest($2::timestamptz, z.horizon) AS lo FROM z),
     ev AS (
       SELECT o.event_id, o.event_name, o.payload, o.size,
         -- waiting for the webhook through its original row or another replay's; a row of this very
         -- replay, delivered or not, makes the event already queued (the insert below meets it)
         EXISTS (SELECT 1 FROM webhooks.queue p WHERE p.webhook_oid = $1 AND p.delivered_at IS NULL
                 AND (p.event_id = o.event_id OR p.replay_event_id = o.event_id)
                 AND p.replay_id IS DISTINCT FROM $6::bigint) AS pending
       FROM webhooks.outbox o, h, b WHERE ${inWindow} AND o.event_id > $4
       ORDER BY o.event_id LIMIT $5
     ), ins AS (
       INSERT INTO webhooks.queue (webhook_oid, event_name, payload, size, replay_id, replay_event_id)
       SELECT $1, ev.event_name, ev.payload,
         coalesce(ev.size, octet_length(jsonb_build_object(ev.event_name, ev.payload)::text)), $6, ev.event_id
       FROM ev WHERE NOT ev.pending ORDER BY ev.event_id
       ON CONFLICT (replay_id, replay_event_id) DO NOTHING
       RETURNING queue_id
     )
     SELECT (SELECT count(*) FROM ev)::int AS scanned, (SELECT count(*) FROM ins)::int AS queued,
       (SELECT count(*) FROM ev WHERE ev.pending)::int AS pending, (SELECT max(event_id) FROM ev) AS last,
       EXISTS (SELECT 1 FROM webhooks.outbox o, h, b
               WHERE ${inWindow} AND o.event_id > (SELECT coalesce(max(event_id), $4) FROM ev)) AS more,
       (SELECT horizon FROM z) AS horizon`,
    [oid, w.since.toISOString(), w.until.toISOString(), afterEventId, limit, w.replayId, replayDays],
  );
  const r = rows[0]!;
  return {
    scanned: r.scanned,
    queued: r.queued,
    alreadyQueued: r.scanned - r.queued - r.pending,
    skippedPending: r.pending,
    lastEventId: r.last === null ? null : Number(r.last),
    more: r.more,
    horizon: new Date(r.horizon),
  };
}
