/** Queues one mail: the request returns at once and the delivery function sends it (`/mail/send`). */
import type { Env } from './env.ts';
import type { MailJob } from './jobs.ts';
import { publish } from './queue.ts';

export async function queueMail(env: Env, job: MailJob): Promise<string> {
  const { messageId } = await publish(env, {
    path: '/mail/send',
    body: job,
    ...(job.key ? { deduplicationId: `mail-${job.key}`.replace(/[^A-Za-z0-9_.-]/g, '_') } : {}),
  });
  return messageId;
}
