/**
 * The ledger run (`npm run bench:webhooks -- --ledger`, docs/webhooks.md "Ledger under faults"): on a
 * fresh local stack, the delivery function in its own process (delivery-child.ts), four webhooks, one
 * per receiver behaviour (receivers.ts: all fail 30% of requests; one also times out, one answers
 * 410, one stops for a while), each subscribed to its own event name, so every event is owed to one
 * webhook. Two rounds, batching off (maximum_events 1) then on; each publishes its half of the events
 * (transactions of `chunk`, a notification after each), kills the delivery process with SIGKILL once
 * 40% of the round's events have arrived and starts it again on the same port, runs the minute sweep
 * every 2 s (the cron, compressed), waits until nothing is pending on an enabled webhook, then
 * classifies every published event from the receivers' records and the database (tally.ts).
 */
import pipeline from '../../functions/pipeline.ts';
import { createDb, type Db } from '../../src/platform/db.ts';
import type { Env } from '../../src/platform/env.ts';
import { sweepWebhooks } from '../../src/webhooks/deliver.ts';
import { notifyOutbox, recordRawEvent } from '../../src/platform/events.ts';
import { createMerchantKey } from '../../src/webhooks/merchant-keys.ts';
import { workerVars } from '../stack/config.ts';
import { freshDatabase } from '../stack/fresh-database.ts';
import { freePort, startStack } from '../stack/index.ts';
import { DeliveryChild } from './delivery-child.ts';
import { startReceiver, type Behaviour, type LedgerReceiver, type Receipt } from './receivers.ts';
import { addTallies, emptyTally, tally, type Published, type QueueState, type Tally } from './tally.ts';
import { encryptionKey } from '../../src/platform/config/shared.ts';

export interface LedgerOptions {
  /** Events over both rounds (half each). */
  events: number;
  /** maximum_events of the batching-on round. */
  batch: number;
  databaseUrl?: string;
  failRate?: number;
  /** Fraction of a round's events received before the delivery process is killed. */
  killAt?: number;
  /** How long the delivery process stays dead. */
  downMs?: number;
  outageMs?: number;
  /** WEBHOOK_RETRY_BASE_SECONDS / _MAX_SECONDS of the run (0: a failed batch is retried at once). */
  retryBaseSeconds?: number;
  retryMaxSeconds?: number;
  leaseSeconds?: number;
  chunk?: number;
  settleTimeoutMs?: number;
  log?: (line: string) => void;
}

export interface RoundResult {
  label: string;
  maximumEvents: number;
  tally: Tally;
  /** First publish to last first-receipt. */
  seconds: number;
  kills: number;
  settled: boolean;
  statuses: Record<Behaviour, Record<string, number>>;
}

export interface LedgerResult {
  rounds: RoundResult[];
  total: Tally;
}

const HOOKS: { behaviour: Behaviour; event: string; category: string }[] = [
  { behaviour: 'flaky', event: 'book_posted', category: 'book' },
  { behaviour: 'timeout', event: 'book_status_changed', category: 'book' },
  { behaviour: 'gone', event: 'book_unlisted', category: 'book' },
  { behaviour: 'outage', event: 'task_finished', category: 'pipeline' },
];
const SWEEP_MS = 2_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Ctx {
  env: Env;
  db: Db;
  key: string;
  child: DeliveryChild;
  runId: string;
  o: Required<Omit<LedgerOptions, 'databaseUrl' | 'log'>> & { log: (l: string) => void };
}

/** The one answer the ledger reads: a created webhook in UltraCart's envelope. */
interface ApiAnswer {
  success: boolean;
  error?: unknown;
  webhook: { webhook_oid: number };
}

async function api(ctx: Ctx, method: string, path: string, body?: unknown): Promise<ApiAnswer> {
  const req = new Request(`http://ledger${path}`, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
    headers: { 'X-UltraCart-Simple-Key': ctx.key, 'content-type': 'application/json' },
  });
  const res = await pipeline.fetch(req, ctx.env, { waitUntil: () => {}, passThroughOnException: () => {} } as never);
  return res.json();
}

const oidList = (oids: number[]) => `{${oids.join(',')}}`;

async function settledNow(ctx: Ctx, oids: number[]): Promise<boolean> {
  const [row] = await ctx.db.query<{ unfanned: number; pending: number }>(
    `SELECT (SELECT count(*) FROM webhooks.outbox WHERE fanned_out_at IS NULL)::int AS unfanned,
       (SELECT count(*) FROM webhooks.queue q JOIN webhooks.webhooks w ON w.webhook_oid = q.webhook_oid
        WHERE q.webhook_oid = ANY($1::bigint[]) AND NOT w.disabled AND q.delivered_at IS NULL)::int AS pending`,
    [oidList(oids)],
  );
  return row!.unfanned === 0 && row!.pending === 0;
}

