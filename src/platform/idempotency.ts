/**
 * `once(db, key, fn)`: runs `fn` at most once per key to completion. The key is claimed in
 * `platform.processed_messages` inside the same transaction as `fn`'s own writes, so a crash or a
 * thrown error rolls the claim back and the queue's retry runs it again; a duplicate delivery
 * after success finds the key and does nothing. Side effects outside the database (mail, HTTP) are
 * at-least-once: they happen before COMMIT and repeat only if COMMIT itself fails.
 */
import type { Db, Queryable } from './db.ts';

export async function once<T>(
  db: Db,
  key: string,
  fn: (tx: Queryable) => Promise<T>,
): Promise<{ ran: true; result: T } | { ran: false }> {
  return db.transaction(async (tx) => {
    const claimed = await tx.query(
      'INSERT INTO platform.processed_messages (key) VALUES ($1) ON CONFLICT (key) DO NOTHING RETURNING key',
      [key],
    );
    if (claimed.length === 0) return { ran: false } as const;
    const result = await fn(tx);
    return { ran: true, result } as const;
  });
}
