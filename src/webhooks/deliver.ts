/**
 * Delivery, driven by QStash messages to the delivery function (see delivery.ts).
 *
 * drain: fans unfanned outbox events (event_id order, under an advisory lock so queue order
 *   follows event order) into per-webhook queues, then asks for a delivery run per webhook touched.
 * deliver(webhook): takes the webhook's lease (one batch in flight per webhook); while pending rows
 *   remain and the time budget lasts: re-sends the in-flight batch if there is one (same batch id =
 *   same `webhook-id`), else cuts a new batch from the head of the queue; sends it; on 2xx marks its
 *   rows delivered and resets the failure state; otherwise counts the failure, sets next_retry_after
 *   (backoff with jitter), releases the lease and publishes one delayed retry carrying a retry
 *   token (only that message may run before next_retry_after). 410 or a run of
 *   WEBHOOK_DISABLE_AFTER_FAILURES failures disables the webhook. After releasing the lease the run
 *   re-checks pending rows, so rows queued while it held the lease are never stranded.
 * Round trips: taking the lease and picking the first batch is one statement; after each attempt one
 *   statement logs it and records its result (on 2xx it also marks the rows delivered, extends the
 *   lease and cuts the next batch, or releases the lease when the run ends), so a run of n batches
 *   costs n + 2 statements (the last is the pending re-check) and no transaction round trips.
 * Throttle (throttle.ts): with a rate_limit_per_second, attempt starts are spaced 1/rate apart (a
 *   short wait slept in the run, a long one handed to a delayed message); a 429/503's Retry-After
 *   lengthens the retry delay.
 * sweep: drains what a lost notification left in the outbox and restarts webhooks whose messages
 *   were lost (pending rows, no live lease, no retry waiting); then prunes delivered rows past
 *   retention (queries-retention.ts).
 *
 * No event is lost: rows leave `pending` only on a 2xx for their batch; every failure path either
 * schedules a retry or leaves the webhook for the sweep.
 */
import { createDb, type Db } from '../platform/db.ts';
import type { Env } from '../platform/env.ts';
import { publish } from '../platform/queue.ts';
import { retryDelaySeconds, retryPolicy, shouldDisable } from './backoff.ts';
import { buildBody } from './payload.ts';
import {
  completeBatch,
  failBatch,
  fanOut,
  pendingCount,
  releaseLease,
  stalledWebhooks,
  startRun,
  unfannedCount,
  type AttemptLog,
} from './queries-delivery.ts';
import { buildRequest, cut, headersForLog, send, TIMEOUT_MS } from './send.ts';
import { pruneDelivery, type Pruned } from './queries-retention.ts';
import { paceWaitMs, retryDelayWithRetryAfter } from './throttle.ts';
import { webhooksConfig } from './config.ts';

/** Lease on a webhook while a run holds it; an attempt's timeout stays 5 s under it (one batch in flight). */
function leaseSeconds(env: Env): number {
  return webhooksConfig(env).WEBHOOK_LEASE_SECONDS;
}
const RUN_BUDGET_MS = 20_000;
const MAX_QUEUE_DELAY_MS = 2_147_483_647;
const FANOUT_CHUNK = 500;
const PRUNE_LIMIT = 5000;

export async function scheduleDelivery(
  env: Env,
  webhookOid: number,
  opts: { retryToken?: string; delaySeconds?: number } = {},
): Promise<void> {
  await publish(env, {
    path: '/webhooks/deliver',
    body: { webhook_oid: webhookOid, ...(opts.retryToken ? { retry_token: opts.retryToken } : {}) },
    delaySeconds: opts.delaySeconds,
    retries: 5,
  });
}

export async function drainOutbox(env: Env, db: Db): Promise<{ events: number; webhooks: number[] }> {
  const touched = new Set<number>();
  let events = 0;
  const started = Date.now();
  for (;;) {
    const r = await db.transaction((tx) => fanOut(tx, FANOUT_CHUNK));
    events += r.events;
    for (const w of r.webhooks) touched.add(w);
    if (r.events < FANOUT_CHUNK || Date.now() - started > RUN_BUDGET_MS) break;
  }
  for (const oid of touched) await scheduleDelivery(env, oid);
  if (events === FANOUT_CHUNK && (await unfannedCount(db)) > 0)
    await publish(env, { path: '/webhooks/drain', body: { reason: 'continue' } });
  return { events, webhooks: [...touched] };
}

const newBatchId = () => `msg_${crypto.randomUUID().replace(/-/g, '')}`;

export type RunResult =
  | { state: 'skipped' }
  | { state: 'throttled'; batches: number; delaySeconds: number }
  | { state: 'done'; batches: number }
  | { state: 'retry'; batches: number; delaySeconds: number }
  | { state: 'disabled'; batches: number }
  | { state: 'continue'; batches: number };

/**
 * One delivery run for a webhook (see the header). Database round trips: one statement to take the
 * lease and pick the first batch, then one per attempt (log + result + the next batch), and one
 * pending re-check when the run ends with nothing left.
 */
