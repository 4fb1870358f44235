/**
 * A QStash-compatible local server, answering like QStash's official development server: same
 * development token and signing keys, so the real `@upstash/qstash` Client (with `baseUrl`, or with
 * `QSTASH_DEV=1`) publishes to it and the real `Receiver` verifies what it delivers.
 *
 * API: `POST /v2/publish/<url>`, `POST /v2/enqueue/<queue>/<url>` (FIFO, one at a time per queue),
 * `POST /v2/batch`, `GET /v2/keys`, `GET|DELETE /v2/messages/<id>`, `GET /v2/dlq`,
 * `DELETE /v2/dlq/<dlqId>`, `POST /v2/dlq/retry/<dlqId>`, `GET /v2/events`.
 * Headers honoured: Upstash-Method, -Delay, -Not-Before, -Retries (default 3), -Retry-Delay (an
 * expression of `retried` in ms), -Timeout, -Callback, -Failure-Callback, -Deduplication-Id,
 * -Content-Based-Deduplication, -Forward-* (forwarded without the prefix), Content-Type.
 * Delivery adds Upstash-Message-Id, Upstash-Retried and Upstash-Signature (HS256 JWT: iss Upstash,
 * sub = destination URL, iat/nbf/exp(+5 min)/jti, body = base64url SHA-256 of the body). Any
 * non-2xx or network error is retried with backoff (QStash's production schedule unless configured,
 * see `retryDelay`); after the last retry the message goes to the
 * dead-letter list and the failure callback (if any) is called.
 *
 * Parts: retry-delay.ts (the Upstash-Retry-Delay language), qstash-message.ts (a message from a
 * publish request, and its JSON forms), qstash-broker.ts (schedule, queue, deliver, retry,
 * dead-letter), qstash-routes.ts (the HTTP API); this file wires them to a listening server.
 *
 * `signingKey` can be overridden to make a server that signs with a wrong key (tests use it to
 * prove receivers refuse forged messages).
 */
import { createServer, type Server } from 'node:http';
import { QSTASH_DEV } from './config.ts';
import { QstashBroker, type QstashEvent } from './qstash-broker.ts';
import type { Message } from './qstash-message.ts';
import { answerQstashRequest } from './qstash-routes.ts';
import { evalRetryDelay, PRODUCTION_RETRY_DELAY } from './retry-delay.ts';

export type { QstashEvent } from './qstash-broker.ts';
/** Re-exported for the commands that check QSTASH_RETRY_DELAY before starting the stack. */
export { evalRetryDelay, PRODUCTION_RETRY_DELAY } from './retry-delay.ts';

export interface QstashOptions {
  port: number;
  host?: string;
  token?: string;
  currentSigningKey?: string;
  nextSigningKey?: string;
  /** Key actually used to sign deliveries (defaults to currentSigningKey). */
  signingKey?: string;
  /**
   * Backoff for retries without Upstash-Retry-Delay. Default: QStash's production schedule,
   * `min(86400, e^(2.5 n))` seconds for the n-th retry (12 s, 2 min 28 s, 30 min, ...). `retryDelay`
   * replaces it with an expression in QStash's Upstash-Retry-Delay language (milliseconds, variable
   * `retried` = retries so far); `retryBaseMs` (tests) with base * 2^retried ms capped at retryMaxMs.
   */
  retryDelay?: string;
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** Retries when the publisher sends no Upstash-Retries (default 3, QStash's free-plan maximum). */
  defaultRetries?: number;
  log?: (line: string) => void;
}

export interface QstashServer {
  server: Server;
  port: number;
  url: string;
  events: QstashEvent[];
  dlq(): Message[];
  close(): Promise<void>;
}

/**
 * The backoff for messages without their own Upstash-Retry-Delay: `retryBaseMs` doubling (tests),
 * else the `retryDelay` expression, else QStash's production schedule. A bad expression fails here,
 * at start, not at the first retry.
 */
function defaultBackoff(opts: QstashOptions): (retried: number) => number {
  if (opts.retryDelay) evalRetryDelay(opts.retryDelay, 0);
  const { retryBaseMs } = opts;
  if (retryBaseMs !== undefined) {
    const max = opts.retryMaxMs ?? 60_000;
    return (retried) => Math.min(max, retryBaseMs * 2 ** retried);
  }
  const expr = opts.retryDelay ?? PRODUCTION_RETRY_DELAY;
  return (retried) => evalRetryDelay(expr, retried);
}

async function listen(server: Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return (server.address() as { port: number }).port;
}

export async function startQstashServer(opts: QstashOptions): Promise<QstashServer> {
  const host = opts.host ?? '127.0.0.1';
  const keys = {
    current: opts.currentSigningKey ?? QSTASH_DEV.currentSigningKey,
    next: opts.nextSigningKey ?? QSTASH_DEV.nextSigningKey,
  };
  const broker = new QstashBroker({
    signingKey: opts.signingKey ?? keys.current,
    defaultDelay: defaultBackoff(opts),
    defaultRetries: opts.defaultRetries ?? 3,
    log: opts.log ?? (() => {}),
  });
  const ctx = { broker, keys, token: opts.token ?? QSTASH_DEV.token };
  const server = createServer((req, res) => void answerQstashRequest(req, res, ctx));
  const port = await listen(server, opts.port, host);
  return {
    server,
    port,
    url: `http://${host}:${port}`,
    events: broker.events,
    dlq: () => broker.deadLetters(),
    async close() {
      broker.close();
      await new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections?.();
    },
  };
}
