/**
 * The message life of the local QStash server, without HTTP routing: accept (deduplicate, then
 * schedule or join a FIFO queue), deliver (sign, call the destination), and on the outcome either
 * finish (callback), retry after the backoff, or dead-letter (failure callback, then callback).
 * Every state change is recorded as an event (the last 10,000 are kept, as `GET /v2/events` shows).
 */
import { createHash, randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import {
  callbackBody,
  deduplicationKey,
  destinationOf,
  readPublishHeaders,
  type Message,
  type State,
} from './qstash-message.ts';
import { evalRetryDelay } from './retry-delay.ts';

export interface QstashEvent {
  time: number;
  messageId: string;
  state: State;
  url: string;
  responseStatus?: number;
  error?: string;
  retried: number;
}

export interface BrokerOptions {
  /** Key that signs deliveries and callbacks (HS256). */
  signingKey: string;
  /** Backoff for messages published without Upstash-Retry-Delay: ms before the retry after `retried` retries. */
  defaultDelay: (retried: number) => number;
  defaultRetries: number;
  log: (line: string) => void;
}

const MAX_EVENTS = 10_000;
const DEDUPLICATION_WINDOW_MS = 10 * 60_000;
const MAX_TIMER_MS = 2_147_483_647;

type Outcome = { status: number; error?: string };

/** The `Upstash-Signature` JWT for a body sent to a URL: sub = URL, body = base64url SHA-256, 5 minutes. */
async function signature(key: Uint8Array, url: string, body: Buffer): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ body: createHash('sha256').update(body).digest('base64url') })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer('Upstash')
    .setSubject(url)
    .setIssuedAt(now)
    .setNotBefore(now)
    .setExpirationTime(now + 300)
    .setJti(`jwt_${randomUUID().replace(/-/g, '')}`)
    .sign(key);
}

export class QstashBroker {
  readonly messages = new Map<string, Message>();
  readonly events: QstashEvent[] = [];
  private readonly dedup = new Map<string, { messageId: string; at: number }>();
  private readonly queues = new Map<string, { busy: boolean; items: Message[] }>();
  private readonly key: Uint8Array;
  private readonly opts: BrokerOptions;
  private closed = false;

  constructor(opts: BrokerOptions) {
    this.opts = opts;
    this.key = new TextEncoder().encode(opts.signingKey);
  }

  /** Accepts a published message, or answers with the earlier one a deduplication key names. */
  publish(destination: string, headers: Record<string, string | undefined>, body: Buffer, queue?: string) {
    const url = destinationOf(destination);
    const key = deduplicationKey(destination, headers, body);
    const earlier = key ? this.dedup.get(key) : undefined;
    if (earlier && Date.now() - earlier.at < DEDUPLICATION_WINDOW_MS) {
      return { messageId: earlier.messageId, url, deduplicated: true };
    }
    const now = Date.now();
    const m = readPublishHeaders(destination, headers, body, { defaultRetries: this.opts.defaultRetries, queue, now });
    this.messages.set(m.messageId, m);
    if (key) this.dedup.set(key, { messageId: m.messageId, at: now });
    this.record(m, 'CREATED');
    this.enqueueOrSchedule(m);
    return { messageId: m.messageId, url: m.url };
  }

  cancel(m: Message): void {
    clearTimeout(m.timer);
    this.record(m, 'CANCELED');
    this.finishQueued(m);
  }

  deadLetters(): Message[] {
    return [...this.messages.values()].filter((m) => m.state === 'FAILED');
  }

  deadLetter(dlqId: string): Message | undefined {
    return this.deadLetters().find((m) => m.dlqId === dlqId);
  }

  /** `POST /v2/dlq/retry/<id>`: the message starts over with no retries spent. */
  redeliver(m: Message): void {
    m.retried = 0;
    m.dlqId = undefined;
    m.notBefore = Date.now();
    this.record(m, 'CREATED');
    this.enqueueOrSchedule(m);
  }

  forget(m: Message): void {
    this.messages.delete(m.messageId);
  }

  close(): void {
    this.closed = true;
    for (const m of this.messages.values()) clearTimeout(m.timer);
  }

  private record(m: Message, state: State, extra: Partial<QstashEvent> = {}): void {
    m.state = state;
    this.events.push({ time: Date.now(), messageId: m.messageId, state, url: m.url, retried: m.retried, ...extra });
    if (this.events.length > MAX_EVENTS) this.events.splice(0, this.events.length - MAX_EVENTS);
  }

