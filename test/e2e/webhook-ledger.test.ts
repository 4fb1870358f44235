/**
 * The ledger run (tools/ledger/run.ts) at a small size: 200 events over the four faulty receivers,
 * the delivery function in its own process killed (SIGKILL) and restarted once per round. It starts
 * its own stack (embedded PGlite), so nothing here depends on the suite's shared one.
 */
import { describe, expect, it } from 'vitest';
import { runLedger } from '../../tools/ledger/run.ts';
import { balanced } from '../../tools/ledger/tally.ts';

describe('webhook ledger under faults (small)', () => {
  it('accounts for every published event across a crash of the delivery process', async () => {
    const lines: string[] = [];
    const r = await runLedger({
      events: 200,
      batch: 5,
      chunk: 10,
      leaseSeconds: 6,
      downMs: 1000,
      outageMs: 1500,
      settleTimeoutMs: 60_000,
      log: (l) => lines.push(l),
    });
    const t = r.total;
    const rounds = r.rounds.map((x) => ({ ...x, tally: { ...x.tally, latencies: [] } }));
    const why = JSON.stringify({ lines, rounds });
    expect(
      r.rounds.map((x) => [x.maximumEvents, x.kills, x.settled]),
      why,
    ).toEqual([
      [1, 1, true],
      [5, 1, true],
    ]);
    expect(lines.filter((l) => l.includes('killed the delivery process'))).toHaveLength(2);
    expect(t.published).toBe(200);
    expect(t.lost, why).toBe(0);
    expect(t.fifoViolations, why).toBe(0);
    expect(t.delivered + t.deadLettered + t.disabledSkipped).toBe(200);
    expect(balanced(t)).toBe(true);
    // every receiver behaviour really happened: random 500s, held requests, a 410 that disabled its webhook
    // (a kill can cut the 410's bookkeeping, and the re-sent batch meets a second 410)
    for (const round of r.rounds) {
      expect(Object.values(round.statuses).reduce((n, s) => n + (s[500] ?? 0), 0)).toBeGreaterThan(0);
      expect(round.statuses.timeout[0], why).toBeGreaterThan(0);
      expect(round.statuses.gone[410], why).toBeGreaterThanOrEqual(1);
      expect(round.tally.deadLettered + round.tally.disabledSkipped, why).toBeGreaterThan(0);
    }
    // only the 410 webhook's events may be undelivered: 75 of each round's 100 go to the three others
    expect(t.delivered, why).toBeGreaterThanOrEqual(150);
    expect(t.duplicates, why).toBe(t.duplicatesSameWebhookId);
    expect(t.latencies).toHaveLength(t.delivered);
  }, 150_000);
});
