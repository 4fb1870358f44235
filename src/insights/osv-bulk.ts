/**
 * OSV bulk import (`npm run import -- osv <ecosystem>...`): the ecosystem's `all.zip` from
 * OSV_BULK_URL, every record stored through the same code as read-through (storeAdvisories:
 * upsert, affected versions recomputed for the packages already stored), in transactions of
 * BATCH records so a failure loses at most one batch and progress can be shown.
 */
import type { Db } from '../platform/db.ts';
import { fetchOsvBulk, osvEcosystem, osvRecordsFromZip, type Osv } from './ingest/osv.ts';
import type { UpstreamEnv } from './ingest/http.ts';
import { storeAdvisories } from './queries-write.ts';

export const BATCH = 500;

export interface BulkResult {
  ecosystem: string;
  stored: number;
  skipped: { name: string; reason: string }[];
}

export async function importOsvZip(
  db: Db,
  ecosystem: string,
  zip: Uint8Array,
  progress?: (stored: number) => void,
): Promise<BulkResult> {
  const result: BulkResult = { ecosystem, stored: 0, skipped: [] };
  let batch: Osv[] = [];
  const flush = async () => {
    if (!batch.length) return;
    await storeAdvisories(db, batch);
    result.stored += batch.length;
    batch = [];
    progress?.(result.stored);
  };
  for await (const item of osvRecordsFromZip(zip)) {
    if ('skipped' in item) result.skipped.push({ name: item.skipped, reason: item.reason });
    else if (batch.push(item.record) >= BATCH) await flush();
  }
  await flush();
  return result;
}

export async function importOsvEcosystem(
  env: UpstreamEnv,
  db: Db,
  ecosystemArg: string,
  progress?: (stored: number) => void,
): Promise<BulkResult> {
  const ecosystem = osvEcosystem(ecosystemArg);
  return importOsvZip(db, ecosystem, await fetchOsvBulk(env, ecosystem), progress);
}