  private schedule(m: Message, at: number): void {
    if (this.closed) return;
    const wait = Math.max(0, at - Date.now());
    m.timer = setTimeout(() => void this.deliver(m), Math.min(wait, MAX_TIMER_MS));
  }

  /** A queued message waits for the one before it in its queue; any other is scheduled at once. */
  private enqueueOrSchedule(m: Message): void {
    if (!m.queue) {
      this.schedule(m, m.notBefore);
      return;
    }
    const q = this.queues.get(m.queue) ?? { busy: false, items: [] };
    this.queues.set(m.queue, q);
    q.items.push(m);
    this.pumpQueue(m.queue);
  }

  private pumpQueue(name: string): void {
    const q = this.queues.get(name);
    if (!q || q.busy || !q.items.length) return;
    q.busy = true;
    this.schedule(q.items[0]!, q.items[0]!.notBefore);
  }

  private finishQueued(m: Message): void {
    if (!m.queue) return;
    const q = this.queues.get(m.queue);
    if (!q) return;
    q.items = q.items.filter((x) => x !== m);
    q.busy = false;
    this.pumpQueue(m.queue);
  }

  private async deliver(m: Message): Promise<void> {
    if (this.closed || m.state === 'CANCELED') return;
    this.record(m, 'ACTIVE');
    const outcome = await this.attempt(m);
    if (outcome.status >= 200 && outcome.status < 300) return this.delivered(m, outcome.status);
    if (m.retried < m.maxRetries) return this.retryLater(m, outcome);
    return this.deadLetterAfter(m, outcome);
  }

  /** One call of the destination, signed; the answer is kept on the message as its last response. */
  private async attempt(m: Message): Promise<Outcome> {
    const headers: Record<string, string> = {
      ...m.headers,
      'upstash-message-id': m.messageId,
      'upstash-retried': String(m.retried),
      'upstash-signature': await signature(this.key, m.url, m.body),
    };
    const hasBody = !['GET', 'HEAD'].includes(m.method);
    let status = 0;
    let body = '';
    let responseHeaders: Record<string, string[]> = {};
    let error: string | undefined;
    try {
      const res = await fetch(m.url, {
        method: m.method,
        headers,
        body: hasBody ? new Uint8Array(m.body) : undefined,
        signal: AbortSignal.timeout(m.timeoutMs),
      });
      status = res.status;
      body = await res.text();
      responseHeaders = Object.fromEntries([...res.headers].map(([k, v]) => [k, [v]]));
    } catch (err) {
      error = (err as Error).message;
    }
    m.lastResponse = { status, body, headers: responseHeaders };
    return { status, error };
  }

  private async delivered(m: Message, status: number): Promise<void> {
    this.record(m, 'DELIVERED', { responseStatus: status });
    this.opts.log(`delivered ${m.messageId} -> ${m.url} (${status})`);
    this.finishQueued(m);
    if (m.callback) await this.post(m.callback, callbackBody(m));
  }

  /** The n-th retry waits the message's own Upstash-Retry-Delay, or the server's default backoff. */
  private retryLater(m: Message, { status, error }: Outcome): void {
    this.record(m, 'RETRY', { responseStatus: status || undefined, error });
    const delay = m.retryDelay ? evalRetryDelay(m.retryDelay, m.retried) : this.opts.defaultDelay(m.retried);
    m.retried += 1;
    const why = status || error;
    this.opts.log(`retry ${m.retried}/${m.maxRetries} of ${m.messageId} -> ${m.url} in ${delay} ms (${why})`);
    this.schedule(m, Date.now() + delay);
  }

  private async deadLetterAfter(m: Message, { status, error }: Outcome): Promise<void> {
    m.dlqId = `${Date.now()}-${randomUUID()}`;
    this.record(m, 'FAILED', { responseStatus: status || undefined, error });
    this.opts.log(`failed ${m.messageId} -> ${m.url} after ${m.retried} retries: dead-lettered as ${m.dlqId}`);
    this.finishQueued(m);
    if (m.failureCallback) await this.post(m.failureCallback, { ...callbackBody(m), dlqId: m.dlqId });
    if (m.callback) await this.post(m.callback, callbackBody(m));
  }

  /** A signed JSON POST to a callback URL; a failing callback is logged, never retried. */
  private async post(url: string, payload: object): Promise<void> {
    const body = Buffer.from(JSON.stringify(payload));
    try {
      await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'upstash-signature': await signature(this.key, url, body) },
        body: new Uint8Array(body),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (err) {
      this.opts.log(`callback to ${url} failed: ${(err as Error).message}`);
    }
  }
}
