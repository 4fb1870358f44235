/**
 * Loopback receivers of the ledger run (tools/ledger/run.ts). Every one fails `failRate` of its
 * requests at random (500, no record); on top of that each has one behaviour:
 *  - `flaky`: nothing more;
 *  - `timeout`: now and then holds a request without answering longer than the delivery's attempt
 *    timeout, then drops the connection (the delivery sees a timeout: status 0);
 *  - `gone`: once it has received `goneAfter` events, answers 410 to everything (the webhook is
 *    disabled, see docs/webhooks.md "Ledger");
 *  - `outage`: once it has received `outageAfter` events, stops listening for `outageMs` (connection
 *    refused), then listens again on the same port.
 * On a 2xx it records every event of the body (its `ledger_id`, `seq`, the request's `webhook-id`,
 * the time) in arrival order: the ledger's view of what was delivered. A receiver deduplicates by
 * event id, so repeated receipts are counted, not double-delivered.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readBody } from '../../src/webhooks/payload.ts';
import { seededRandom } from '../seeded-random.ts';

export type Behaviour = 'flaky' | 'timeout' | 'gone' | 'outage';

export interface Receipt {
  id: string;
  seq: number;
  webhookId: string;
  at: number;
}

export interface ReceiverOptions {
  behaviour: Behaviour;
  failRate: number;
  /** Deterministic draws (mulberry32 seed). */
  seed: number;
  /** timeout: hold every `hangEvery`-th request (at most `maxHangs`) for `hangMs`. */
  hangEvery?: number;
  maxHangs?: number;
  hangMs?: number;
  /** gone: distinct events received before it answers 410 for good. */
  goneAfter?: number;
  /** outage: distinct events received before it stops, and for how long. */
  outageAfter?: number;
  outageMs?: number;
}

export interface LedgerReceiver {
  behaviour: Behaviour;
  url: string;
  receipts: Receipt[];
  /** Answers by status (0 = held, then dropped). */
  statuses: Record<string, number>;
  outages: number;
  close(): Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startReceiver(o: ReceiverOptions): Promise<LedgerReceiver> {
  const random = seededRandom(o.seed);
  const receipts: Receipt[] = [];
  const seen = new Set<string>();
  const statuses: Record<string, number> = {};
  const count = (s: number) => {
    statuses[s] = (statuses[s] ?? 0) + 1;
  };
  let requests = 0;
  let hangs = 0;
  let outages = 0;
  let closed = false;
  const held = new Set<ServerResponse>();
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };

  let server: Server;
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server = createServer((req, res) => void handle(req, res));
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
  const stop = () =>
    new Promise<void>((r) => {
      server.close(() => r());
      server.closeAllConnections();
    });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await bodyOf(req);
    requests++;
    if (o.behaviour === 'gone' && seen.size >= (o.goneAfter ?? Infinity)) {
      count(410);
      res.writeHead(410).end('gone');
      return;
    }
    if (o.behaviour === 'timeout' && requests % (o.hangEvery ?? 100) === 0 && hangs < (o.maxHangs ?? 3)) {
      hangs++;
      count(0);
      held.add(res);
      later(o.hangMs ?? 5000, () => {
        held.delete(res);
        req.socket.destroy();
      });
      return;
    }
    if (random() < o.failRate) {
      count(500);
      res.writeHead(500).end('random failure');
      return;
    }
    const at = Date.now();
    const webhookId = String(req.headers['webhook-id'] ?? '');
    for (const ev of await readBody(text)) {
      const payload = Object.values(ev)[0] as { ledger_id: string; seq: number };
      receipts.push({ id: payload.ledger_id, seq: payload.seq, webhookId, at });
      seen.add(payload.ledger_id);
    }
    count(200);
    res.writeHead(200).end('ok');
    if (o.behaviour === 'outage' && outages === 0 && seen.size >= (o.outageAfter ?? Infinity)) {
      outages++;
      const port = (server.address() as { port: number }).port;
      const back = () => void (closed || listen(port).catch(() => {}));
      setImmediate(() => void stop().then(() => later(o.outageMs ?? 3000, back)));
    }
  }

  await listen(0);
  const port = (server!.address() as { port: number }).port;
  return {
    behaviour: o.behaviour,
    url: `http://127.0.0.1:${port}/hook`,
    receipts,
    statuses,
    get outages() {
      return outages;
    },
    async close() {
      closed = true;
      for (const t of timers) clearTimeout(t);
      for (const r of held) r.socket?.destroy();
      if (server.listening) await stop();
    },
  };
}
