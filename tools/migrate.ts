/**
 * `npm run migrate`: applies migrations/*.sql to DATABASE_URL (default: the local embedded stack).
 */
import { readdir, readFile } from 'node:fs/promises';
import pg from 'pg';
import { runMigrations, MIGRATION_NAME, type MigrationFile } from '../src/platform/migrations.ts';
import { LOCAL } from './stack/config.ts';

export const MIGRATIONS_DIR = new URL('../migrations/', import.meta.url);

export async function readMigrations(dir: URL = MIGRATIONS_DIR): Promise<MigrationFile[]> {
  const names = (await readdir(dir)).filter((n) => MIGRATION_NAME.test(n)).sort();
  return Promise.all(names.map(async (name) => ({ name, sql: await readFile(new URL(name, dir), 'utf8') })));
}

export async function migrate(databaseUrl: string, log: (line: string) => void = console.log) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await runMigrations(client, await readMigrations(), log);
  } finally {
    await client.end();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const url = process.env.DATABASE_URL ?? LOCAL.databaseUrl;
  const r = await migrate(url);
  console.log(
    `migrations: ${r.applied.length} applied, ${r.skipped.length} already applied${r.changed.length ? `, ${r.changed.length} CHANGED` : ''}`,
  );
}
