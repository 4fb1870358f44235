/**
 * Per-request database handle on the Neon serverless driver.
 *
 * - `db.query(text, params)` runs one statement through `neon()` (one HTTP round trip, no
 *   connection set-up): the path for every read and for single-statement writes.
 * - `db.transaction(fn)` opens a `Pool` lazily (WebSocket, the Postgres wire protocol), runs
 *   BEGIN/fn/COMMIT on one client and rolls back on any throw. The pool is ended through
 *   `ctx.waitUntil` once the request is done, so nothing outlives the request (Workers forbid
 *   sharing I/O objects between requests). Work the request left running (its own waitUntil: a
 *   batched write after the answer) may still open a transaction after that: `close()` waits for
 *   transactions under way, and a transaction begun after it ends its pool when it is done.
 * - Inside `fn` use only the `tx` it receives: on the embedded PGlite stack every connection shares
 *   one backend, so a second connection awaited inside a transaction would wait forever.
 *
 * Against a local stack (`NEON_LOCAL_PROXY=host:port`) the driver is pointed at the Neon-compatible
 * proxy in tools/stack; production leaves `neonConfig` at its defaults.
 */
import { neon, neonConfig, Pool, type PoolClient } from '@neondatabase/serverless';
import { databaseConfig } from './config/shared.ts';

/** The variables the database needs (named as in `Env`, which imports `Db` from here: no import back). */
export interface DbVariables {
  readonly DATABASE_URL?: string;
  readonly NEON_LOCAL_PROXY?: string;
}

export type Row = Record<string, unknown>;

export interface Queryable {
  query<T = Row>(text: string, params?: readonly unknown[]): Promise<T[]>;
}

/** One statement with its parameters. */
export interface Statement {
  text: string;
  params: readonly unknown[];
}

export interface Db extends Queryable {
  transaction<T>(
    fn: (tx: Queryable) => Promise<T>,
    opts?: { isolation?: 'read committed' | 'repeatable read' | 'serializable' },
  ): Promise<T>;
  /** Ends the pool if one was opened. Called through waitUntil by the middleware. */
  close(): Promise<void>;
}

let configuredFor: string | undefined;

/** Points the driver at a local Neon-compatible proxy when the env names one (idempotent). */
export function configureNeon(env: Pick<DbVariables, 'NEON_LOCAL_PROXY'>): void {
  const proxy = databaseConfig(env).NEON_LOCAL_PROXY;
  if (!proxy || configuredFor === proxy) return;
  configuredFor = proxy;
  neonConfig.wsProxy = (host, port) => `${proxy}/v2?address=${host}:${port}`;
  neonConfig.useSecureWebSocket = false;
  neonConfig.pipelineTLS = false;
  neonConfig.pipelineConnect = false;
  neonConfig.fetchEndpoint = () => `http://${proxy}/sql`;
}

/**
 * A Pool for transactions. An idle client whose WebSocket drops (the proxy or Neon closes it, a
 * Worker's I/O context ends) makes the Pool emit 'error'; without a listener that is an uncaught
 * exception that takes the isolate down. The Pool has already discarded that client, and the next
 * transaction connects afresh, so the event is only logged.
 */
function openPool(connectionString: string): Pool {
  const pool = new Pool({ connectionString, max: 1 });
  pool.on('error', (err: Error) => console.warn(`db: idle connection closed: ${err.message}`));
  return pool;
}

export function createDb(env: DbVariables): Db {
  const url = databaseConfig(env).DATABASE_URL;
  configureNeon(env);
  const sql = neon(url);
  let pool: Pool | undefined;
  let closed = false;
  let active = 0;
  let waiting: (() => void)[] = [];
  const end = async () => {
    const p = pool;
    pool = undefined;
    if (p) await p.end();
    const w = waiting;
    waiting = [];
    for (const r of w) r();
  };

  return {
    async query<T = Row>(text: string, params: readonly unknown[] = []): Promise<T[]> {
      return (await sql.query(text, params as unknown[])) as T[];
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>, opts?: { isolation?: string }): Promise<T> {
      pool ??= openPool(url);
      active++;
      let client: PoolClient;
      try {
        client = await pool.connect();
      } catch (err) {
        active--;
        throw err;
      }
      try {
        await client.query(opts?.isolation ? `BEGIN ISOLATION LEVEL ${opts.isolation.toUpperCase()}` : 'BEGIN');
        const tx: Queryable = {
          async query<R = Row>(text: string, params: readonly unknown[] = []): Promise<R[]> {
            return (await client.query(text, params as unknown[])).rows as R[];
          },
        };
        const result = await fn(tx);
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
        active--;
        if (closed && active === 0) await end();
      }
    },
    async close(): Promise<void> {
      closed = true;
      if (active === 0) await end();
      else await new Promise<void>((r) => waiting.push(r)); // ended by the last transaction under way
    },
  };
}

/**
 * Runs `run` (one transaction) again when PostgreSQL chose it as a deadlock's victim (40P01), as its
 * documentation advises: at most `attempts` times. For transactions whose only effects are in the database
 * (concurrent stores of one package from two isolates take row locks in different orders).
 */
export async function retryDeadlock<T>(run: () => Promise<T>, attempts = 3): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await run();
    } catch (err) {
      if ((err as { code?: string }).code !== '40P01' || i >= attempts) throw err;
    }
  }
}
