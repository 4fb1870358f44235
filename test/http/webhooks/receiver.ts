/**
 * A local webhook receiver for the delivery tests: records every request (headers, raw body), and
 * answers by a policy: a seeded 50% random failure rate, a "down" stretch (the connection is
 * destroyed without an answer), or a fixed status.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
  at: number;
}

/** Returns the status to answer (optionally with headers), or 'down' to drop the connection. */
export type ReceiverPolicy = (req: {
  path: string;
  n: number;
  at: number;
}) => number | 'down' | { status: number; headers: Record<string, string> };

export { seededRandom as seeded } from '../../../tools/seeded-random.ts';

export async function startReceiver(
  policy: ReceiverPolicy,
): Promise<{ url: string; received: Received[]; close(): Promise<void>; server: Server }> {
  const received: Received[] = [];
  let n = 0;
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const at = Date.now();
    const answer = policy({ path: req.url ?? '/', n: n++, at });
    const decision = typeof answer === 'object' ? answer.status : answer;
    const extra = typeof answer === 'object' ? answer.headers : {};
    received.push({
      path: req.url ?? '/',
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
      status: decision === 'down' ? 0 : decision,
      at,
    });
    if (decision === 'down') {
      req.socket.destroy();
      return;
    }
    res.writeHead(decision, { 'content-type': 'text/plain', 'x-receiver': 'test', ...extra });
    res.end(decision < 300 ? 'ok' : `failed with ${decision}`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url,
    received,
    server,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
