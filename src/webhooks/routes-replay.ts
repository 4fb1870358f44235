/**
 * Recovery, an extension beside the UltraCart resource: `POST .../webhooks/{oid}/replay
 * {since, until, limit?, resume_token?}` queues again, as new attempts (new batches, new
 * `webhook-id`s), every event the webhook is subscribed to that was recorded in [since, until),
 * in event order, behind what is already queued. Bounded: at most `limit` events (default 500,
 * at most 1000) are looked at per request; when more remain the answer carries `resume_token` for
 * the next request. Idempotent: the same window asked again (or a page resumed twice) queues
 * nothing new. Events already waiting for this webhook (their original delivery, or another
 * window's replay, not yet acknowledged) are skipped: they will be delivered anyway. Bounded in time:
 * events recorded before the replay horizon (now − WEBHOOK_REPLAY_DAYS, pruned by retention) are not
 * replayed; the answer then says from when it replayed (`replayed_since`) and warns.
 */
import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../platform/env.ts';
import { HttpError } from '../platform/errors.ts';
import { validate } from '../platform/validate.ts';
import { scheduleDelivery } from './deliver.ts';
import { merchantOf } from './merchant-keys.ts';
import { ok } from './views.ts';
import { getReplay, replayFor, replayPage, type ReplayWindow } from './queries-replay.ts';
import { BASE, mustGet, oidParam } from './routes-shared.ts';
import { webhooksConfig } from './config.ts';

export const replayRoutes = new Hono<AppEnv>();

export const REPLAY_DEFAULT_LIMIT = 500;
export const REPLAY_MAX_LIMIT = 1000;
const TOKEN = /^rt_(\d{1,15})_(\d{1,18})$/;

const when = z
  .string()
  .max(40)
  .refine((s) => !Number.isNaN(Date.parse(s)), { message: 'must be a date/time' });
const replayBody = z
  .object({
    since: when.optional(),
    until: when.optional(),
    limit: z.coerce.number().int().min(1).max(REPLAY_MAX_LIMIT).default(REPLAY_DEFAULT_LIMIT),
    resume_token: z.string().max(40).regex(TOKEN, { message: 'not a resume_token of this API' }).optional(),
  })
  .strict();

function sameInstant(given: string | undefined, stored: Date): boolean {
  return given === undefined || Date.parse(given) === stored.getTime();
}

const PATH = `${BASE}/webhooks/:webhook_oid/replay`;

/** The answer's warning (UltraCart's Warning) when the window starts before the replay horizon. */
function pastHorizon(horizon: string, whole: boolean, days: number) {
  return {
    warning_message: whole
      ? `nothing replayed: the whole window is older than the replay window (${days} days, since ${horizon})`
      : `events recorded before ${horizon} were not replayed: they are older than the replay window (${days} days)`,
    more_info: 'WEBHOOK_REPLAY_DAYS bounds replay; older events are pruned (docs/webhooks.md, Retention)',
  };
}

replayRoutes.post(PATH, validate('param', oidParam), validate('json', replayBody), async (c) => {
  const m = merchantOf(c.get('principal'));
  const db = c.get('db');
  const oid = c.req.valid('param').webhook_oid;
  const w = await mustGet(db, m.merchantId, oid);
  const b = c.req.valid('json');
  let window: ReplayWindow;
  let after = 0;
  if (b.resume_token) {
    const [, id, pos] = TOKEN.exec(b.resume_token)!;
    const found = await getReplay(db, oid, Number(id));
    if (!found) throw new HttpError(400, 'resume_token does not belong to this webhook');
    if (!sameInstant(b.since, found.since) || !sameInstant(b.until, found.until)) {
      throw new HttpError(400, 'resume_token belongs to another since/until window');
    }
    window = found;
    after = Number(pos);
  } else {
    if (!b.since || !b.until) throw new HttpError(400, 'since and until are required (or a resume_token)');
    const since = new Date(b.since);
    const until = new Date(b.until);
    if (since.getTime() >= until.getTime()) throw new HttpError(400, 'since must be before until');
    window = await replayFor(db, oid, since, until);
  }
  const replayDays = webhooksConfig(c.env).WEBHOOK_REPLAY_DAYS;
  const page = await db.transaction((tx) => replayPage(tx, oid, window, after, b.limit, replayDays));
  if (page.queued > 0 && !w.disabled) {
    const warn = (err: unknown) => console.warn('replay schedule failed (sweep will retry):', (err as Error).message);
    c.executionCtx.waitUntil(scheduleDelivery(c.env, oid).catch(warn));
  }
  const resume = page.more && page.lastEventId !== null ? `rt_${window.replayId}_${page.lastEventId}` : null;
  const cut = window.since.getTime() < page.horizon.getTime() ? page.horizon.toISOString() : null;
  return c.json(
    ok({
      ...(cut ? { warning: pastHorizon(cut, window.until.getTime() <= page.horizon.getTime(), replayDays) } : {}),
      replay: {
        since: window.since.toISOString(),
        until: window.until.toISOString(),
        scanned: page.scanned,
        queued: page.queued,
        already_queued: page.alreadyQueued,
        skipped_pending: page.skippedPending,
        more: page.more,
        resume_token: resume,
        replayed_since: cut,
      },
    }),
  );
});
