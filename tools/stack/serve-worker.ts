/**
 * Serves a worker's fetch over real HTTP on 127.0.0.1 (a free port), so the QStash-compatible server
 * and other processes can call it back (the queue round trip). Bodies are passed through untouched,
 * so signatures over the raw body stay valid. Used by tests (through test/support/serve.ts), the
 * benches and the ledger's delivery process (tools/ledger/).
 */
import { createServer, type Server } from 'node:http';
import type { Env } from '../../src/platform/env.ts';

/** Anything with a Workers-style fetch (the ctx type is loose: Hono types it as ExecutionContext). */
export interface Worker {
  // biome-ignore lint/suspicious/noExplicitAny: each worker types its own env and ctx
  fetch(req: Request, env: any, ctx: any): Response | Promise<Response>;
}

export interface Served {
  url: string;
  server: Server;
  close(): Promise<void>;
}

export async function serveWorker(worker: Worker, env: (url: string) => Env, port = 0): Promise<Served> {
  let boundEnv: Env | undefined;
  const server = createServer(async (req, res) => {
    try {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = Buffer.concat(chunks);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers))
        if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
      const request = new Request(`http://${req.headers.host}${req.url}`, {
        method: req.method,
        headers,
        body: ['GET', 'HEAD'].includes(req.method!) ? undefined : new Uint8Array(body),
      });
      const pending: Promise<unknown>[] = [];
      const response = await worker.fetch(request, boundEnv!, {
        waitUntil: (p: Promise<unknown>) => void pending.push(p),
        passThroughOnException: () => {},
      });
      const out = Buffer.from(await response.arrayBuffer());
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(out);
      await Promise.allSettled(pending);
    } catch (err) {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(err));
    }
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  boundEnv = env(url);
  return {
    url,
    server,
    async close() {
      await new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections();
    },
  };
}
