/**
 * The delivery function as its own process, for the ledger run (tools/ledger/run.ts): serves
 * functions/delivery.ts's fetch over HTTP on 127.0.0.1:$LEDGER_DELIVERY_PORT with the bindings in
 * $LEDGER_DELIVERY_VARS (JSON), and prints `ready <url>` once listening. The ledger kills it with
 * SIGKILL mid-run (requests in flight die with it, like a crashed isolate) and starts it again on
 * the same port, where QStash's retries find it.
 */
import delivery from '../../functions/delivery.ts';
import type { Env } from '../../src/platform/env.ts';
import { serveWorker } from '../stack/serve-worker.ts';

const port = Number(process.env.LEDGER_DELIVERY_PORT);
const vars = JSON.parse(process.env.LEDGER_DELIVERY_VARS ?? '{}') as Record<string, string>;
const served = await serveWorker(delivery, (url) => ({ ...vars, DELIVERY_URL: url }) as unknown as Env, port);
process.stdout.write(`ready ${served.url}\n`);
process.on('SIGTERM', () => void served.close().then(() => process.exit(0)));
