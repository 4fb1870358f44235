import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runMigrations } from '../../../src/platform/migrations.ts';
import { readMigrations } from '../../../tools/migrate.ts';
import { stackInfo } from '../../support/env.ts';

let client: pg.Client;
beforeAll(async () => {
  client = new pg.Client({ connectionString: stackInfo().databaseUrl });
  await client.connect();
});
afterAll(async () => client.end());

describe('migration runner', () => {
  it('finds the repository migrations in order, all already applied by the stack', async () => {
    const files = await readMigrations();
    expect(files.length).toBeGreaterThan(0);
    expect(files.map((f) => f.name)).toEqual([...files.map((f) => f.name)].sort());
    const r = await runMigrations(client, files);
    expect(r.applied).toEqual([]);
    expect(r.skipped).toEqual(files.map((f) => f.name));
  });

  it('applies a new file once, records it, and rolls a failing file back whole', async () => {
    const tag = `t${Date.now().toString(36)}`;
    const good = {
      name: `9001_${tag}_good.sql`,
      sql: `CREATE TABLE platform.${tag}_a (id int); INSERT INTO platform.${tag}_a VALUES (1);`,
    };
    const bad = {
      name: `9002_${tag}_bad.sql`,
      sql: `CREATE TABLE platform.${tag}_b (id int); SELECT no_such_function();`,
    };
    try {
      expect((await runMigrations(client, [good])).applied).toEqual([good.name]);
      expect((await runMigrations(client, [good])).skipped).toEqual([good.name]);
      await expect(runMigrations(client, [good, bad])).rejects.toThrow(new RegExp(`migration ${bad.name} failed`));
      const tables = await client.query(
        `SELECT to_regclass('platform.${tag}_a') AS a, to_regclass('platform.${tag}_b') AS b`,
      );
      expect(tables.rows[0]).toEqual({ a: `platform.${tag}_a`, b: null });
      const recorded = await client.query(
        'SELECT name FROM platform.schema_migrations WHERE name LIKE $1 ORDER BY name',
        [`%${tag}%`],
      );
      expect(recorded.rows.map((r) => r.name)).toEqual([good.name]);
      const changed = await runMigrations(client, [{ ...good, sql: `${good.sql} -- edited` }]);
      expect(changed.changed).toEqual([good.name]);
    } finally {
      await client.query(
        `DROP TABLE IF EXISTS platform.${tag}_a; DROP TABLE IF EXISTS platform.${tag}_b; DELETE FROM platform.schema_migrations WHERE name LIKE '%${tag}%'`,
      );
    }
  });

  it('refuses badly named files', async () => {
    await expect(runMigrations(client, [{ name: 'create-users.sql', sql: 'SELECT 1' }])).rejects.toThrow(
      /0001_name\.sql/,
    );
  });
});

