/**
 * A loopback registry for the end-to-end graph tests: serves documents from a route function
 * (`(path) => body | undefined`, path decoded once) over real HTTP, counting requests per path, so
 * the insights worker reads packages through its upstream adapters exactly as from a real mirror.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/** The request's path decoded once, counted in `hits` by its raw form; a path that does not decode is answered 400 (null). */
export function countedPath(req: IncomingMessage, res: ServerResponse, hits: Map<string, number>): string | null {
  const raw = (req.url ?? '/').split('?')[0]!;
  hits.set(raw, (hits.get(raw) ?? 0) + 1);
  try {
    return decodeURIComponent(raw);
  } catch {
    res.writeHead(400).end();
    return null;
  }
}

export interface RegistryServer {
  url: string;
  hits: Map<string, number>;
  /** Total requests answered. */
  requests(): number;
  close(): Promise<void>;
}

/** `route` answers a body (text or JSON), a status code (an error with no body), or undefined (404). */
export async function startRegistry(
  route: (path: string) => string | object | number | undefined,
): Promise<RegistryServer> {
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    const path = countedPath(req, res, hits);
    if (path === null) return;
    const body = route(path);
    if (body === undefined) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      return;
    }
    if (typeof body === 'number') {
      res.writeHead(body).end();
      return;
    }
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    res.writeHead(200, { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json' }).end(text);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url,
    hits,
    requests: () => [...hits.values()].reduce((a, b) => a + b, 0),
    async close() {
      await new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections();
    },
  };
}

/** An npm registry over packuments by name (`GET /{name}`, scoped names `@scope%2Fname` or `@scope/name`). */
export function npmRoute(packuments: Readonly<Record<string, unknown>>): (path: string) => object | undefined {
  return (path) => packuments[path.slice(1)] as object | undefined;
}
