/**
 * A Neon-compatible local proxy, so the real `@neondatabase/serverless` driver talks to a local
 * Postgres (PGlite or a server) exactly as it talks to Neon:
 *  - WebSocket `/v2?address=host:port`: a byte pipe between the WebSocket and a TCP connection to
 *    that Postgres (the driver speaks the Postgres wire protocol through it; Pool/Client).
 *  - HTTP `POST /sql`: Neon's one-shot query endpoint (`neon()`): body `{query, params}` or
 *    `{queries: [...]}` (run in one transaction, honouring the Neon-Batch-* headers), target from the
 *    `Neon-Connection-String` header, answer `{fields, rows, command, rowCount}` with rows as arrays
 *    of Postgres text values (the driver parses them by dataTypeID), errors as 400
 *    `{message, code, detail, ...}` like Neon's.
 * Only targets on loopback are accepted: this is a development tool, not an open relay.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import pg from 'pg';
import { WebSocketServer, type WebSocket } from 'ws';

const RAW_TEXT = { getTypeParser: () => (v: string) => v };
const ERROR_FIELDS = [
  'code',
  'detail',
  'hint',
  'position',
  'internalPosition',
  'internalQuery',
  'where',
  'schema',
  'table',
  'column',
  'dataType',
  'constraint',
  'file',
  'line',
  'routine',
  'severity',
] as const;
const ISOLATION: Record<string, string> = {
  ReadUncommitted: 'READ UNCOMMITTED',
  ReadCommitted: 'READ COMMITTED',
  RepeatableRead: 'REPEATABLE READ',
  Serializable: 'SERIALIZABLE',
};

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

interface SqlQuery {
  query: string;
  params?: unknown[];
}

export interface NeonProxy {
  server: Server;
  port: number;
  close(): Promise<void>;
}

type PoolFor = (connectionString: string) => pg.Pool;

/** One statement, its rows as arrays of Postgres text values, as Neon's `/sql` answers. */
async function runOne(client: pg.PoolClient, q: SqlQuery) {
  const res = await client.query({
    text: q.query,
    values: (q.params ?? []) as unknown[],
    rowMode: 'array',
    types: RAW_TEXT,
  });
  return {
    fields: res.fields.map((f) => ({
      name: f.name,
      dataTypeID: f.dataTypeID,
      tableID: f.tableID,
      columnID: f.columnID,
      dataTypeSize: f.dataTypeSize,
      dataTypeModifier: f.dataTypeModifier,
      format: 'text',
    })),
    rows: res.rows,
    command: res.command,
    rowCount: res.rowCount,
    rowAsArray: true,
  };
}

/** `{queries: [...]}` in one transaction, honouring the Neon-Batch-* headers. */
async function runBatch(client: pg.PoolClient, req: IncomingMessage, queries: SqlQuery[]) {
  const level = ISOLATION[String(req.headers['neon-batch-isolation-level'] ?? '')];
  const ro = req.headers['neon-batch-read-only'] === 'true' ? ' READ ONLY' : '';
  const def = req.headers['neon-batch-deferrable'] === 'true' ? ' DEFERRABLE' : '';
  await client.query(`BEGIN${level ? ` ISOLATION LEVEL ${level}` : ''}${ro}${def}`);
  try {
    const results = [];
    for (const q of queries) results.push(await runOne(client, q));
    await client.query('COMMIT');
    return { results };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/** The loopback database the `Neon-Connection-String` header names, or the error message for a 400. */
function sqlTarget(req: IncomingMessage): URL | string {
  const connStr = req.headers['neon-connection-string'];
  if (typeof connStr !== 'string') return 'missing Neon-Connection-String header';
  let target: URL;
  try {
    target = new URL(connStr);
  } catch {
    return 'invalid Neon-Connection-String';
  }
  if (!isLoopback(target.hostname)) return 'the local proxy only reaches loopback databases';
  target.searchParams.delete('sslmode');
  return target;
}

async function handleSql(req: IncomingMessage, res: ServerResponse, poolFor: PoolFor) {
  const send = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
    res.end(JSON.stringify(body));
  };
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  let body: SqlQuery & { queries?: SqlQuery[] };
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return send(400, { message: 'request body is not JSON' });
  }
  const target = sqlTarget(req);
  if (typeof target === 'string') return send(400, { message: target });
  let client: pg.PoolClient;
  try {
    client = await poolFor(target.toString()).connect();
  } catch (err) {
    return send(500, { message: `could not connect to the database: ${(err as Error).message}` });
  }
  try {
    send(200, Array.isArray(body.queries) ? await runBatch(client, req, body.queries) : await runOne(client, body));
  } catch (err) {
    const e = err as Record<string, unknown> & Error;
    const out: Record<string, unknown> = { message: e.message };
    for (const f of ERROR_FIELDS) if (e[f] !== undefined) out[f] = e[f];
    send(400, out);
  } finally {
    client.release();
  }
}

/** A byte pipe between the driver's WebSocket and a TCP connection to the database. */
function pipe(ws: WebSocket, host: string, tcpPort: number) {
  const tcp = connect({ host, port: tcpPort });
  const pending: Buffer[] = [];
  let open = false;
  tcp.on('connect', () => {
    open = true;
    for (const b of pending) tcp.write(b);
    pending.length = 0;
  });
  ws.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => {
    const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
    if (open) tcp.write(buf);
    else pending.push(buf);
  });
  tcp.on('data', (d) => ws.readyState === ws.OPEN && ws.send(d));
  tcp.on('close', () => ws.close());
  tcp.on('error', () => ws.close());
  ws.on('close', () => tcp.destroy());
  ws.on('error', () => tcp.destroy());
}

function handleRequest(req: IncomingMessage, res: ServerResponse, poolFor: PoolFor) {
  if (req.method === 'OPTIONS') {
    res.writeHead(204, {
      'access-control-allow-origin': '*',
      'access-control-allow-headers': '*',
      'access-control-allow-methods': 'POST',
    });
    return res.end();
  }
  if (req.method === 'POST' && req.url?.split('?')[0] === '/sql') {
    handleSql(req, res, poolFor).catch((err) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: (err as Error).message }));
    });
    return;
  }
  res.writeHead(404, { 'content-type': 'text/plain' });
  res.end('not found');
}

export async function startNeonProxy(port: number, host = '127.0.0.1'): Promise<NeonProxy> {
  const pools = new Map<string, pg.Pool>();
  const poolFor: PoolFor = (connectionString) => {
    let pool = pools.get(connectionString);
    if (!pool) {
      pool = new pg.Pool({ connectionString, max: 10, idleTimeoutMillis: 10_000 });
      pool.on('error', () => undefined);
      pools.set(connectionString, pool);
    }
    return pool;
  };
  const server = createServer((req, res) => handleRequest(req, res, poolFor));
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const address = url.searchParams.get('address') ?? '';
    const m = /^(.+):(\d+)$/.exec(address);
    if (url.pathname !== '/v2' || !m || !isLoopback(m[1]!)) {
      socket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => pipe(ws, m[1]!, Number(m[2])));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const actual = (server.address() as { port: number }).port;
  return {
    server,
    port: actual,
    async close() {
      for (const c of wss.clients) c.terminate();
      await new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections?.();
      await Promise.all([...pools.values()].map((p) => p.end().catch(() => undefined)));
    },
  };
}
