/**
 * The delivery statements on the real database: the SQL batch cut in startRun/completeBatch follows
 * the same rule as payload.ts's takeBatch (count limit, size limit with the envelope, the first event
 * always goes, no skipping), a restarted run re-sends the in-flight batch under the same id, and a
 * completed batch hands over the next one or releases the lease. Webhooks here subscribe to nothing,
 * so no fan-out reaches them; each case deletes its webhook.
 */
import { describe, expect, it } from 'vitest';
import { takeBatch } from '../../../src/webhooks/payload.ts';
import { completeBatch, releaseLease, startRun, type AttemptLog } from '../../../src/webhooks/queries-delivery.ts';
import { testDb } from '../../support/env.ts';

async function webhookWithQueue(sizes: number[], maximumEvents: number, maximumSize: number): Promise<number> {
  const db = testDb();
  const [row] = await db.query<{ webhook_oid: number }>(
    `INSERT INTO webhooks.webhooks (merchant_id, webhook_url, signing_secret_enc, maximum_events, maximum_size) VALUES ('MERCH_CUT', 'https://cut.example.com/', 'v1:x:y', $1, $2) RETURNING webhook_oid`,
    [maximumEvents, maximumSize],
  );
  if (sizes.length) {
    await db.query(
      `INSERT INTO webhooks.queue (webhook_oid, event_name, payload, size) SELECT $1, 'task_finished', jsonb_build_object('n', n), s FROM unnest($2::int[]) WITH ORDINALITY AS t(s, n) ORDER BY n`,
      [row!.webhook_oid, sizes],
    );
  }
  return row!.webhook_oid;
}

const log = (oid: number, batchId: string, n: number): AttemptLog => ({
  requestId: crypto.randomUUID(),
  webhookOid: oid,
  batchId,
  duration: 1,
  queueDelay: 0,
  request: '{}',
  requestHeaders: [],
  response: 'ok',
  responseHeaders: [],
  statusCode: 200,
  success: true,
  uri: 'https://cut.example.com/',
  eventCount: n,
});

describe('the SQL batch cut', () => {
  it.each([
    ['count limit', [10, 10, 10, 10], 3, 1000],
    ['size limit: envelope 13 + 10 + 1 + 10 = 34', [10, 10, 10], 10, 34],
    ['size limit exact fit of three', [10, 10, 10], 10, 45],
    ['first event always goes even when oversized', [5000, 10], 10, 1000],
    ['stops at the first event that does not fit (FIFO, no skipping)', [10, 900, 10], 10, 100],
    ['empty queue', [], 10, 1000],
  ])('%s: the same prefix as takeBatch', async (_n, sizes, maxEvents, maxSize) => {
    const oid = await webhookWithQueue(sizes, maxEvents, maxSize);
    try {
      const run = await startRun(testDb(), {
        oid,
        leaseToken: 'lease_cut',
        retryToken: null,
        leaseSeconds: 60,
        newBatchId: 'msg_cut1',
      });
      const expected = takeBatch(
        sizes.map((size, i) => ({ size, n: i + 1 })),
        maxEvents,
        maxSize,
      );
      expect(run?.webhook.lease_token).toBe('lease_cut');
      expect(run?.batch?.rows.map((r) => r.payload) ?? []).toEqual(expected.map((e) => ({ n: e.n })));
      expect(run?.batch?.id).toBe(expected.length ? 'msg_cut1' : undefined);
    } finally {
      await testDb().query('DELETE FROM webhooks.webhooks WHERE webhook_oid = $1', [oid]);
    }
  });

  it('a restarted run re-sends the in-flight batch; completion cuts the next, then releases the lease', async () => {
    const db = testDb();
    const oid = await webhookWithQueue([10, 10, 10, 10, 10], 2, 1000);
    try {
      const first = await startRun(db, {
        oid,
        leaseToken: 'lease_a',
        retryToken: null,
        leaseSeconds: 60,
        newBatchId: 'msg_a',
      });
      expect(first?.batch).toMatchObject({ id: 'msg_a', rows: [{ payload: { n: 1 } }, { payload: { n: 2 } }] });
      // The lease is held: another run is refused.
      expect(
        await startRun(db, { oid, leaseToken: 'lease_b', retryToken: null, leaseSeconds: 60, newBatchId: 'msg_b' }),
      ).toBeUndefined();
      // The run dies before a 2xx: the next run gets the same batch id and rows (same webhook-id).
      await releaseLease(db, oid, 'lease_a');
      const again = await startRun(db, {
        oid,
        leaseToken: 'lease_b',
        retryToken: null,
        leaseSeconds: 60,
        newBatchId: 'msg_b',
      });
      expect(again?.batch).toEqual(first?.batch);
      const next = await completeBatch(db, log(oid, 'msg_a', 2), {
        leaseToken: 'lease_b',
        goOn: true,
        newBatchId: 'msg_c',
        leaseSeconds: 60,
      });
      expect(next.next).toMatchObject({ id: 'msg_c', rows: [{ payload: { n: 3 } }, { payload: { n: 4 } }] });
      // Out of time: the batch is recorded, no new batch is cut, the lease is released.
      expect(
        await completeBatch(db, log(oid, 'msg_c', 2), {
          leaseToken: 'lease_b',
          goOn: false,
          newBatchId: 'msg_d',
          leaseSeconds: 60,
        }),
      ).toEqual({ next: undefined, disabled: false });
      const st = await db.query(
        'SELECT lease_token, inflight_batch, (SELECT count(*)::int FROM webhooks.queue q WHERE q.webhook_oid = w.webhook_oid AND q.delivered_at IS NULL) AS pending, (SELECT count(*)::int FROM webhooks.logs l WHERE l.webhook_oid = w.webhook_oid) AS logs FROM webhooks.webhooks w WHERE webhook_oid = $1',
        [oid],
      );
      expect(st).toEqual([{ lease_token: null, inflight_batch: null, pending: 1, logs: 2 }]);
      const last = await startRun(db, {
        oid,
        leaseToken: 'lease_e',
        retryToken: null,
        leaseSeconds: 60,
        newBatchId: 'msg_e',
      });
      expect(last?.batch).toMatchObject({ id: 'msg_e', rows: [{ payload: { n: 5 } }] });
      expect(
        await completeBatch(db, log(oid, 'msg_e', 1), {
          leaseToken: 'lease_e',
          goOn: true,
          newBatchId: 'msg_f',
          leaseSeconds: 60,
        }),
      ).toEqual({ next: undefined, disabled: false });
      expect(
        await db.query('SELECT lease_token, inflight_batch FROM webhooks.webhooks WHERE webhook_oid = $1', [oid]),
      ).toEqual([{ lease_token: null, inflight_batch: null }]);
    } finally {
      await db.query('DELETE FROM webhooks.webhooks WHERE webhook_oid = $1', [oid]);
    }
  });
});
