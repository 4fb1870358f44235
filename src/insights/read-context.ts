/** The context of a read through (read-through.ts), in a file of its own so that what a read calls can name it. */
import type { Db } from '../platform/db.ts';
import type { Env } from '../platform/env.ts';

/** What a read needs besides its key: plain values a route (or a queue callback) supplies. */
export interface ReadContext {
  db: Db;
  /** Upstream URLs (ingest/http.ts) and the queue (platform/queue.ts). */
  env: Env;
  /** INSIGHTS_READ_THROUGH: when false, a miss stays a miss (answers come from the store only). */
  readThrough: boolean;
  /** INSIGHTS_REFRESH_AFTER_SECONDS: a stored package older than this is refreshed in the background. */
  refreshAfterSeconds: number;
  /** Keeps work running after the answer is sent (a Worker's `waitUntil`). */
  defer(work: Promise<unknown>): void;
}
