/**
 * `npm run bench:webhooks -- --ledger [--events N] [--batch B] [--down-ms MS] [--outage-ms MS]
 * [--retry-base S] [--lease S]
 * [--chunk C]` (DATABASE_URL: PostgreSQL instead of embedded PGlite). Prints each round (events/s,
 * p50/p99 publish-to-delivery, the receivers' answers, its ledger), then the total; the last line is
 * the ledger (tally.ts), and the exit code is 0 only when nothing was lost, FIFO held and
 * published = delivered + dead-lettered + disabled-skipped.
 */
import { runLedger, type RoundResult } from './run.ts';
import { balanced, ledgerLine, percentile, type Tally } from './tally.ts';

function option(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const n = Number(args[i + 1]);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} needs a number >= 0, got ${args[i + 1]}`);
  return n;
}

const ms = (v: number) => (Number.isNaN(v) ? '-' : `${Math.round(v)} ms`);

export function latencyLine(t: Tally): string {
  return `p50 ${ms(percentile(t.latencies, 50))}, p99 ${ms(percentile(t.latencies, 99))} publish to delivery`;
}

function roundLines(r: RoundResult): string[] {
  const rate = r.tally.published / Math.max(r.seconds, 0.001);
  const answers = Object.entries(r.statuses)
    .map(([b, s]) => `${b} ${JSON.stringify(s)}`)
    .join('; ');
  return [
    `${r.label}: ${r.tally.published} events in ${r.seconds.toFixed(1)} s = ${rate.toFixed(0)} events/s; ` +
      `${latencyLine(r.tally)}` +
      `; ${r.kills} kill(s)${r.settled ? '' : '; NOT SETTLED'}`,
    `  answers (0 = held past the timeout): ${answers}`,
    `  duplicates ${r.tally.duplicates} (same webhook-id re-sent: ${r.tally.duplicatesSameWebhookId}); ` +
      ledgerLine(r.tally),
    ...(r.tally.lostIds.length ? [`  lost, first ids: ${r.tally.lostIds.join(' ')}`] : []),
  ];
}

export async function ledgerMain(args: string[]): Promise<number> {
  const events = option(args, '--events', 10_000);
  const result = await runLedger({
    events,
    batch: option(args, '--batch', 100),
    databaseUrl: process.env.DATABASE_URL,
    downMs: option(args, '--down-ms', 2_000),
    outageMs: option(args, '--outage-ms', 3_000),
    retryBaseSeconds: option(args, '--retry-base', 0),
    retryMaxSeconds: option(args, '--retry-base', 0),
    leaseSeconds: option(args, '--lease', 8),
    chunk: Math.max(1, option(args, '--chunk', 50)),
    log: (l) => console.log(l),
  });
  for (const r of result.rounds) for (const l of roundLines(r)) console.log(l);
  const t = result.total;
  console.log(
    `all rounds: ${latencyLine(t)}; duplicates ${t.duplicates} ` + `(same webhook-id: ${t.duplicatesSameWebhookId})`,
  );
  console.log(ledgerLine(t));
  return balanced(t) ? 0 : 1;
}
