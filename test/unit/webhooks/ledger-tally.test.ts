/** The ledger's arithmetic (tools/ledger/tally.ts): each published event lands in exactly one column. */
import { describe, expect, it } from 'vitest';
import type { Receipt } from '../../../tools/ledger/receivers.ts';
import { balanced, ledgerLine, percentile, tally } from '../../../tools/ledger/tally.ts';
import type { Published, QueueState } from '../../../tools/ledger/tally.ts';

const pub = (webhook: number, seq: number): Published => ({ id: `${webhook}-${seq}`, webhook, seq, at: 1000 + seq });
const got = (p: Published, webhookId: string, at = p.at + 10): Receipt => ({ id: p.id, seq: p.seq, webhookId, at });

describe('ledger tally', () => {
  const a = [0, 1, 2, 3].map((s) => pub(1, s));
  const b = [0, 1, 2, 3].map((s) => pub(2, s));
  const queue = new Map<string, QueueState>(
    [...a, ...b.slice(0, 3)].map((p) => [p.id, { queued: true, deliveredInDb: p.webhook === 1 || p.seq === 0 }]),
  );
  const fannedOut = new Set([...a, ...b].map((p) => p.id));

  it('classifies delivered, dead-lettered and disabled-skipped events and balances', () => {
    // webhook 2 answered 410 after its first event: 1 and 2 wait in its queue, 3 was never queued.
    const receipts = new Map([
      [1, a.map((p) => got(p, `msg_${p.seq}`))],
      [2, [got(b[0]!, 'msg_b0')]],
    ]);
    const t = tally({ published: [...a, ...b], receipts, queue, fannedOut, disabled: new Set([2]) });
    expect(t).toMatchObject({ published: 8, delivered: 5, deadLettered: 2, disabledSkipped: 1, lost: 0 });
    expect(t.fifoViolations).toBe(0);
    expect(t.latencies).toEqual([10, 10, 10, 10, 10]);
    expect(balanced(t)).toBe(true);
    expect(ledgerLine(t)).toBe(
      'ledger: published 8, delivered 5, dead-lettered 2, disabled-skipped 1, lost 0, ' +
        'duplicates 0, fifo-violations 0',
    );
  });

  it('counts an event missing from an enabled webhook, or marked delivered but never received, as lost', () => {
    const receipts = new Map([
      [1, [a[0], a[1], a[3]].map((p) => got(p!, 'x'))],
      [2, [got(b[0]!, 'y')]],
    ]);
    const t = tally({ published: [...a, ...b], receipts, queue, fannedOut, disabled: new Set([2]) });
    expect(t.lost).toBe(1);
    expect(t.lostIds).toEqual(['1-2']);
    expect(balanced(t)).toBe(false);
    const deliveredInDb = new Map(queue).set('2-1', { queued: true, deliveredInDb: true });
    // b0 and b1 marked delivered without a receipt: lost; b2 dead-lettered; b3 disabled-skipped
    const t2 = tally({ published: b, receipts: new Map(), queue: deliveredInDb, fannedOut, disabled: new Set([2]) });
    expect([t2.lost, t2.deadLettered, t2.disabledSkipped]).toEqual([2, 1, 1]);
  });

  it('finds FIFO violations on first receipts and counts re-sends as duplicates', () => {
    const order = [a[0], a[2], a[1], a[3]].map((p) => got(p!, `msg_${p!.seq}`));
    const resent = [
      got(a[0]!, 'msg_0'),
      got(a[1]!, 'msg_1'),
      got(a[1]!, 'msg_1'),
      got(a[2]!, 'msg_2'),
      got(a[2]!, 'other'),
    ];
    const t1 = tally({ published: a, receipts: new Map([[1, order]]), queue, fannedOut, disabled: new Set() });
    expect(t1.fifoViolations).toBe(1);
    expect(balanced(t1)).toBe(false);
    const receipts = new Map([[1, resent]]);
    const t2 = tally({ published: a.slice(0, 3), receipts, queue, fannedOut, disabled: new Set() });
    expect(t2).toMatchObject({ delivered: 3, duplicates: 2, duplicatesSameWebhookId: 1, fifoViolations: 0 });
  });

  it('takes nearest-rank percentiles', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile([], 50)).toBeNaN();
  });
});