export async function deliverWebhook(env: Env, db: Db, oid: number, retryToken: string | null): Promise<RunResult> {
  const lease = `lease_${crypto.randomUUID()}`;
  const LEASE_SECONDS = leaseSeconds(env);
  const timeoutMs = Math.min(TIMEOUT_MS, (LEASE_SECONDS - 5) * 1000);
  const started = await startRun(db, {
    oid,
    leaseToken: lease,
    retryToken,
    leaseSeconds: LEASE_SECONDS,
    newBatchId: newBatchId(),
  });
  if (!started) return { state: 'skipped' };
  const w = started.webhook;
  const policy = retryPolicy(env);
  const t0 = Date.now();
  let batches = 0;
  let failuresBefore = w.consecutive_failures;
  let batch = started.batch;
  // Throttle (throttle.ts): attempt starts at least 1/rate s apart; waits up to maxPaceMs are slept
  // here, longer ones hand over to a delayed message. The cap keeps a wait plus an attempt inside the lease.
  const rate = w.rate_limit_per_second;
  let lastStart = started.sinceLastAttemptMs === null ? null : Date.now() - started.sinceLastAttemptMs;
  const maxPaceMs = Math.min(5_000, Math.max(0, (LEASE_SECONDS * 1000 - timeoutMs) / 2));
  try {
    while (batch) {
      const wait = paceWaitMs(rate, lastStart);
      if (wait > maxPaceMs) {
        await releaseLease(db, oid, lease);
        const delaySeconds = Math.ceil(wait / 1000);
        await scheduleDelivery(env, oid, { delaySeconds });
        return { state: 'throttled', batches, delaySeconds };
      }
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      lastStart = Date.now();
      const now = new Date();
      const body = await buildBody(batch.rows, w.compress_events);
      const req = await buildRequest(env, w, body, batch.id, now, started.apiUserKeyEnc);
      const attempt = await send(env, w.webhook_url, req, timeoutMs);
      const success = attempt.status >= 200 && attempt.status < 300;
      const oldest = Math.min(...batch.rows.map((r) => r.created_at.getTime()));
      const log: AttemptLog = {
        requestId: crypto.randomUUID(),
        webhookOid: oid,
        batchId: batch.id,
        duration: attempt.durationMs,
        // logs.queue_delay is an integer of ms: an event queued over 24.8 days ago (a webhook disabled for a
        // month, then re-enabled) would overflow it and fail every run, so it is capped.
        queueDelay: Math.min(MAX_QUEUE_DELAY_MS, Math.max(0, now.getTime() - oldest)),
        request: cut(attempt.requestBody),
        requestHeaders: headersForLog(attempt.requestHeaders),
        response: cut(attempt.responseBody),
        responseHeaders: headersForLog(attempt.responseHeaders),
        statusCode: attempt.status,
        success,
        uri: attempt.uri,
        eventCount: batch.rows.length,
      };
      batches++;
      if (success) {
        const goOn = Date.now() - t0 <= RUN_BUDGET_MS;
        failuresBefore = 0;
        const done = await completeBatch(db, log, {
          leaseToken: lease,
          goOn,
          newBatchId: newBatchId(),
          leaseSeconds: LEASE_SECONDS,
        });
        if (done.next) {
          batch = done.next;
          continue;
        }
        if (done.disabled) return { state: 'done', batches };
        if (!goOn) {
          // Out of time: hand over to a new message (completeBatch released the lease).
          await scheduleDelivery(env, oid);
          return { state: 'continue', batches };
        }
        break;
      }
      const failures = failuresBefore + 1;
      const disable = shouldDisable(attempt.status, failures, policy);
      // A 429/503 with Retry-After waits at least that long (throttle.ts).
      const backoff = retryDelaySeconds(failures, policy);
      const delaySeconds = retryDelayWithRetryAfter(backoff, attempt.status, attempt.responseHeaders);
      const token = `retry_${crypto.randomUUID()}`;
      await failBatch(db, log, { delaySeconds, retryToken: token, disable });
      if (disable) return { state: 'disabled', batches };
      await scheduleDelivery(env, oid, { retryToken: token, delaySeconds });
      return { state: 'retry', batches, delaySeconds };
    }
  } catch (err) {
    for (let i = 0; i < 3; i++) {
      if (
        await releaseLease(db, oid, lease).then(
          () => true,
          () => false,
        )
      )
        break;
    }
    throw err;
  }
  // Nothing left in this run's snapshot, or the lease expired under us; the lease, if ours, is
  // released (by completeBatch, or here when the run found nothing to send). A fresh look catches
  // rows queued meanwhile whose own delivery message found the lease taken.
  if (batches === 0) await releaseLease(db, oid, lease);
  if ((await pendingCount(db, oid)) > 0) await scheduleDelivery(env, oid);
  return { state: 'done', batches };
}

/**
 * The scheduled sweep (wired to a cron by the platform): safe to call any time, from anywhere. It also
 * prunes what retention allows (queries-retention.ts), at most PRUNE_LIMIT rows per table per sweep.
 */
export async function sweepWebhooks(env: Env): Promise<{ drained: number; restarted: number; pruned: Pruned }> {
  const db = createDb(env);
  try {
    const drained = (await unfannedCount(db)) > 0 ? (await drainOutbox(env, db)).events : 0;
    const stalled = await stalledWebhooks(db, 1000);
    for (const s of stalled)
      await scheduleDelivery(env, s.webhook_oid, s.retry_token ? { retryToken: s.retry_token } : {});
    const c = webhooksConfig(env);
    const pruned = await pruneDelivery(db, {
      retentionDays: c.WEBHOOK_RETENTION_DAYS,
      replayDays: c.WEBHOOK_REPLAY_DAYS,
      limit: PRUNE_LIMIT,
    });
    return { drained, restarted: stalled.length, pruned };
  } finally {
    await db.close();
  }
}
