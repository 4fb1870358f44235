/**
 * A Postgres wire-protocol server in front of one PGlite instance that keeps sessions apart.
 *
 * PGlite has a single backend. pglite-socket's server interleaves clients message by message, so
 * two clients' extended-protocol sequences (Parse/Bind/Execute/Sync) mix and fail ("portal cannot be
 * run"), and it leaks connection slots. Here the backend is a lock: a client takes it with its first
 * message and keeps it until the backend answers ReadyForQuery with status Idle (after a Sync or a
 * simple Query outside a transaction block), so every statement and every transaction runs whole
 * before another client's starts. A client that disconnects while holding the lock has its
 * transaction rolled back. Waiting clients are served first come, first served. Terminate (X) closes
 * the client's socket without touching the shared backend.
 *
 * Consequence, as on any single-connection database: code that awaits a second connection while
 * its first holds a transaction waits forever (see docs/platform.md).
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;

interface Conn {
  id: number;
  socket: Socket;
  buffer: Buffer;
  started: boolean;
  queue: Buffer[];
  closed: boolean;
}

/** The transaction status of the last ReadyForQuery in a backend response, if any. */
export function lastReadyStatus(out: Uint8Array): string | undefined {
  let status: string | undefined;
  let i = 0;
  while (i + 5 <= out.length) {
    const type = out[i]!;
    const len = ((out[i + 1]! << 24) | (out[i + 2]! << 16) | (out[i + 3]! << 8) | out[i + 4]!) >>> 0;
    if (type === 0x5a && len === 5 && i + 5 < out.length) status = String.fromCharCode(out[i + 5]!);
    i += 1 + len;
  }
  return status;
}

export function startWireServer(db: PGlite, port: number, host = '127.0.0.1'): Promise<Server> {
  let nextId = 1;
  let owner: Conn | null = null;
  const waiting: Conn[] = [];
  let running = false;

  const exec = (msg: Uint8Array) => db.runExclusive(() => db.execProtocolRaw(msg));

  async function release(conn: Conn) {
    if (owner !== conn) return;
    owner = null;
  }

  async function pump() {
    if (running) return;
    running = true;
    try {
      for (;;) {
        let conn: Conn | undefined;
        if (owner) {
          conn = owner.queue.length ? owner : undefined;
          if (!conn) break; // the owner is mid-sequence; wait for its next message
        } else {
          const idx = waiting.findIndex((c) => c.queue.length > 0 && !c.closed);
          if (idx < 0) break;
          conn = waiting.splice(idx, 1)[0]!;
          owner = conn;
        }
        const msg = conn.queue.shift()!;
        let out: Uint8Array;
        try {
          out = await exec(new Uint8Array(msg));
        } catch (err) {
          conn.socket.destroy(err as Error);
          await abandon(conn);
          continue;
        }
        if (out.length && !conn.closed) conn.socket.write(out);
        const type = msg[0];
        const status = lastReadyStatus(out);
        const endsExchange = type === 0x53 /* Sync */ || type === 0x51 /* Query */ || !conn.started;
        if (!conn.started) conn.started = true;
        if (endsExchange && (status === 'I' || status === undefined) && !db.isInTransaction()) {
          await release(conn);
          if (conn.queue.length) waiting.push(conn);
        }
      }
    } finally {
      running = false;
    }
  }

  async function abandon(conn: Conn) {
    conn.closed = true;
    conn.queue.length = 0;
    const i = waiting.indexOf(conn);
    if (i >= 0) waiting.splice(i, 1);
    if (owner === conn) {
      if (db.isInTransaction()) await db.exec('ROLLBACK').catch(() => undefined);
      owner = null;
    }
    void pump();
  }

  function onData(conn: Conn, chunk: Buffer) {
    conn.buffer = conn.buffer.length ? Buffer.concat([conn.buffer, chunk]) : chunk;
    for (;;) {
      const b = conn.buffer;
      if (!conn.started) {
        if (b.length < 8) return;
        const len = b.readInt32BE(0);
        const code = b.readInt32BE(4);
        if (b.length < len) return;
        conn.buffer = b.subarray(len);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
          conn.socket.write('N');
          continue;
        }
        if (code === CANCEL_REQUEST) {
          conn.socket.end();
          return;
        }
        conn.queue.push(Buffer.from(b.subarray(0, len)));
        // the startup exchange is answered before anything else of this client
        if (!waiting.includes(conn) && owner !== conn) waiting.push(conn);
        continue;
      }
      if (b.length < 5) return;
      const len = b.readInt32BE(1);
      if (b.length < 1 + len) return;
      const msg = Buffer.from(b.subarray(0, 1 + len));
      conn.buffer = b.subarray(1 + len);
      if (msg[0] === 0x58 /* Terminate */) {
        conn.socket.end();
        void abandon(conn);
        return;
      }
      conn.queue.push(msg);
      if (owner !== conn && !waiting.includes(conn)) waiting.push(conn);
    }
  }

  const server = createServer((socket) => {
    socket.setNoDelay(true);
    const conn: Conn = { id: nextId++, socket, buffer: Buffer.alloc(0), started: false, queue: [], closed: false };
    socket.on('data', (d) => {
      onData(conn, d);
      void pump();
    });
    socket.on('close', () => void abandon(conn));
    socket.on('error', () => void abandon(conn));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
