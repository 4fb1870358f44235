/**
 * Migration runner: numbered plain SQL files (`0001_platform.sql`, ...) applied in name order, each
 * in its own transaction together with its row in `platform.schema_migrations`, so a file is applied
 * wholly or not at all and never twice. A session-level advisory lock serialises concurrent runners.
 * A file whose recorded checksum no longer matches is reported, not re-run.
 */
import { sha256Hex } from './crypto.ts';

export interface MigrationClient {
  query(text: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

export interface MigrationFile {
  name: string;
  sql: string;
}

export interface MigrationResult {
  applied: string[];
  skipped: string[];
  changed: string[];
}

const LOCK_ID = 727_274_001;
export const MIGRATION_NAME = /^\d{4}_[a-z0-9_-]+\.sql$/;

export async function runMigrations(
  client: MigrationClient,
  files: MigrationFile[],
  log: (line: string) => void = () => {},
): Promise<MigrationResult> {
  const bad = files.filter((f) => !MIGRATION_NAME.test(f.name));
  if (bad.length) throw new Error(`migration names must look like 0001_name.sql: ${bad.map((f) => f.name).join(', ')}`);
  const ordered = [...files].sort((a, b) => a.name.localeCompare(b.name));
  await client.query('CREATE SCHEMA IF NOT EXISTS platform');
  await client.query(`CREATE TABLE IF NOT EXISTS platform.schema_migrations (
    name text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
  await client.query('SELECT pg_advisory_lock($1)', [LOCK_ID]);
  const result: MigrationResult = { applied: [], skipped: [], changed: [] };
  try {
    const { rows } = await client.query('SELECT name, checksum FROM platform.schema_migrations');
    const done = new Map(rows.map((r) => [String(r.name), String(r.checksum)]));
    for (const file of ordered) {
      const checksum = await sha256Hex(file.sql);
      const previous = done.get(file.name);
      if (previous !== undefined) {
        (previous === checksum ? result.skipped : result.changed).push(file.name);
        if (previous !== checksum) log(`! ${file.name} changed after it was applied (not re-run)`);
        continue;
      }
      const started = Date.now();
      await client.query('BEGIN');
      try {
        await client.query(file.sql);
        await client.query('INSERT INTO platform.schema_migrations (name, checksum) VALUES ($1, $2)', [
          file.name,
          checksum,
        ]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${file.name} failed: ${(err as Error).message}`);
      }
      result.applied.push(file.name);
      log(`applied ${file.name} (${Date.now() - started} ms)`);
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [LOCK_ID]);
  }
  return result;
}
