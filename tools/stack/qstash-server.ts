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
 * `signingKey` can be overridden to make a server that signs with a wrong key (tests use it to
 * prove receivers refuse forged messages).
 */
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { SignJWT } from 'jose';
import { QSTASH_DEV } from './config.ts';

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

type State = 'CREATED' | 'ACTIVE' | 'RETRY' | 'DELIVERED' | 'ERROR' | 'FAILED' | 'CANCELED';

interface Message {
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

export interface QstashEvent {
  time: number;
  messageId: string;
  state: State;
  url: string;
  responseStatus?: number;
  error?: string;
  retried: number;
}

export interface QstashServer {
  server: Server;
  port: number;
  url: string;
  events: QstashEvent[];
  dlq(): Message[];
  close(): Promise<void>;
}

function parseDuration(v: string): number {
  const m = /^(\d+)(ms|s|m|h|d)?$/.exec(v.trim());
  if (!m) throw new Error(`invalid duration ${v}`);
  const n = Number(m[1]);
  return n * ({ ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] ?? 's'] ?? 1000);
}

/** QStash's default backoff (docs: features/retry) in the retry-delay language: n = retried + 1. */
export const PRODUCTION_RETRY_DELAY = 'min(86400, exp(2.5 * (retried + 1))) * 1000';

