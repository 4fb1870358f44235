/**
 * `npm run bench:webhooks`: events delivered per second end to end on a local stack (embedded PGlite
 * in memory, or DATABASE_URL): events written with recordRawEvent, the outbox notification through the
 * local QStash, fan-out and per-webhook delivery in the delivery worker (served over HTTP), to a
 * local receiver that answers 200. Measured from the first emit until the receiver has every event,
 * with batching off (maximum_events = 1) and on (maximum_events = BENCH_BATCH, default 100), each
 * "live" (events written while the clock runs) and "backlog" (events already in the outbox).
 * Options (env): BENCH_EVENTS (2000), BENCH_BATCH (100).
 * `--ledger`: the ledger run under faults instead (tools/ledger/cli.ts, docs/webhooks.md).
 */
import { createServer } from 'node:http';
import delivery from '../functions/delivery.ts';
import pipeline from '../functions/pipeline.ts';
import { createDb } from '../src/platform/db.ts';
import type { Env } from '../src/platform/env.ts';
import { notifyOutbox, recordRawEvent } from '../src/platform/events.ts';
import { createMerchantKey } from '../src/webhooks/merchant-keys.ts';
import { readBody } from '../src/webhooks/payload.ts';
import { serveWorker } from './stack/serve-worker.ts';
import { workerVars } from './stack/config.ts';
import { startStack } from './stack/index.ts';
import { encryptionKey } from '../src/platform/config/shared.ts';

if (process.argv.includes('--ledger')) {
  const { ledgerMain } = await import('./ledger/cli.ts');
  process.exit(await ledgerMain(process.argv.slice(2)));
}

const EVENTS = Number(process.env.BENCH_EVENTS ?? 2000);
const BATCH = Number(process.env.BENCH_BATCH ?? 100);

const stack = await startStack({
  databaseUrl: process.env.DATABASE_URL,
  ports: { postgres: 0, neonProxy: 0, qstash: 0, mail: 0, sample: 0 },
});
const baseVars = { NEON_LOCAL_PROXY: stack.neonProxy, QSTASH_URL: stack.qstashUrl, MAIL_API_URL: stack.mailUrl };
const served = await serveWorker(
  delivery,
  (url) => workerVars(stack.databaseUrl, { ...baseVars, DELIVERY_URL: url }) as unknown as Env,
);
const env = workerVars(stack.databaseUrl, { ...baseVars, DELIVERY_URL: served.url }) as unknown as Env;
const db = createDb(env);

let received = 0;
let onAll: (() => void) | undefined;
let target = 0;
const receiver = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  received += (await readBody(Buffer.concat(chunks).toString('utf8'))).length;
  res.end('ok');
  if (received >= target && onAll) onAll();
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;

// biome-ignore lint/suspicious/noExplicitAny: the UltraCart API's JSON, read loosely by the bench
async function call(method: string, path: string, key: string, body?: unknown): Promise<any> {
  const res = await pipeline.fetch(
    new Request(`http://bench${path}`, {
      method,
      headers: { 'X-UltraCart-Simple-Key': key, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
    env,
    { waitUntil: () => {}, passThroughOnException: () => {} } as never,
  );
  return res.json();
}

/**
 * live: the clock starts before the first emit (250 events per transaction, a notification after
 * each), so the figure includes writing the events; backlog: the events are already in the outbox
 * when the clock starts with one notification, so the figure is fan-out plus delivery alone.
 */
async function run(label: string, maximumEvents: number, mode: 'live' | 'backlog'): Promise<void> {
  await db.query('UPDATE webhooks.webhooks SET disabled = true');
  await db.query('UPDATE webhooks.outbox SET fanned_out_at = now() WHERE fanned_out_at IS NULL');
  const { key } = await createMerchantKey(db, encryptionKey(env), `BENCH_${maximumEvents}`);
  const created = await call('POST', '/rest/v2/webhook/webhooks', key, {
    webhook_url: `${receiverUrl}/hook`,
    maximum_events: maximumEvents,
    maximum_size: 5_242_880,
    event_categories: [{ event_category: 'book', subscribed: true }],
  });
  if (!created.success) throw new Error(`could not create the bench webhook: ${JSON.stringify(created.error)}`);
  received = 0;
  target = EVENTS;
  const done = new Promise<void>((r) => (onAll = r));
  const emit = async (notify: boolean) => {
    for (let i = 0; i < EVENTS; i += 250) {
      await db.transaction(async (tx) => {
        for (let j = i; j < Math.min(EVENTS, i + 250); j++)
          await recordRawEvent(tx, {
            name: 'book_posted',
            objectId: `bench-${j}`,
            payload: { book_id: `bench-${j}`, title: `Bench book ${j}`, price: j % 100 },
          });
      });
      if (notify) await notifyOutbox(env);
    }
  };
  if (mode === 'backlog') await emit(false);
  const t0 = performance.now();
  if (mode === 'live') await emit(true);
  else await notifyOutbox(env);
  const emitted = (performance.now() - t0) / 1000;
  await done;
  const seconds = (performance.now() - t0) / 1000;
  const note = mode === 'live' ? `(all emitted after ${emitted.toFixed(2)} s)` : '(backlog: fan-out + delivery only)';
  console.log(
    `${label.padEnd(42)} ${EVENTS} events in ${seconds.toFixed(2).padStart(6)} s ${(EVENTS / seconds).toFixed(0).padStart(6)} events/s   ${note}`,
  );
}

try {
  console.log(
    `database: ${stack.embedded ? 'embedded PGlite (in memory)' : 'PostgreSQL at DATABASE_URL'}; ${EVENTS} events per run, one webhook, receiver answers 200`,
  );
  for (const mode of ['live', 'backlog'] as const) {
    await run(`${mode}, batching off (maximum_events=1)`, 1, mode);
    await run(`${mode}, batching on (maximum_events=${BATCH})`, BATCH, mode);
  }
} finally {
  await db.close();
  receiver.closeAllConnections();
  receiver.close();
  await served.close();
  await stack.close();
}