describe('database handle', () => {
  it('runs single statements over HTTP and transactions over the WebSocket, rolling back on error', async () => {
    const { createDb } = await import('../../../src/platform/db.ts');
    const { testEnv } = await import('../../support/env.ts');
    const db = createDb(testEnv());
    const key = `tx-${Math.random()}`;
    try {
      const [row] = await db.query<{ n: number; s: string; j: unknown; t: Date }>(
        'SELECT 1::int AS n, $1::text AS s, \'{"a":[1]}\'::jsonb AS j, now() AS t',
        ['x'],
      );
      expect(row).toMatchObject({ n: 1, s: 'x', j: { a: [1] } });
      expect(row!.t).toBeInstanceOf(Date);
      await expect(
        db.transaction(async (tx) => {
          await tx.query('INSERT INTO platform.processed_messages (key) VALUES ($1)', [key]);
          throw new Error('abort');
        }),
      ).rejects.toThrow('abort');
      expect(await db.query('SELECT 1 FROM platform.processed_messages WHERE key = $1', [key])).toEqual([]);
      await db.transaction(async (tx) => tx.query('INSERT INTO platform.processed_messages (key) VALUES ($1)', [key]));
      expect(await db.query('SELECT key FROM platform.processed_messages WHERE key = $1', [key])).toEqual([{ key }]);
      await expect(db.query('SELECT * FROM no_such_table')).rejects.toThrow(/no_such_table/);
    } finally {
      await db.query('DELETE FROM platform.processed_messages WHERE key = $1', [key]);
      await db.close();
    }
  });

  it('close() waits for a transaction under way; a transaction begun after close() ends its own pool', async () => {
    const { createDb } = await import('../../../src/platform/db.ts');
    const { testEnv } = await import('../../support/env.ts');
    const { Pool } = await import('@neondatabase/serverless');
    const ends = vi.spyOn(Pool.prototype, 'end');
    const db = createDb(testEnv());
    const key = `close-${Math.random()}`;
    let release = () => {};
    try {
      const gate = new Promise<void>((r) => (release = r));
      const tx = db.transaction(async (t) => {
        await gate;
        await t.query('INSERT INTO platform.processed_messages (key) VALUES ($1)', [`${key}-a`]);
      });
      await new Promise((r) => setTimeout(r, 50)); // the transaction holds its client
      let closed = false;
      const closing = db.close().then(() => (closed = true));
      await new Promise((r) => setTimeout(r, 50));
      expect(closed).toBe(false); // the pool is not ended under the transaction
      release();
      await tx;
      await closing;
      expect(ends).toHaveBeenCalledTimes(1);
      // work left running after the request (waitUntil) may still write: it opens and ends a pool of its own
      await db.transaction((t) => t.query('INSERT INTO platform.processed_messages (key) VALUES ($1)', [`${key}-b`]));
      expect(ends).toHaveBeenCalledTimes(2);
      expect(
        (
          await db.query<{ key: string }>(
            'SELECT key FROM platform.processed_messages WHERE key LIKE $1 ORDER BY key',
            [`${key}%`],
          )
        ).map((r) => r.key),
      ).toEqual([`${key}-a`, `${key}-b`]);
    } finally {
      release(); // a failed expectation must not leave the transaction holding the backend
      ends.mockRestore();
      await db.query('DELETE FROM platform.processed_messages WHERE key LIKE $1', [`${key}%`]);
    }
  });

  it('an idle transaction connection that drops is logged and replaced, never an uncaught error', async () => {
    const { createDb } = await import('../../../src/platform/db.ts');
    const { testEnv } = await import('../../support/env.ts');
    const net = await import('node:net');
    const env = testEnv();
    const [host, port] = String(env.NEON_LOCAL_PROXY).split(':');
    // a TCP forwarder in front of the local Neon proxy whose connections the test can cut
    const sockets = new Set<import('node:net').Socket>();
    const forwarder = net.createServer((inbound) => {
      const outbound = net.connect(Number(port), host);
      for (const s of [inbound, outbound]) {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
        s.on('error', () => undefined);
      }
      inbound.pipe(outbound).pipe(inbound);
    });
    await new Promise<void>((r) => forwarder.listen(0, '127.0.0.1', r));
    const addr = forwarder.address() as import('node:net').AddressInfo;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const db = createDb({ ...env, NEON_LOCAL_PROXY: `127.0.0.1:${addr.port}` });
    try {
      const pid = async () =>
        (await db.transaction((t) => t.query<{ p: number }>('SELECT pg_backend_pid() AS p')))[0]!.p;
      expect(typeof (await pid())).toBe('number'); // the pool now holds an idle client
      for (const s of sockets) s.destroy();
      await vi.waitFor(() => expect(warn.mock.calls.flat().join(' ')).toMatch(/idle connection closed/), {
        timeout: 5000,
      });
      expect(typeof (await pid())).toBe('number'); // a fresh connection serves the next transaction
    } finally {
      warn.mockRestore();
      await db.close();
      createDb(env); // the driver's proxy setting back to the stack's
      forwarder.close();
      for (const s of sockets) s.destroy();
    }
  });

  it('once() runs a keyed job a single time', async () => {
    const { createDb } = await import('../../../src/platform/db.ts');
    const { once } = await import('../../../src/platform/idempotency.ts');
    const { testEnv } = await import('../../support/env.ts');
    const db = createDb(testEnv());
    const key = `once-${Math.random()}`;
    let runs = 0;
    try {
      await expect(
        once(db, key, async () => {
          runs++;
          throw new Error('fail first');
        }),
      ).rejects.toThrow('fail first');
      expect(
        await once(db, key, async () => {
          runs++;
          return 7;
        }),
      ).toEqual({ ran: true, result: 7 });
      expect(
        await once(db, key, async () => {
          runs++;
          return 8;
        }),
      ).toEqual({ ran: false });
      expect(runs).toBe(2);
    } finally {
      await db.query('DELETE FROM platform.processed_messages WHERE key = $1', [key]);
      await db.close();
    }
  });
});
