/**
 * The attempts API, an extension beside the UltraCart resource (whose logs list attempts per batch,
 * not per event): where each event of a webhook stands, every attempt made for one event, a
 * webhook's success rate and oldest undelivered event, and the same on a server-rendered HTML page.
 *   GET .../webhooks/{oid}/events?_limit&_offset&_state=pending|delivered   newest first
 *   GET .../webhooks/{oid}/events/{event_id}/attempts                         oldest first
 *   GET .../webhooks/{oid}/stats?_since
 *   GET .../webhooks/{oid}/status                                             text/html (key or signed link)
 */
import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../platform/env.ts';
import { HttpError } from '../platform/errors.ts';
import { validate } from '../platform/validate.ts';
import { merchantOf } from './merchant-keys.ts';
import { ok, resultSet } from './views.ts';
import { attemptView, eventView, statsView } from './views-attempts.ts';
import { eventAttempts, eventRows, listEvents, recentAttempts, webhookStats } from './queries-attempts.ts';
import { BASE, mustGet, oidParam } from './routes-shared.ts';
import { renderStatusPage, STATUS_PAGE_HEADERS } from './views-status-page.ts';

export const attemptRoutes = new Hono<AppEnv>();

const PATH = `${BASE}/webhooks/:webhook_oid`;
const when = z
  .string()
  .max(40)
  .refine((s) => !Number.isNaN(Date.parse(s)), { message: 'must be a date/time' });
const eventsQuery = z.object({
  _limit: z.coerce.number().int().min(1).max(500).default(100),
  _offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  _state: z.enum(['pending', 'delivered']).optional(),
});
const eventParam = oidParam.extend({ event_id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) });
const statsQuery = z.object({ _since: when.optional() });

attemptRoutes.get(`${PATH}/events`, validate('param', oidParam), validate('query', eventsQuery), async (c) => {
  const m = merchantOf(c.get('principal'));
  const db = c.get('db');
  const oid = c.req.valid('param').webhook_oid;
  await mustGet(db, m.merchantId, oid);
  const q = c.req.valid('query');
  const { rows, total } = await listEvents(db, oid, { limit: q._limit, offset: q._offset, state: q._state });
  const events = rows.map(eventView);
  return c.json(ok({ webhook_events: events }, resultSet('webhook_events', events.length, q._limit, q._offset, total)));
});

attemptRoutes.get(`${PATH}/events/:event_id/attempts`, validate('param', eventParam), async (c) => {
  const m = merchantOf(c.get('principal'));
  const db = c.get('db');
  const { webhook_oid: oid, event_id: eventId } = c.req.valid('param');
  await mustGet(db, m.merchantId, oid);
  const rows = await eventRows(db, oid, eventId);
  if (rows.length === 0) throw new HttpError(404, `event ${eventId} was never queued for webhook ${oid}`);
  const attempts = (await eventAttempts(db, oid, eventId)).map(attemptView);
  return c.json(ok({ webhook_event_deliveries: rows.map(eventView), attempts }));
});

attemptRoutes.get(`${PATH}/stats`, validate('param', oidParam), validate('query', statsQuery), async (c) => {
  const m = merchantOf(c.get('principal'));
  const db = c.get('db');
  const oid = c.req.valid('param').webhook_oid;
  await mustGet(db, m.merchantId, oid);
  const since = c.req.valid('query')._since;
  const stats = await webhookStats(db, oid, since ? new Date(since) : null);
  return c.json(ok({ webhook_stats: statsView(stats) }));
});

attemptRoutes.get(`${PATH}/status`, validate('param', oidParam), async (c) => {
  const m = merchantOf(c.get('principal'));
  const db = c.get('db');
  const oid = c.req.valid('param').webhook_oid;
  const w = await mustGet(db, m.merchantId, oid);
  const [stats, attempts, events] = [
    await webhookStats(db, oid, null),
    await recentAttempts(db, oid, 50),
    (await listEvents(db, oid, { limit: 50, offset: 0, state: undefined })).rows,
  ];
  const html = renderStatusPage(w, statsView(stats), attempts.map(attemptView), events.map(eventView));
  return c.html(html, 200, STATUS_PAGE_HEADERS);
});
