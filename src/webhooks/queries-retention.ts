/**
 * SQL of retention, run by the cron sweep (deliver.ts `sweepWebhooks`), each statement bounded by
 * `limit` rows so one sweep stays short (the next minute's continues):
 *  - queue rows delivered more than `retentionDays` ago (pending rows are never touched);
 *  - logs older than `retentionDays`;
 *  - outbox events older than `replayDays` once fanned out (replay never reads past its window, and a
 *    queue row carries its own copy of the payload);
 *  - replay windows older than `retentionDays` with no queue row left.
 * Why replay stays idempotent (retention > replay window): a replay row of event e is created after e
 * and delivered at d; it is pruned only after d + retention, when the replay horizon (now − replayDays)
 * is past d, so past e: no replay can reach e again. Both cut-offs use the database's clock, as the
 * replay horizon does (queries-replay.ts).
 */
import type { Queryable } from '../platform/db.ts';

export interface Retention {
  retentionDays: number;
  replayDays: number;
  limit: number;
}

export interface Pruned {
  queue: number;
  logs: number;
  outbox: number;
  replays: number;
}

async function count(q: Queryable, sql: string, params: unknown[]): Promise<number> {
  const rows = await q.query<{ n: number }>(
    `WITH gone AS (${sql} RETURNING 1) SELECT count(*)::int AS n FROM gone`,
    params,
  );
  return rows[0]!.n;
}

export async function pruneDelivery(q: Queryable, r: Retention): Promise<Pruned> {
  const keep = 'now() - make_interval(days => $1::int)';
  const queue = await count(
    q,
    `DELETE FROM webhooks.queue WHERE queue_id IN (SELECT queue_id FROM webhooks.queue
       WHERE delivered_at IS NOT NULL AND delivered_at < ${keep} ORDER BY delivered_at LIMIT $2)`,
    [r.retentionDays, r.limit],
  );
  const logs = await count(
    q,
    `DELETE FROM webhooks.logs WHERE request_id IN (SELECT request_id FROM webhooks.logs
       WHERE delivery_dts < ${keep} ORDER BY delivery_dts LIMIT $2)`,
    [r.retentionDays, r.limit],
  );
  const outbox = await count(
    q,
    `DELETE FROM webhooks.outbox WHERE event_id IN (SELECT event_id FROM webhooks.outbox
       WHERE created_at < ${keep} AND fanned_out_at IS NOT NULL ORDER BY created_at LIMIT $2)`,
    [r.replayDays, r.limit],
  );
  const replays = await count(
    q,
    `DELETE FROM webhooks.replays WHERE replay_id IN (SELECT r.replay_id FROM webhooks.replays r
       WHERE r.created_at < ${keep}
         AND NOT EXISTS (SELECT 1 FROM webhooks.queue x WHERE x.replay_id = r.replay_id)
       ORDER BY r.created_at LIMIT $2)`,
    [r.retentionDays, r.limit],
  );
  return { queue, logs, outbox, replays };
}
