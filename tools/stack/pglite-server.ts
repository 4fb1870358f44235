/**
 * Embedded PostgreSQL: PGlite (PostgreSQL in WASM) behind a Postgres wire-protocol socket (pglite-wire.ts), in its own
 * process (PGlite in the same process as the Neon client hangs Node). Data is kept in `--data DIR`
 * (git-ignored `.data/pglite` for `npm start`) or in memory with `--memory`.
 * Prints `READY <port>` on stdout when it accepts connections.
 */
import { PGlite } from '@electric-sql/pglite';
import { startWireServer } from './pglite-wire.ts';
import { mkdir } from 'node:fs/promises';
import { DEFAULT_PORTS } from './config.ts';

const args = process.argv.slice(2);
const arg = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const port = Number(arg('--port') ?? DEFAULT_PORTS.postgres);
const dataDir = args.includes('--memory') ? undefined : (arg('--data') ?? '.data/pglite');

if (dataDir) await mkdir(dataDir, { recursive: true });
const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
const db = await PGlite.create(dataDir ? { dataDir, extensions: { pg_trgm } } : { extensions: { pg_trgm } });
const server = await startWireServer(db, port);
process.stdout.write(`READY ${port}\n`);

let closing = false;
async function shutdown() {
  if (closing) return;
  closing = true;
  await new Promise((r) => server.close(r));
  await db.close().catch(() => undefined);
  process.exit(0);
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
process.on('disconnect', shutdown);
