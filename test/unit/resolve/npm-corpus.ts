/** Loads the recorded npm corpus (tools/record-npm-corpus.ts) into a MemoryClient. */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { MemoryClient } from '../../../src/resolve/memory-client.ts';
import { packumentRows, type Packument } from '../../../src/resolve/npm-packument.ts';

export const CORPUS_DIR = new URL('../../fixtures/resolve/npm-corpus/', import.meta.url).pathname;

export interface CorpusRoot { manifest: { name: string; version: string } & Record<string, unknown>; npmColdMs: number }
export interface LockEntry { version: string; name?: string; optional?: boolean; peer?: boolean; dev?: boolean; inBundle?: boolean; os?: string[]; cpu?: string[]; engines?: Record<string, string> }

export function loadCorpus() {
  const meta = JSON.parse(readFileSync(CORPUS_DIR + 'roots.json', 'utf8')) as { npmVersion: string; nodeVersion: string; roots: CorpusRoot[] };
  const packuments = JSON.parse(gunzipSync(readFileSync(CORPUS_DIR + 'packuments.json.gz')).toString('utf8')) as Record<string, Packument>;
  const lockfiles = JSON.parse(gunzipSync(readFileSync(CORPUS_DIR + 'lockfiles.json.gz')).toString('utf8')) as Record<string, Record<string, LockEntry>>;
  const client = new MemoryClient();
  for (const p of Object.values(packuments)) for (const r of packumentRows(p)) client.addVersion(r.info, r.deps);
  return { meta, client, lockfiles, packuments };
}
