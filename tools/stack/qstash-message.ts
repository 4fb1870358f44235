/**
 * A message of the local QStash server: its shape, how a publish request's `Upstash-*` headers become
 * one (`readPublishHeaders`), and the two JSON forms QStash shows of it (the `/v2/messages` and
 * `/v2/dlq` view, and the body of a callback or failure callback).
 */
import { createHash, randomUUID } from 'node:crypto';
import { evalRetryDelay } from './retry-delay.ts';

export type State = 'CREATED' | 'ACTIVE' | 'RETRY' | 'DELIVERED' | 'ERROR' | 'FAILED' | 'CANCELED';

export interface Message {
  messageId: string;
  url: string;
  method: string;
  headers: Record<string, string>;
  body: Buffer;
  maxRetries: number;
  retried: number;
  retryDelay?: string;
  timeoutMs: number;
  callback?: string;
  failureCallback?: string;
  notBefore: number;
  createdAt: number;
  queue?: string;
  state: State;
  lastResponse?: { status: number; body: string; headers: Record<string, string[]> };
  dlqId?: string;
  timer?: NodeJS.Timeout;
}

/** An error answered to the publisher with its status, in QStash's `{error}` form. */
export class HttpErr extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** `Upstash-Delay` / `Upstash-Timeout` values: an integer with an optional unit (seconds by default). */
export function parseDuration(v: string): number {
  const m = /^(\d+)(ms|s|m|h|d)?$/.exec(v.trim());
  if (!m) throw new Error(`invalid duration ${v}`);
  const n = Number(m[1]);
  return n * ({ ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] ?? 's'] ?? 1000);
}

type Headers = Record<string, string | undefined>;

function destinationUrl(destination: string): URL {
  let url: URL;
  try {
    url = new URL(destination);
  } catch {
    throw new HttpErr(400, `invalid destination: ${destination}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new HttpErr(400, 'destination must be http(s)');
  return url;
}

/** `Upstash-Forward-X` headers go out as `X`; the publisher's Content-Type goes out as is. */
function forwardedHeaders(headers: Headers): Record<string, string> {
  const forwarded: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v !== undefined && k.startsWith('upstash-forward-')) forwarded[k.slice('upstash-forward-'.length)] = v;
  }
  if (headers['content-type']) forwarded['content-type'] = headers['content-type'];
  return forwarded;
}

/** `Upstash-Not-Before` (unix seconds) wins over `Upstash-Delay` (a duration from now). */
function notBeforeOf(headers: Headers, now: number): number {
  try {
    const delayed = headers['upstash-delay'] ? now + parseDuration(headers['upstash-delay']) : now;
    return headers['upstash-not-before'] ? Number(headers['upstash-not-before']) * 1000 : delayed;
  } catch (err) {
    throw new HttpErr(400, (err as Error).message);
  }
}

function retriesOf(headers: Headers, defaultRetries: number): number {
  const retries = headers['upstash-retries'] !== undefined ? Number(headers['upstash-retries']) : defaultRetries;
  if (!Number.isInteger(retries) || retries < 0) throw new HttpErr(400, 'invalid Upstash-Retries');
  return retries;
}

/** A bad `Upstash-Retry-Delay` is refused at publish, not discovered at the first retry. */
function retryDelayOf(headers: Headers): string | undefined {
  const expr = headers['upstash-retry-delay'];
  if (!expr) return undefined;
  try {
    evalRetryDelay(expr, 0);
  } catch (err) {
    throw new HttpErr(400, (err as Error).message);
  }
  return expr;
}

/** The key two publishes share when QStash must deliver only the first (10 minutes). */
export function deduplicationKey(destination: string, headers: Headers, body: Buffer): string | undefined {
  if (headers['upstash-deduplication-id']) return headers['upstash-deduplication-id'];
  if (headers['upstash-content-based-deduplication'] !== 'true') return undefined;
  return createHash('sha256').update(destination).update(body).digest('hex');
}

/** A new message from a publish request (headers lower-cased); throws HttpErr(400) on a bad header. */
export function readPublishHeaders(
  destination: string,
  headers: Headers,
  body: Buffer,
  opts: { defaultRetries: number; queue?: string; now: number },
): Message {
  const url = destinationUrl(destination).toString();
  const notBefore = notBeforeOf(headers, opts.now);
  const maxRetries = retriesOf(headers, opts.defaultRetries);
  const retryDelay = retryDelayOf(headers);
  return {
    messageId: `msg_${randomUUID().replace(/-/g, '')}`,
    url,
    method: (headers['upstash-method'] ?? 'POST').toUpperCase(),
    headers: forwardedHeaders(headers),
    body,
    maxRetries,
    retried: 0,
    retryDelay,
    timeoutMs: headers['upstash-timeout'] ? parseDuration(headers['upstash-timeout']) : 30_000,
    callback: headers['upstash-callback'],
    failureCallback: headers['upstash-failure-callback'],
    notBefore,
    createdAt: opts.now,
    queue: opts.queue,
    state: 'CREATED',
  };
}

/** Checks a destination before deduplication answers with an earlier message. */
export function destinationOf(destination: string): string {
  return destinationUrl(destination).toString();
}

const multiValued = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]]));

/** A message as `GET /v2/messages/<id>` and `GET /v2/dlq` show it. */
export function messageView(m: Message) {
  return {
    messageId: m.messageId,
    url: m.url,
    method: m.method,
    header: multiValued(m.headers),
    body: m.body.toString('utf8'),
    maxRetries: m.maxRetries,
    retried: m.retried,
    notBefore: m.notBefore,
    createdAt: m.createdAt,
    callback: m.callback,
    failureCallback: m.failureCallback,
    queueName: m.queue,
    state: m.state,
    dlqId: m.dlqId,
    responseStatus: m.lastResponse?.status,
    responseBody: m.lastResponse?.body,
  };
}

/** The body QStash posts to a callback (and, with `dlqId`, to a failure callback) about a message. */
export function callbackBody(m: Message) {
  const response = m.lastResponse ?? { status: 0, body: '', headers: {} };
  return {
    status: response.status,
    header: response.headers,
    body: Buffer.from(response.body).toString('base64'),
    retried: m.retried,
    maxRetries: m.maxRetries,
    sourceMessageId: m.messageId,
    url: m.url,
    method: m.method,
    sourceHeader: multiValued(m.headers),
    sourceBody: m.body.toString('base64'),
    notBefore: m.notBefore,
    createdAt: m.createdAt,
  };
}
