/**
 * The HTTP API of the local QStash server over a QstashBroker: `GET /v2/keys` (open), then, behind the
 * bearer token, publish, enqueue, batch, messages, dead-letter list and events. Errors answer
 * `{error}`: a bad header or destination 400, a body that is not JSON 400, an unknown route 404.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { QstashBroker } from './qstash-broker.ts';
import { HttpErr, messageView } from './qstash-message.ts';

export interface RouteContext {
  broker: QstashBroker;
  token: string;
  keys: { current: string; next: string };
}

type Send = (status: number, body: unknown) => void;
type Headers = Record<string, string | undefined>;
interface Request {
  method: string;
  raw: string;
  path: string;
  headers: Headers;
  body: () => Promise<Buffer>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

const lowerCased = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));

/** `POST /v2/publish/<url>`, `/v2/enqueue/<queue>/<url>` and `/v2/batch`; undefined when not a publish. */
async function publishRoutes(req: Request, ctx: RouteContext, send: Send): Promise<true | undefined> {
  if (req.method !== 'POST') return undefined;
  if (req.path.startsWith('/v2/publish/')) {
    const destination = decodeURIComponent(req.raw.slice('/v2/publish/'.length));
    send(201, ctx.broker.publish(destination, req.headers, await req.body()));
    return true;
  }
  if (req.path.startsWith('/v2/enqueue/')) {
    const rest = req.raw.slice('/v2/enqueue/'.length);
    const slash = rest.indexOf('/');
    if (slash <= 0) {
      send(400, { error: 'expected /v2/enqueue/<queue>/<destination>' });
      return true;
    }
    const [queue, destination] = [decodeURIComponent(rest.slice(0, slash)), decodeURIComponent(rest.slice(slash + 1))];
    send(201, ctx.broker.publish(destination, req.headers, await req.body(), queue));
    return true;
  }
  if (req.path === '/v2/batch') {
    type Item = { destination: string; headers?: Record<string, string>; body?: string; queue?: string };
    const items = JSON.parse((await req.body()).toString('utf8')) as Item[];
    if (!Array.isArray(items)) send(400, { error: 'batch body must be an array' });
    else {
      const publish = (it: Item) =>
        ctx.broker.publish(it.destination, lowerCased(it.headers ?? {}), Buffer.from(it.body ?? ''), it.queue);
      send(200, items.map(publish));
    }
    return true;
  }
  return undefined;
}

/** `GET|DELETE /v2/messages/<id>`. */
function messageRoute(req: Request, ctx: RouteContext, send: Send): true | undefined {
  const match = /^\/v2\/messages\/([^/]+)$/.exec(req.path);
  if (!match) return undefined;
  const m = ctx.broker.messages.get(match[1]!);
  if (!m) send(404, { error: 'message not found' });
  else if (req.method === 'DELETE') {
    ctx.broker.cancel(m);
    send(202, undefined);
  } else send(200, messageView(m));
  return true;
}

/** `GET /v2/dlq`, `DELETE /v2/dlq/<dlqId>`, `POST /v2/dlq/retry/<dlqId>`. */
function deadLetterRoutes(req: Request, ctx: RouteContext, send: Send): true | undefined {
  if (req.method === 'GET' && req.path === '/v2/dlq') {
    send(200, { messages: ctx.broker.deadLetters().map(messageView) });
    return true;
  }
  const match = /^\/v2\/dlq\/(retry\/)?([^/]+)$/.exec(req.path);
  if (!match) return undefined;
  const m = ctx.broker.deadLetter(match[2]!);
  if (!m) {
    send(404, { error: 'dlq message not found' });
    return true;
  }
  if (req.method === 'DELETE' && !match[1]) {
    ctx.broker.forget(m);
    send(200, undefined);
    return true;
  }
  if (req.method === 'POST' && match[1]) {
    ctx.broker.redeliver(m);
    send(200, { messageId: m.messageId });
    return true;
  }
  return undefined;
}

function errorAnswer(err: unknown): [number, { error: string }] {
  if (err instanceof HttpErr) return [err.status, { error: err.message }];
  if (err instanceof SyntaxError) return [400, { error: 'invalid JSON' }];
  return [500, { error: (err as Error).message }];
}

/** Answers one request of the QStash API. */
export async function answerQstashRequest(req: IncomingMessage, res: ServerResponse, ctx: RouteContext): Promise<void> {
  const send: Send = (status, body) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(body === undefined ? '' : JSON.stringify(body));
  };
  const raw = req.url ?? '/';
  const path = raw.split('?')[0]!;
  if (req.method === 'GET' && path === '/v2/keys') return send(200, ctx.keys);
  if (req.headers.authorization !== `Bearer ${ctx.token}`) return send(401, { error: 'Unauthorized' });
  const headers = Object.fromEntries(
    Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v]),
  );
  const request: Request = { method: req.method ?? 'GET', raw, path, headers, body: () => readBody(req) };
  try {
    if (await publishRoutes(request, ctx, send)) return;
    if (messageRoute(request, ctx, send)) return;
    if (deadLetterRoutes(request, ctx, send)) return;
    if (req.method === 'GET' && path === '/v2/events') return send(200, { events: [...ctx.broker.events].reverse() });
    return send(404, { error: `no route for ${req.method} ${path}` });
  } catch (err) {
    return send(...errorAnswer(err));
  }
}
