/**
 * The platform's own queue callbacks: `/platform/echo` (records the message, proving the round trip
 * publish -> QStash -> signed callback -> delivery -> row) and `/mail/send` (sends one mail through
 * the mail API, at most once per queue message id).
 */
import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from './env.ts';
import { once } from './idempotency.ts';
import { sendMail } from './mail.ts';
import { messageId, verifiedJson } from './queue.ts';
import { parseWith } from './validate.ts';

export const MAIL_JOB = z.object({
  to: z.union([z.string().email(), z.array(z.string().email()).min(1)]),
  subject: z.string().min(1).max(500),
  text: z.string().min(1),
  html: z.string().optional(),
  /** Stable key of the mail (e.g. `signup:<token>`), so a re-published job is not sent twice. */
  key: z.string().min(1).max(200).optional(),
});
export type MailJob = z.infer<typeof MAIL_JOB>;

export const platformJobs = new Hono<AppEnv>();

platformJobs.post('/platform/echo', async (c) => {
  const id = messageId(c) ?? 'unknown';
  await c
    .get('db')
    .query(
      'INSERT INTO platform.queue_echoes (message_id, payload) VALUES ($1, $2) ON CONFLICT (message_id) DO NOTHING',
      [id, JSON.stringify(verifiedJson(c))],
    );
  return c.json({ ok: true, messageId: id });
});

platformJobs.post('/mail/send', async (c) => {
  const job = parseWith(MAIL_JOB, verifiedJson(c));
  const key = `mail:${job.key ?? messageId(c) ?? crypto.randomUUID()}`;
  const r = await once(c.get('db'), key, async () => {
    await sendMail(c.env, job, key);
  });
  return c.json({ ok: true, sent: r.ran });
});
