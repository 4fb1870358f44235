/**
 * The queue: work that must not happen inside the request that asked for it (mail, webhook
 * delivery, pipeline runs, background ingestion) is published through QStash's real `Client`; QStash
 * calls the `delivery` function back at `DELIVERY_URL + path`, and `verifyQstash` checks the
 * `Upstash-Signature` there with QStash's real `Receiver` (raw body, the exact URL, both signing keys
 * from env). A bad, missing, expired or re-targeted signature gets 401, which QStash retries and
 * finally dead-letters.
 *
 * Handlers behind it must be idempotent: QStash delivers at least once. `Upstash-Message-Id` is
 * exposed as `messageId(c)` for keying (see `once` in idempotency.ts).
 */
import { Client, Receiver } from '@upstash/qstash';
import type { Context, MiddlewareHandler } from 'hono';
import { queueConfig, queueReceiverConfig } from './config/shared.ts';
import type { AppEnv, Env } from './env.ts';

export interface PublishOptions {
  /** Path on the delivery function, e.g. `/mail/send`. */
  path: string;
  body: unknown;
  /** Seconds to wait before the first delivery. */
  delaySeconds?: number;
  /** Retries after the first attempt (QStash default 3). */
  retries?: number;
  /** QStash retry-delay expression in milliseconds of `retried`, e.g. `pow(2, retried) * 1000` (default: QStash's exponential backoff). */
  retryDelay?: string;
  /** QStash drops a second publish with the same id inside its dedup window. */
  deduplicationId?: string;
  /** Path on the delivery function to call when all retries failed. */
  failurePath?: string;
  headers?: Record<string, string>;
  timeoutSeconds?: number;
}

export interface Published {
  messageId: string;
}

export function queueClient(env: Pick<Env, 'QSTASH_TOKEN' | 'QSTASH_URL'>): Client {
  const { QSTASH_TOKEN, QSTASH_URL } = queueConfig(env);
  return new Client({ token: QSTASH_TOKEN, ...(QSTASH_URL ? { baseUrl: QSTASH_URL } : {}) });
}

export function deliveryUrl(env: Pick<Env, 'DELIVERY_URL'>, path: string): string {
  return queueConfig(env).DELIVERY_URL + (path.startsWith('/') ? path : `/${path}`);
}

export async function publish(env: Env, opts: PublishOptions): Promise<Published> {
  const client = queueClient(env);
  const res = await client.publishJSON({
    url: deliveryUrl(env, opts.path),
    body: opts.body,
    ...(opts.delaySeconds ? { delay: opts.delaySeconds } : {}),
    ...(opts.retries !== undefined ? { retries: opts.retries } : {}),
    ...(opts.retryDelay ? { retryDelay: opts.retryDelay } : {}),
    ...(opts.deduplicationId ? { deduplicationId: opts.deduplicationId } : {}),
    ...(opts.failurePath ? { failureCallback: deliveryUrl(env, opts.failurePath) } : {}),
    ...(opts.timeoutSeconds ? { timeout: opts.timeoutSeconds } : {}),
    ...(opts.headers ? { headers: opts.headers } : {}),
  });
  return { messageId: (res as { messageId: string }).messageId };
}

/** The URL QStash signed: the public delivery URL (proxies rewrite hosts), not the request URL. */
function signedUrl(c: Context<AppEnv>): string {
  const u = new URL(c.req.url);
  return deliveryUrl(c.env, u.pathname + u.search);
}

export const verifyQstash: MiddlewareHandler<AppEnv> = async (c, next) => {
  const signature = c.req.header('Upstash-Signature');
  const body = await c.req.text();
  if (!signature) return c.json({ error: 'missing Upstash-Signature' }, 401);
  const keys = queueReceiverConfig(c.env);
  const receiver = new Receiver({
    currentSigningKey: keys.QSTASH_CURRENT_SIGNING_KEY,
    nextSigningKey: keys.QSTASH_NEXT_SIGNING_KEY,
  });
  let ok = false;
  try {
    ok = await receiver.verify({ signature, body, url: signedUrl(c) });
  } catch {
    ok = false;
  }
  if (!ok) return c.json({ error: 'invalid Upstash-Signature' }, 401);
  c.set('rawBody', body);
  await next();
};

export function messageId(c: Context): string | undefined {
  return c.req.header('Upstash-Message-Id') ?? undefined;
}

/** Parses the verified raw body as JSON (400 when it is not). */
export function verifiedJson<T = unknown>(c: Context<AppEnv>): T {
  try {
    return JSON.parse(c.get('rawBody')) as T;
  } catch {
    throw new SyntaxError('queue message body is not JSON');
  }
}
