/**
 * Queue callbacks of the webhooks service, mounted by functions/delivery.ts under /webhooks (behind
 * verifyQstash): `POST /webhooks/drain` (outbox fan-out) and `POST /webhooks/deliver`
 * `{webhook_oid, retry_token?}` (one delivery run, see deliver.ts). Both are idempotent; a handled
 * outcome (delivered, retry scheduled, skipped) answers 200, infrastructure errors 500 so QStash
 * retries the message.
 */
import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../platform/env.ts';
import { verifiedJson } from '../platform/queue.ts';
import { parseWith } from '../platform/validate.ts';
import { deliverWebhook, drainOutbox } from './deliver.ts';

export const webhooksJobs = new Hono<AppEnv>();

const deliverMessage = z.object({
  webhook_oid: z.number().int().positive(),
  retry_token: z.string().max(100).optional(),
});

webhooksJobs.post('/drain', async (c) => {
  const r = await drainOutbox(c.env, c.get('db'));
  return c.json({ ok: true, events: r.events, webhooks: r.webhooks.length });
});

webhooksJobs.post('/deliver', async (c) => {
  const msg = parseWith(deliverMessage, verifiedJson(c));
  const r = await deliverWebhook(c.env, c.get('db'), msg.webhook_oid, msg.retry_token ?? null);
  return c.json({ ok: true, ...r });
});
