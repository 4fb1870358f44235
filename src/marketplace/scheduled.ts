/**
 * The cron entry (wrangler.toml [env.marketplace.triggers]): runs the unlisting job with its own
 * database handle (there is no request), queues the owners' mails and wakes the webhook outbox
 * after commit, and closes the handle. Safe to run twice: see unlisting.ts. The same run deletes the
 * rate-limit windows that have ended (market.rate_limits would otherwise keep one row per address ever tried).
 */
import { createDb } from '../platform/db.ts';
import type { Env } from '../platform/env.ts';
import { notifyOutbox } from '../platform/events.ts';
import { queueAll } from './mailer.ts';
import { unlistDays, unlistOldBooks, type UnlistResult } from './unlisting.ts';
import { plural } from '../platform/plural.ts';
import { pruneHits } from './queries-rate-limits.ts';
import { LONGEST_WINDOW_SECONDS } from './rate-limit.ts';

export async function runScheduledUnlisting(env: Env): Promise<UnlistResult> {
  const db = createDb(env);
  try {
    const days = unlistDays(env);
    const r = await db.transaction((tx) => unlistOldBooks(tx, days));
    if (r.unlisted.length) await Promise.all([queueAll(env, r.mails), notifyOutbox(env)]);
    const pruned = await pruneHits(db, LONGEST_WINDOW_SECONDS);
    console.log(
      `marketplace: unlisting job moved ${plural(r.unlisted.length, 'book')} of ${plural(r.owners, 'owner')} older than ${days} days; ${plural(pruned, 'ended rate-limit window')} deleted`,
    );
    return r;
  } finally {
    await db.close();
  }
}