const EXPR_OK = /^[\d\s.+\-*/(),]*$/;
/** Evaluates QStash's retry-delay expression (`pow(2, retried) * 1000`) without eval of arbitrary code. */
export function evalRetryDelay(expr: string, retried: number): number {
  const fns: Record<string, (...a: number[]) => number> = { pow: Math.pow, min: Math.min, max: Math.max, exp: Math.exp, sqrt: Math.sqrt, abs: Math.abs, floor: Math.floor, ceil: Math.ceil, round: Math.round };
  const replaced = expr.replace(/[a-z]+/gi, (w) => (w === 'retried' ? String(retried) : w in fns ? `F.${w}` : '#'));
  if (replaced.includes('#') || !EXPR_OK.test(replaced.replace(/F\.[a-z]+/g, ''))) throw new Error(`invalid retry delay expression ${expr}`);
  const value = Number(new Function('F', `return (${replaced});`)(fns));
  if (!Number.isFinite(value) || value < 0) throw new Error(`retry delay ${expr} is not a non-negative number`);
  return value;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export async function startQstashServer(opts: QstashOptions): Promise<QstashServer> {
  const token = opts.token ?? QSTASH_DEV.token;
  const current = opts.currentSigningKey ?? QSTASH_DEV.currentSigningKey;
  const next = opts.nextSigningKey ?? QSTASH_DEV.nextSigningKey;
  const signingKey = new TextEncoder().encode(opts.signingKey ?? current);
  const retryMax = opts.retryMaxMs ?? 60_000;
  const defaultDelay = (retried: number) =>
    opts.retryBaseMs !== undefined
      ? Math.min(retryMax, opts.retryBaseMs * 2 ** retried)
      : evalRetryDelay(opts.retryDelay ?? PRODUCTION_RETRY_DELAY, retried);
  if (opts.retryDelay) evalRetryDelay(opts.retryDelay, 0); // a bad expression fails at start, not at the first retry
  const log = opts.log ?? (() => {});
  const messages = new Map<string, Message>();
  const dedup = new Map<string, { messageId: string; at: number }>();
  const queues = new Map<string, { busy: boolean; items: Message[] }>();
  const events: QstashEvent[] = [];
  let closed = false;

  const record = (m: Message, state: State, extra: Partial<QstashEvent> = {}) => {
    m.state = state;
    events.push({ time: Date.now(), messageId: m.messageId, state, url: m.url, retried: m.retried, ...extra });
    if (events.length > 10_000) events.splice(0, events.length - 10_000);
  };

  async function sign(url: string, body: Buffer): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ body: createHash('sha256').update(body).digest('base64url') })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer('Upstash')
      .setSubject(url)
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + 300)
      .setJti(`jwt_${randomUUID().replace(/-/g, '')}`)
      .sign(signingKey);
  }

  async function post(url: string, payload: object) {
    const body = Buffer.from(JSON.stringify(payload));
    try {
      await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'upstash-signature': await sign(url, body) }, body: new Uint8Array(body), signal: AbortSignal.timeout(30_000) });
    } catch (err) {
      log(`callback to ${url} failed: ${(err as Error).message}`);
    }
  }

  function schedule(m: Message, at: number) {
    if (closed) return;
    const wait = Math.max(0, at - Date.now());
    m.timer = setTimeout(() => void deliver(m), Math.min(wait, 2_147_483_647));
  }

  function enqueueOrSchedule(m: Message) {
    if (!m.queue) return schedule(m, m.notBefore);
    const q = queues.get(m.queue) ?? { busy: false, items: [] };
    queues.set(m.queue, q);
    q.items.push(m);
    pumpQueue(m.queue);
  }

  function pumpQueue(name: string) {
    const q = queues.get(name);
    if (!q || q.busy || !q.items.length) return;
    q.busy = true;
    schedule(q.items[0]!, q.items[0]!.notBefore);
  }

  function finishQueued(m: Message) {
    if (!m.queue) return;
    const q = queues.get(m.queue);
    if (!q) return;
    q.items = q.items.filter((x) => x !== m);
    q.busy = false;
    pumpQueue(m.queue);
  }

  async function deliver(m: Message) {
    if (closed || m.state === 'CANCELED') return;
    record(m, 'ACTIVE');
    const headers: Record<string, string> = {
      ...m.headers,
      'upstash-message-id': m.messageId,
      'upstash-retried': String(m.retried),
      'upstash-signature': await sign(m.url, m.body),
    };
    let status = 0;
    let error: string | undefined;
    let resBody = '';
    let resHeaders: Record<string, string[]> = {};
    try {
      const res = await fetch(m.url, { method: m.method, headers, body: ["GET", "HEAD"].includes(m.method) ? undefined : new Uint8Array(m.body), signal: AbortSignal.timeout(m.timeoutMs) });
      status = res.status;
      resBody = await res.text();
      resHeaders = Object.fromEntries([...res.headers].map(([k, v]) => [k, [v]]));
    } catch (err) {
      error = (err as Error).message;
    }
    m.lastResponse = { status, body: resBody, headers: resHeaders };
    if (status >= 200 && status < 300) {
      record(m, 'DELIVERED', { responseStatus: status });
      log(`delivered ${m.messageId} -> ${m.url} (${status})`);
      finishQueued(m);
      if (m.callback) await post(m.callback, callbackBody(m, status, resBody, resHeaders));
      return;
    }
    if (m.retried < m.maxRetries) {
      record(m, 'RETRY', { responseStatus: status || undefined, error });
      const delay = m.retryDelay ? evalRetryDelay(m.retryDelay, m.retried) : defaultDelay(m.retried);
      m.retried += 1;
      log(`retry ${m.retried}/${m.maxRetries} of ${m.messageId} -> ${m.url} in ${delay} ms (${status || error})`);
      schedule(m, Date.now() + delay);
      return;
    }
    m.dlqId = `${Date.now()}-${randomUUID()}`;
    record(m, 'FAILED', { responseStatus: status || undefined, error });
    log(`failed ${m.messageId} -> ${m.url} after ${m.retried} retries: dead-lettered as ${m.dlqId}`);
    finishQueued(m);
    if (m.failureCallback) await post(m.failureCallback, { ...callbackBody(m, status, resBody, resHeaders), dlqId: m.dlqId });
    if (m.callback) await post(m.callback, callbackBody(m, status, resBody, resHeaders));
  }

  function callbackBody(m: Message, status: number, body: string, header: Record<string, string[]>) {
    return {
      status,
      header,
      body: Buffer.from(body).toString('base64'),
      retried: m.retried,
      maxRetries: m.maxRetries,
      sourceMessageId: m.messageId,
      url: m.url,
      method: m.method,
      sourceHeader: Object.fromEntries(Object.entries(m.headers).map(([k, v]) => [k, [v]])),
      sourceBody: m.body.toString('base64'),
      notBefore: m.notBefore,
      createdAt: m.createdAt,
    };
  }

  function createMessage(destination: string, rawHeaders: Record<string, string | undefined>, body: Buffer, queue?: string): { messageId: string; url: string; deduplicated?: boolean } {
    const h = (name: string) => rawHeaders[name.toLowerCase()];
    let url: URL;
    try {
      url = new URL(destination);
    } catch {
      throw new HttpErr(400, `invalid destination: ${destination}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new HttpErr(400, 'destination must be http(s)');
    const dedupId = h('upstash-deduplication-id') ?? (h('upstash-content-based-deduplication') === 'true' ? createHash('sha256').update(destination).update(body).digest('hex') : undefined);
    if (dedupId) {
      const prev = dedup.get(dedupId);
      if (prev && Date.now() - prev.at < 10 * 60_000) return { messageId: prev.messageId, url: url.toString(), deduplicated: true };
    }
    const forwarded: Record<string, string> = {};
    for (const [k, v] of Object.entries(rawHeaders)) {
      if (v === undefined) continue;
      if (k.startsWith('upstash-forward-')) forwarded[k.slice('upstash-forward-'.length)] = v;
    }
    if (rawHeaders['content-type']) forwarded['content-type'] = rawHeaders['content-type'];
    const now = Date.now();
    let notBefore = now;
    try {
      if (h('upstash-delay')) notBefore = now + parseDuration(h('upstash-delay')!);
      if (h('upstash-not-before')) notBefore = Number(h('upstash-not-before')) * 1000;
    } catch (err) {
      throw new HttpErr(400, (err as Error).message);
    }
    const retries = h('upstash-retries') !== undefined ? Number(h('upstash-retries')) : (opts.defaultRetries ?? 3);
    if (!Number.isInteger(retries) || retries < 0) throw new HttpErr(400, 'invalid Upstash-Retries');
    if (h('upstash-retry-delay')) {
      try {
        evalRetryDelay(h('upstash-retry-delay')!, 0);
      } catch (err) {
        throw new HttpErr(400, (err as Error).message);
      }
    }
    const m: Message = {
      messageId: `msg_${randomUUID().replace(/-/g, '')}`,
      url: url.toString(),
      method: (h('upstash-method') ?? 'POST').toUpperCase(),
      headers: forwarded,
      body,
      maxRetries: retries,
      retried: 0,
      retryDelay: h('upstash-retry-delay'),
      timeoutMs: h('upstash-timeout') ? parseDuration(h('upstash-timeout')!) : 30_000,
      callback: h('upstash-callback'),
      failureCallback: h('upstash-failure-callback'),
      notBefore,
      createdAt: now,
      queue,
      state: 'CREATED',
    };
    messages.set(m.messageId, m);
    if (dedupId) dedup.set(dedupId, { messageId: m.messageId, at: now });
    record(m, 'CREATED');
    enqueueOrSchedule(m);
    return { messageId: m.messageId, url: m.url };
  }

  class HttpErr extends Error {
    readonly status: number;
    constructor(status: number, message: string) {
      super(message);
      this.status = status;
    }
  }

  const view = (m: Message) => ({
    messageId: m.messageId, url: m.url, method: m.method, header: Object.fromEntries(Object.entries(m.headers).map(([k, v]) => [k, [v]])),
    body: m.body.toString('utf8'), maxRetries: m.maxRetries, retried: m.retried, notBefore: m.notBefore, createdAt: m.createdAt,
    callback: m.callback, failureCallback: m.failureCallback, queueName: m.queue, state: m.state, dlqId: m.dlqId,
    responseStatus: m.lastResponse?.status, responseBody: m.lastResponse?.body,
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body === undefined ? '' : JSON.stringify(body));
    };
    const raw = req.url ?? '/';
    const path = raw.split('?')[0]!;
    if (req.method === 'GET' && path === '/v2/keys') return send(200, { current, next });
    if (req.headers.authorization !== `Bearer ${token}`) return send(401, { error: 'Unauthorized' });
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v]));
    try {
      if (req.method === 'POST' && path.startsWith('/v2/publish/')) {
        const dest = decodeURIComponent(raw.slice('/v2/publish/'.length));
        return send(201, createMessage(dest, headers, await readBody(req)));
      }
      if (req.method === 'POST' && path.startsWith('/v2/enqueue/')) {
        const rest = raw.slice('/v2/enqueue/'.length);
        const slash = rest.indexOf('/');
        if (slash <= 0) return send(400, { error: 'expected /v2/enqueue/<queue>/<destination>' });
        return send(201, createMessage(decodeURIComponent(rest.slice(slash + 1)), headers, await readBody(req), decodeURIComponent(rest.slice(0, slash))));
      }
      if (req.method === 'POST' && path === '/v2/batch') {
        const items = JSON.parse((await readBody(req)).toString('utf8')) as { destination: string; headers?: Record<string, string>; body?: string; queue?: string }[];
        if (!Array.isArray(items)) return send(400, { error: 'batch body must be an array' });
        return send(200, items.map((it) => createMessage(it.destination, Object.fromEntries(Object.entries(it.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])), Buffer.from(it.body ?? ''), it.queue)));
      }
      const msg = /^\/v2\/messages\/([^/]+)$/.exec(path);
      if (msg) {
        const m = messages.get(msg[1]!);
        if (!m) return send(404, { error: 'message not found' });
        if (req.method === 'DELETE') {
          clearTimeout(m.timer);
          record(m, 'CANCELED');
          finishQueued(m);
          return send(202, undefined);
        }
        return send(200, view(m));
      }
      if (req.method === 'GET' && path === '/v2/dlq') return send(200, { messages: [...messages.values()].filter((m) => m.state === 'FAILED').map(view) });
      const dlq = /^\/v2\/dlq\/(retry\/)?([^/]+)$/.exec(path);
      if (dlq) {
        const m = [...messages.values()].find((x) => x.dlqId === dlq[2] && x.state === 'FAILED');
        if (!m) return send(404, { error: 'dlq message not found' });
        if (req.method === 'DELETE' && !dlq[1]) {
          messages.delete(m.messageId);
          return send(200, undefined);
        }
        if (req.method === 'POST' && dlq[1]) {
          m.retried = 0;
          m.dlqId = undefined;
          m.notBefore = Date.now();
          record(m, 'CREATED');
          enqueueOrSchedule(m);
          return send(200, { messageId: m.messageId });
        }
      }
      if (req.method === 'GET' && path === '/v2/events') return send(200, { events: [...events].reverse() });
      return send(404, { error: `no route for ${req.method} ${path}` });
    } catch (err) {
      if (err instanceof HttpErr) return send(err.status, { error: err.message });
      if (err instanceof SyntaxError) return send(400, { error: 'invalid JSON' });
      return send(500, { error: (err as Error).message });
    }
  }

  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '127.0.0.1', () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  return {
    server,
    port,
    url: `http://${opts.host ?? '127.0.0.1'}:${port}`,
    events,
    dlq: () => [...messages.values()].filter((m) => m.state === 'FAILED'),
    async close() {
      closed = true;
      for (const m of messages.values()) clearTimeout(m.timer);
      await new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections?.();
    },
  };
}
