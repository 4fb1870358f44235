/**
 * Shared plumbing of the fake upstreams: a node:http server on 127.0.0.1 (free port) whose handler
 * gets the parsed request; every request is recorded; `failNext(n, status)` makes the next n requests
 * answer `status` (a flaky upstream); `down = true` makes it answer 503 to everything.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface FakeReply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface Fake {
  url: string;
  requests: FakeRequest[];
  down: boolean;
  failNext(n: number, status?: number): void;
  close(): Promise<void>;
}

export async function startFake(handle: (req: FakeRequest) => FakeReply | Promise<FakeReply>): Promise<Fake> {
  let failing = 0;
  let failStatus = 503;
  const fake: Fake = {
    url: '',
    requests: [],
    down: false,
    failNext(n, status = 503) {
      failing = n;
      failStatus = status;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const u = new URL(req.url ?? '/', 'http://fake');
    const r: FakeRequest = {
      method: req.method ?? 'GET',
      path: decodeURIComponent(u.pathname),
      query: u.searchParams,
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    };
    fake.requests.push(r);
    let reply: FakeReply;
    if (fake.down) reply = { status: 503, body: 'down' };
    else if (failing > 0) {
      failing--;
      reply = {
        status: failStatus,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ error: { message: 'upstream unavailable' } }),
      };
    } else reply = await handle(r);
    res.writeHead(reply.status, reply.headers ?? {});
    res.end(reply.body ?? '');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  fake.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return fake;
}

export const json = (status: number, body: unknown): FakeReply => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});
