/**
 * The cron entry (wrangler.toml [env.marketplace.triggers]): runs the unlisting job with its own
 * database handle (there is no request), queues the owners' mails and wakes the webhook outbox
 * after commit, and closes the handle. Safe to run twice: see unlisting.ts.
 */
import { createDb } from '../platform/db.ts';
import type { Env } from '../platform/env.ts';
import { notifyOutbox } from '../platform/events.ts';
import { queueAll } from './mailer.ts';
import { unlistDays, unlistOldBooks, type UnlistResult } from './unlisting.ts';
import { plural } from '../platform/plural.ts';

export async function runScheduledUnlisting(env: Env): Promise<UnlistResult> {
  const db = createDb(env);
  try {
    const days = unlistDays(env);
    const r = await db.transaction((tx) => unlistOldBooks(tx, days));
    if (r.unlisted.length) await Promise.all([queueAll(env, r.mails), notifyOutbox(env)]);
    console.log(
      `marketplace: unlisting job moved ${plural(r.unlisted.length, 'book')} of ${plural(r.owners, 'owner')} older than ${days} days`,
    );
    return r;
  } finally {
    await db.close();
  }
}