async function dbState(ctx: Ctx, oids: number[], roundTag: string) {
  const queue = new Map<string, QueueState>();
  const rows = await ctx.db.query<{ id: string; delivered: boolean }>(
    `SELECT payload->>'ledger_id' AS id, delivered_at IS NOT NULL AS delivered FROM webhooks.queue
     WHERE webhook_oid = ANY($1::bigint[])`,
    [oidList(oids)],
  );
  for (const r of rows) queue.set(r.id, { queued: true, deliveredInDb: r.delivered });
  const fanned = await ctx.db.query<{ id: string }>(
    `SELECT payload->>'ledger_id' AS id FROM webhooks.outbox
     WHERE fanned_out_at IS NOT NULL AND payload->>'ledger_round' = $1`,
    [roundTag],
  );
  const disabled = await ctx.db.query<{ webhook_oid: number }>(
    'SELECT webhook_oid FROM webhooks.webhooks WHERE webhook_oid = ANY($1::bigint[]) AND disabled',
    [oidList(oids)],
  );
  const disabledOids = new Set(disabled.map((r) => Number(r.webhook_oid)));
  return { queue, fannedOut: new Set(fanned.map((r) => r.id)), disabled: disabledOids };
}

async function round(ctx: Ctx, no: number, maximumEvents: number, n: number): Promise<RoundResult> {
  const { o } = ctx;
  const label = `batching ${maximumEvents === 1 ? 'off' : 'on'} (maximum_events=${maximumEvents})`;
  const roundTag = `${ctx.runId}-${no}`;
  const share = Math.ceil(n / HOOKS.length);
  const requestsExpected = Math.ceil(share / maximumEvents) * 1.5;
  const hangMs = (o.leaseSeconds - 5) * 1000 + 1500;
  // The ledger owns the database: older webhooks (earlier rounds, demo data) must not take these events.
  await ctx.db.query('UPDATE webhooks.webhooks SET disabled = true WHERE NOT disabled');
  const receivers: LedgerReceiver[] = await Promise.all(
    HOOKS.map((h, i) =>
      startReceiver({
        behaviour: h.behaviour,
        failRate: o.failRate,
        seed: no * 100 + i + 1,
        hangEvery: Math.max(2, Math.floor(requestsExpected / 4)),
        maxHangs: 3,
        hangMs,
        goneAfter: Math.floor(share * 0.4),
        outageAfter: Math.floor(share * 0.3),
        outageMs: o.outageMs,
      }),
    ),
  );
  const oids: number[] = [];
  try {
    for (const [i, h] of HOOKS.entries()) {
      const created = await api(ctx, 'POST', '/rest/v2/webhook/webhooks', {
        webhook_url: receivers[i]!.url,
        maximum_events: maximumEvents,
        maximum_size: 5_242_880,
        event_categories: [{ event_category: h.category, events: [{ event_name: h.event, subscribed: true }] }],
      });
      if (!created.success) throw new Error(`could not create a ledger webhook: ${JSON.stringify(created.error)}`);
      oids.push(Number(created.webhook.webhook_oid));
    }
    const distinct = (r: LedgerReceiver) => new Set(r.receipts.map((x) => x.id)).size;
    const received = () => receivers.reduce((s, r) => s + distinct(r), 0);
    let killed = false;
    let stop = false;
    const killer = (async () => {
      while (!stop && !killed) {
        await sleep(100);
        if (received() < o.killAt * n) continue;
        await ctx.child.kill();
        o.log(
          `  killed the delivery process (SIGKILL) after ${received()} of ${n} events arrived; ` +
            `down ${o.downMs} ms`,
        );
        await sleep(o.downMs);
        await ctx.child.start();
        killed = true;
      }
    })();
    const sweeper = (async () => {
      while (!stop) {
        await sleep(SWEEP_MS);
        await sweepWebhooks(ctx.env).catch((err) => o.log(`  sweep failed: ${(err as Error).message}`));
      }
    })();
    const published: Published[] = [];
    const t0 = Date.now();
    // Live, not a backlog: the publisher stays within `window` undelivered events of the receivers
    // (a webhook that answered 410 no longer counts), waiting at most 10 s per chunk, so events are
    // also published after the 410 (disabled-skipped) and publish-to-delivery times are those of a
    // system keeping up.
    const window = Math.max(o.chunk, 2 * maximumEvents * HOOKS.length);
    const outstanding = () =>
      published.filter((_p, k) => {
        const r = receivers[k % HOOKS.length]!;
        return !(r.behaviour === 'gone' && r.statuses[410]);
      }).length - receivers.reduce((s, r) => s + (r.behaviour === 'gone' && r.statuses[410] ? 0 : distinct(r)), 0);
    for (let i = 0; i < n; i += o.chunk) {
      for (const waitUntil = Date.now() + 10_000; outstanding() > window && Date.now() < waitUntil; ) await sleep(20);
      const batch: Omit<Published, 'at'>[] = [];
      await ctx.db.transaction(async (tx) => {
        for (let j = i; j < Math.min(n, i + o.chunk); j++) {
          const w = j % HOOKS.length;
          const seq = Math.floor(j / HOOKS.length);
          const id = `${roundTag}-${w}-${seq}`;
          const payload = { ledger_id: id, ledger_round: roundTag, seq };
          await recordRawEvent(tx, { name: HOOKS[w]!.event, objectId: id, payload });
          batch.push({ id, webhook: oids[w]!, seq });
        }
      });
      const at = Date.now();
      for (const b of batch) published.push({ ...b, at });
      await notifyOutbox(ctx.env);
    }
    const deadline = Date.now() + o.settleTimeoutMs;
    let settled = false;
    while (Date.now() < deadline) {
      await sleep(250);
      if (killed && (await settledNow(ctx, oids).catch(() => false))) {
        settled = true;
        break;
      }
    }
    stop = true;
    await Promise.all([killer, sweeper]);
    if (!settled) o.log(`  not settled after ${o.settleTimeoutMs / 1000} s: what is still pending counts as lost`);
    const lastReceipt = Math.max(t0, ...receivers.flatMap((r) => r.receipts.map((x) => x.at)));
    const receipts = new Map<number, Receipt[]>(receivers.map((r, i) => [oids[i]!, r.receipts]));
    const t = tally({ published, receipts, ...(await dbState(ctx, oids, roundTag)) });
    const statuses = Object.fromEntries(receivers.map((r) => [r.behaviour, { ...r.statuses }]));
    const seconds = (lastReceipt - t0) / 1000;
    const kills = killed ? 1 : 0;
    return { label, maximumEvents, tally: t, seconds, kills, settled, statuses: statuses as RoundResult['statuses'] };
  } finally {
    await Promise.all(receivers.map((r) => r.close()));
    const off = 'UPDATE webhooks.webhooks SET disabled = true WHERE webhook_oid = ANY($1::bigint[])';
    if (oids.length) await ctx.db.query(off, [oidList(oids)]);
  }
}

