/**
 * The embedded database's wire server keeps sessions apart: concurrent clients using the extended
 * protocol and transactions all succeed with correct results, a dropped client's transaction is
 * rolled back, and hundreds of short-lived connections do not exhaust anything.
 */
import pg from 'pg';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastReadyStatus } from '../../../tools/stack/pglite-wire.ts';
import { freePort, startPglite, stopChild } from '../../../tools/stack/index.ts';

let child: ChildProcess;
let url: string;
beforeAll(async () => {
  const port = await freePort();
  child = await startPglite(port, undefined, () => {});
  url = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query('CREATE TABLE counters (id int PRIMARY KEY, n int NOT NULL)');
  await c.query('INSERT INTO counters VALUES (1, 0)');
  await c.end();
}, 60_000);
afterAll(async () => stopChild(child));

describe('PGlite wire server', () => {
  it('reads the transaction status of the last ReadyForQuery', () => {
    expect(lastReadyStatus(Uint8Array.from([0x5a, 0, 0, 0, 5, 0x49]))).toBe('I');
    expect(lastReadyStatus(Uint8Array.from([0x31, 0, 0, 0, 4, 0x5a, 0, 0, 0, 5, 0x54]))).toBe('T');
    expect(lastReadyStatus(Uint8Array.from([0x31, 0, 0, 0, 4]))).toBeUndefined();
  });

  it('serves 20 concurrent clients running parameterised queries and transactions', async () => {
    const clients = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        return c;
      }),
    );
    try {
      const results = await Promise.all(
        clients.map(async (c, i) => {
          const echoed: number[] = [];
          for (let k = 0; k < 10; k++) {
            const r = await c.query('SELECT $1::int * 2 AS v', [i * 100 + k]);
            echoed.push(r.rows[0].v);
            await c.query('BEGIN');
            const cur = await c.query('SELECT n FROM counters WHERE id = 1');
            await c.query('UPDATE counters SET n = $1 WHERE id = 1', [cur.rows[0].n + 1]);
            await c.query('COMMIT');
          }
          return echoed;
        }),
      );
      for (const [i, echoed] of results.entries())
        expect(echoed).toEqual(Array.from({ length: 10 }, (_, k) => (i * 100 + k) * 2));
      const total = await clients[0]!.query('SELECT n FROM counters WHERE id = 1');
      expect(total.rows[0].n).toBe(200);
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
  });

  it('rolls back the open transaction of a client that disconnects', async () => {
    const a = new pg.Client({ connectionString: url });
    await a.connect();
    await a.query('BEGIN');
    await a.query('UPDATE counters SET n = -1 WHERE id = 1');
    a.on('error', () => {});
    const sock = (a as unknown as { connection: { stream: { destroy(): void } } }).connection.stream;
    sock.destroy();
    const b = new pg.Client({ connectionString: url });
    await b.connect();
    const r = await b.query('SELECT n FROM counters WHERE id = 1');
    expect(r.rows[0].n).not.toBe(-1);
    await b.end();
  });

  it('survives 300 short-lived connections', async () => {
    for (let i = 0; i < 300; i++) {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      const r = await c.query('SELECT $1::text AS s', [`c${i}`]);
      expect(r.rows[0].s).toBe(`c${i}`);
      await c.end();
    }
  }, 60_000);
});
