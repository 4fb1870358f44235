/**
 * The ledger's arithmetic (definitions in docs/webhooks.md, "Ledger under faults"): every published
 * event is owed to exactly one webhook and ends in exactly one of
 *  - delivered: its receiver answered 2xx to a request carrying it (counted once per event id);
 *  - dead-lettered: still in the webhook's queue, undelivered, on a webhook that delivery disabled
 *    (410 Gone, or too many failures): kept, and delivered if an operator re-enables it;
 *  - disabled-skipped: published while its webhook was disabled, so the fan-out queued it for no
 *    one (the outbox keeps it; a replay delivers it);
 *  - lost: anything else (never received although the webhook is enabled, or marked delivered in
 *    the database without its receiver having it).
 * duplicates = receipts of an event already received (at-least-once: a 2xx whose bookkeeping died
 * with the delivery process is re-sent with the same `webhook-id`); fifo-violations = events whose
 * first receipt came after the first receipt of a later event of the same webhook.
 */
import type { Receipt } from './receivers.ts';

export interface Published {
  id: string;
  webhook: number;
  seq: number;
  at: number;
}

export interface QueueState {
  queued: boolean;
  deliveredInDb: boolean;
}

export interface Tally {
  published: number;
  delivered: number;
  deadLettered: number;
  disabledSkipped: number;
  lost: number;
  duplicates: number;
  /** Duplicates that repeated a `webhook-id` the receiver had already acknowledged for that event. */
  duplicatesSameWebhookId: number;
  fifoViolations: number;
  /** ms from publish (commit) to first receipt, of delivered events. */
  latencies: number[];
  lostIds: string[];
}

export interface TallyInput {
  published: Published[];
  /** Per webhook, receipts in arrival order. */
  receipts: Map<number, Receipt[]>;
  /** By event id: whether it has a queue row for its webhook, and whether that row is marked delivered. */
  queue: Map<string, QueueState>;
  /** Ids the fan-out has handled (outbox `fanned_out_at` set). */
  fannedOut: Set<string>;
  disabled: Set<number>;
}

export function emptyTally(): Tally {
  return {
    published: 0,
    delivered: 0,
    deadLettered: 0,
    disabledSkipped: 0,
    lost: 0,
    duplicates: 0,
    duplicatesSameWebhookId: 0,
    fifoViolations: 0,
    latencies: [],
    lostIds: [],
  };
}

export function tally(input: TallyInput): Tally {
  const t = emptyTally();
  const first = new Map<string, Receipt>();
  for (const list of input.receipts.values()) {
    const acked = new Set<string>();
    let maxSeq = -Infinity;
    for (const r of list) {
      const pair = `${r.id} ${r.webhookId}`;
      if (first.has(r.id)) {
        t.duplicates++;
        if (acked.has(pair)) t.duplicatesSameWebhookId++;
      } else {
        first.set(r.id, r);
        if (r.seq < maxSeq) t.fifoViolations++;
        maxSeq = Math.max(maxSeq, r.seq);
      }
      acked.add(pair);
    }
  }
  for (const p of input.published) {
    t.published++;
    const got = first.get(p.id);
    const q = input.queue.get(p.id);
    if (got) {
      t.delivered++;
      t.latencies.push(got.at - p.at);
    } else if (input.disabled.has(p.webhook) && q && !q.deliveredInDb) {
      t.deadLettered++;
    } else if (input.disabled.has(p.webhook) && !q && input.fannedOut.has(p.id)) {
      t.disabledSkipped++;
    } else {
      t.lost++;
      if (t.lostIds.length < 20) t.lostIds.push(p.id);
    }
  }
  return t;
}

export function addTallies(a: Tally, b: Tally): Tally {
  return {
    published: a.published + b.published,
    delivered: a.delivered + b.delivered,
    deadLettered: a.deadLettered + b.deadLettered,
    disabledSkipped: a.disabledSkipped + b.disabledSkipped,
    lost: a.lost + b.lost,
    duplicates: a.duplicates + b.duplicates,
    duplicatesSameWebhookId: a.duplicatesSameWebhookId + b.duplicatesSameWebhookId,
    fifoViolations: a.fifoViolations + b.fifoViolations,
    latencies: [...a.latencies, ...b.latencies],
    lostIds: [...a.lostIds, ...b.lostIds].slice(0, 20),
  };
}

/** Nearest-rank percentile (p in 0..100) of ms values; NaN when empty. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function balanced(t: Tally): boolean {
  return t.lost === 0 && t.fifoViolations === 0 && t.published === t.delivered + t.deadLettered + t.disabledSkipped;
}

/** The last line of the run, for scripts. */
export function ledgerLine(t: Tally): string {
  return (
    `ledger: published ${t.published}, delivered ${t.delivered}, dead-lettered ${t.deadLettered}, ` +
    `disabled-skipped ${t.disabledSkipped}, lost ${t.lost}, duplicates ${t.duplicates}, ` +
    `fifo-violations ${t.fifoViolations}`
  );
}