export async function runLedger(opts: LedgerOptions): Promise<LedgerResult> {
  const o: Ctx['o'] = {
    events: opts.events,
    batch: opts.batch,
    failRate: opts.failRate ?? 0.3,
    killAt: opts.killAt ?? 0.4,
    downMs: opts.downMs ?? 2_000,
    outageMs: opts.outageMs ?? 3_000,
    retryBaseSeconds: opts.retryBaseSeconds ?? 0,
    retryMaxSeconds: opts.retryMaxSeconds ?? 0,
    leaseSeconds: opts.leaseSeconds ?? 8,
    chunk: opts.chunk ?? 50,
    settleTimeoutMs: opts.settleTimeoutMs ?? 600_000,
    log: opts.log ?? (() => {}),
  };
  // A PostgreSQL server gets a fresh database, dropped afterwards: the run disables every webhook it finds.
  const fresh = opts.databaseUrl ? await freshDatabase(opts.databaseUrl, 'edge_ledger') : undefined;
  const stack = await startStack({
    databaseUrl: fresh?.url,
    qstashRetryBaseMs: 250,
    ports: { postgres: 0, neonProxy: 0, qstash: 0, mail: 0, sample: 0 },
  });
  const port = await freePort();
  const vars = workerVars(stack.databaseUrl, {
    NEON_LOCAL_PROXY: stack.neonProxy,
    QSTASH_URL: stack.qstashUrl,
    MAIL_API_URL: stack.mailUrl,
    DELIVERY_URL: `http://127.0.0.1:${port}`,
    WEBHOOK_RETRY_BASE_SECONDS: String(o.retryBaseSeconds),
    WEBHOOK_RETRY_MAX_SECONDS: String(o.retryMaxSeconds),
    WEBHOOK_DISABLE_AFTER_FAILURES: '1000000',
    WEBHOOK_LEASE_SECONDS: String(o.leaseSeconds),
  });
  const env = vars as unknown as Env;
  const db = createDb(env);
  const child = new DeliveryChild(port, vars);
  try {
    await child.start();
    const { key } = await createMerchantKey(db, encryptionKey(env), 'LEDGER');
    const ctx: Ctx = { env, db, key, child, runId: crypto.randomUUID().slice(0, 8), o };
    const off = Math.floor(o.events / 2);
    const rounds: RoundResult[] = [];
    for (const [no, [max, n]] of [
      [1, off],
      [o.batch, o.events - off],
    ].entries()) {
      o.log(`round ${no + 1}: ${n} events, maximum_events=${max}`);
      rounds.push(await round(ctx, no + 1, max!, n!));
    }
    return { rounds, total: rounds.reduce((a, r) => addTallies(a, r.tally), emptyTally()) };
  } catch (err) {
    const tail = child.stderrTail();
    if (tail) o.log(`delivery process stderr (last lines):\n${tail}`);
    throw err;
  } finally {
    await child.kill();
    await db.close();
    await stack.close();
    await fresh?.drop();
  }
}
