/**
 * The refresh of the Sigstore trust data from Sigstore's TUF repository (SIGSTORE_TUF_URL), run by the
 * delivery cron once per INSIGHTS_TRUST_REFRESH_SECONDS (claimed in insights.sigstore_trust, so one run
 * does it). A TUF client's update (the TUF specification's "detailed client workflow"), with
 * `@tufjs/models` for the metadata and its signature checks, no filesystem:
 *   1. root: from the last trusted root (the stored one, else sigstore-tuf-root.json, the root the data in
 *      the repository was verified under), `N+1.root.json` while the repository has one; each must be
 *      signed by a threshold of the previous root's root keys and of its own, and be version N+1; the
 *      last one must not have expired;
 *   2. timestamp.json signed by the root's timestamp role, not expired, not older than the last seen;
 *   3. the snapshot it names (`V.snapshot.json` under consistent snapshots), its length and hashes as
 *      the timestamp says, signed by the snapshot role, of that version, not expired, not older;
 *   4. targets.json likewise from the snapshot, signed by the targets role;
 *   5. the targets `trusted_root.json` and `registry.npmjs.org/keys.json` (`dir/HASH.name` under
 *      consistent snapshots), their length and sha256/sha512 as targets.json says.
 * Any failure keeps the data held before (logged, and recorded in the row's `error`); an unreachable
 * repository is logged and changes nothing. What verifies is merged with what was held: every key and
 * authority held before stays unless the new data carries the same one (each has its validity window,
 * so bundles signed under a retired key keep verifying). Verification reads it through `currentTrust`.
 */
import { Metadata, MetadataKind, type Root } from '@tufjs/models';
import { TrustedRoot } from '@sigstore/protobuf-specs';
import type { Db, Queryable } from '../../platform/db.ts';
import { fetchUpstream } from '../ingest/http.ts';
import { UpstreamError, UpstreamNotFound } from '../ingest/types.ts';
import tufRootJson from './sigstore-tuf-root.json' with { type: 'json' };
import { installEcVerifyShim } from './ec-verify-shim.ts';
import { BUILTIN_TRUST, type RegistryKey, type TrustData } from './trust.ts';

export const SIGSTORE_TUF_ROOT: unknown = tufRootJson;
const REPOSITORY = 'public-good';
const MAX_ROOT_STEPS = 32;
const TRUSTED_ROOT = 'trusted_root.json';
const NPM_KEYS = 'registry.npmjs.org/keys.json';

export interface RefreshResult {
  status: 'skipped' | 'unchanged' | 'updated' | 'failed' | 'unreachable';
  detail: string;
}

interface TrustRow {
  tuf_root: unknown;
  timestamp_version: number;
  snapshot_version: number;
  targets_version: number;
  trusted_root: unknown;
  npm_keys: { keys: RegistryKey[] } | null;
  refreshed_at: Date | string | null;
}

class TufFailure extends Error {}

/** A JSON object as @tufjs/models reads it. */
type Json = Parameters<typeof Metadata.fromJSON>[1];
/** The parts of a trusted root (Sigstore's TrustedRoot JSON) the merge reads. */
interface RootEntries {
  tlogs?: LogEntry[];
  ctlogs?: LogEntry[];
  certificateAuthorities?: AuthorityEntry[];
  timestampAuthorities?: AuthorityEntry[];
}
interface LogEntry {
  logId?: { keyId?: string };
}
interface AuthorityEntry {
  uri?: string;
  subject?: unknown;
  validFor?: { start?: string };
}
type AnyMetadata = Parameters<Metadata<Root>['verifyDelegate']>[1];

async function readRow(db: Queryable): Promise<TrustRow | null> {
  const rows = await db.query<TrustRow>(
    `SELECT tuf_root, timestamp_version, snapshot_version, targets_version, trusted_root, npm_keys, refreshed_at
    FROM insights.sigstore_trust WHERE repository = $1`,
    [REPOSITORY],
  );
  return rows[0] ?? null;
}

/** Claims this run's attempt: false when another run tried within `seconds`. */
async function claim(db: Queryable, seconds: number): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO insights.sigstore_trust (repository) VALUES ($1)
    ON CONFLICT (repository) DO UPDATE SET attempted_at = now()
      WHERE insights.sigstore_trust.attempted_at <= now() - make_interval(secs => $2)
    RETURNING 1`,
    [REPOSITORY, seconds],
  );
  return rows.length > 0;
}

async function fetchBytes(url: string): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await (await fetchUpstream(url)).arrayBuffer());
}

function parse(bytes: Uint8Array, what: string): Json {
  try {
    return JSON.parse(new TextDecoder().decode(bytes)) as Json;
  } catch {
    throw new TufFailure(`${what} is not JSON`);
  }
}

function check(ok: boolean, why: string): void {
  if (!ok) throw new TufFailure(why);
}

/** `delegator` must sign `m` with its `role` threshold (a ValueError/UnsignedMetadataError becomes a TufFailure). */
function verifyRole(delegator: Metadata<Root>, role: string, m: AnyMetadata, what: string): void {
  try {
    delegator.verifyDelegate(role, m);
  } catch (err) {
    throw new TufFailure(`${what}: ${(err as Error).message}`);
  }
}

/** Metadata read by @tufjs/models; what it refuses is a TufFailure naming `what`. */
function parseMeta<T>(read: () => T, what: string): T {
  try {
    return read();
  } catch (err) {
    throw new TufFailure(`${what}: ${(err as Error).message}`);
  }
}

const hex = (b: ArrayBuffer) => [...new Uint8Array(b)].map((x) => x.toString(16).padStart(2, '0')).join('');

/** Length and every known hash (sha256, sha512) of a downloaded file against what its metadata says. */
async function checkFile(
  bytes: Uint8Array<ArrayBuffer>,
  meta: { length?: number; hashes?: Record<string, string> },
  what: string,
): Promise<void> {
  if (meta.length !== undefined)
    check(bytes.length === meta.length, `${what}: length ${bytes.length}, not ${meta.length}`);
  const algorithms: Record<string, string> = { sha256: 'SHA-256', sha512: 'SHA-512' };
  const known = Object.entries(meta.hashes ?? {}).filter(([a]) => algorithms[a]);
  for (const [a, want] of known) {
    const got = hex(await crypto.subtle.digest(algorithms[a]!, bytes));
    check(got === want.toLowerCase(), `${what}: ${a} mismatch`);
  }
}

/** The TUF update (steps 1-5 of the header). */
async function update(base: string, row: TrustRow | null, now: Date) {
  installEcVerifyShim(); // @tufjs/models passes `{key, hashAlgorithm}`, which workerd's verify does not take
  let root = parseMeta(
    () => Metadata.fromJSON(MetadataKind.Root, (row?.tuf_root ?? SIGSTORE_TUF_ROOT) as Json),
    'trusted root',
  );
  let rootJson = (row?.tuf_root ?? SIGSTORE_TUF_ROOT) as Json;
  for (let step = 0; step < MAX_ROOT_STEPS; step++) {
    const n = root.signed.version + 1;
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      bytes = await fetchBytes(`${base}/${n}.root.json`);
    } catch (err) {
      if (err instanceof UpstreamNotFound) break;
      throw err;
    }
    const json = parse(bytes, `${n}.root.json`);
    const next = parseMeta(() => Metadata.fromJSON(MetadataKind.Root, json), `${n}.root.json`);
    verifyRole(root, MetadataKind.Root, next, `${n}.root.json (by root ${root.signed.version})`);
    verifyRole(next, MetadataKind.Root, next, `${n}.root.json (by itself)`);
    check(next.signed.version === n, `${n}.root.json has version ${next.signed.version}`);
    root = next;
    rootJson = json;
  }
  check(!root.signed.isExpired(now), `root ${root.signed.version} expired at ${root.signed.expires}`);
  const consistent = root.signed.consistentSnapshot;

  const timestampJson = parse(await fetchBytes(`${base}/timestamp.json`), 'timestamp.json');
  const timestamp = parseMeta(() => Metadata.fromJSON(MetadataKind.Timestamp, timestampJson), 'timestamp.json');
  verifyRole(root, MetadataKind.Timestamp, timestamp, 'timestamp.json');
  check(!timestamp.signed.isExpired(now), `timestamp.json expired at ${timestamp.signed.expires}`);
  check(timestamp.signed.version >= (row?.timestamp_version ?? 0), 'timestamp.json is older than the one seen before');

  const snapMeta = timestamp.signed.snapshotMeta;
  const snapName = consistent ? `${snapMeta.version}.snapshot.json` : 'snapshot.json';
  const snapBytes = await fetchBytes(`${base}/${snapName}`);
  await checkFile(snapBytes, snapMeta, snapName);
  const snapshot = parseMeta(() => Metadata.fromJSON(MetadataKind.Snapshot, parse(snapBytes, snapName)), snapName);
  verifyRole(root, MetadataKind.Snapshot, snapshot, snapName);
  check(snapshot.signed.version === snapMeta.version, `${snapName} has version ${snapshot.signed.version}`);
  check(!snapshot.signed.isExpired(now), `${snapName} expired at ${snapshot.signed.expires}`);
  check(snapshot.signed.version >= (row?.snapshot_version ?? 0), `${snapName} is older than the one seen before`);

  const targetsMeta = snapshot.signed.meta['targets.json'];
  check(targetsMeta !== undefined, `${snapName} names no targets.json`);
  const targetsName = consistent ? `${targetsMeta.version}.targets.json` : 'targets.json';
  const targetsBytes = await fetchBytes(`${base}/${targetsName}`);
  await checkFile(targetsBytes, targetsMeta, targetsName);
  const targets = parseMeta(
    () => Metadata.fromJSON(MetadataKind.Targets, parse(targetsBytes, targetsName)),
    targetsName,
  );
  verifyRole(root, MetadataKind.Targets, targets, targetsName);
  check(targets.signed.version === targetsMeta.version, `${targetsName} has version ${targets.signed.version}`);
  check(!targets.signed.isExpired(now), `${targetsName} expired at ${targets.signed.expires}`);
  check(targets.signed.version >= (row?.targets_version ?? 0), `${targetsName} is older than the one seen before`);

  const target = async (name: string): Promise<Json> => {
    const file = targets.signed.targets[name];
    check(file !== undefined, `${targetsName} names no target ${name}`);
    const slash = name.lastIndexOf('/');
    const hash = file.hashes.sha256 ?? Object.values(file.hashes)[0];
    const path = consistent ? `${name.slice(0, slash + 1)}${hash}.${name.slice(slash + 1)}` : name;
    const bytes = await fetchBytes(`${base}/targets/${path}`);
    await checkFile(bytes, file, `target ${name}`);
    return parse(bytes, `target ${name}`);
  };
  const trustedRoot = await target(TRUSTED_ROOT);
  const npmKeys = await target(NPM_KEYS);
  try {
    TrustedRoot.fromJSON(trustedRoot);
  } catch (err) {
    throw new TufFailure(`target ${TRUSTED_ROOT} is not a trusted root: ${(err as Error).message}`);
  }
  check(Array.isArray(npmKeys.keys), `target ${NPM_KEYS} has no keys`);
  return {
    rootJson,
    versions: [timestamp.signed.version, snapshot.signed.version, targets.signed.version] as const,
    trustedRoot,
    npmKeys: npmKeys as unknown as { keys: RegistryKey[] }, // its keys were checked to be a list above
  };
}

/** `next`'s entries, then every entry of `held` that `next` has not (by `key`). */
function union<T>(held: T[] | undefined, next: T[] | undefined, key: (x: T) => string): T[] {
  const have = new Set((next ?? []).map(key));
  return [...(next ?? []), ...(held ?? []).filter((x) => !have.has(key(x)))];
}

/** The refreshed trust data with every key and authority held before that it does not carry. */
export function mergeTrust(held: TrustData, next: TrustData): TrustData {
  const h = held.trustedRoot as RootEntries;
  const n = next.trustedRoot as RootEntries;
  const log = (x: LogEntry) => `${x.logId?.keyId}`;
  const authority = (x: AuthorityEntry) => `${x.uri} ${JSON.stringify(x.subject ?? {})} ${x.validFor?.start ?? ''}`;
  return {
    trustedRoot: {
      ...n,
      tlogs: union(h.tlogs, n.tlogs, log),
      ctlogs: union(h.ctlogs, n.ctlogs, log),
      certificateAuthorities: union(h.certificateAuthorities, n.certificateAuthorities, authority),
      timestampAuthorities: union(h.timestampAuthorities, n.timestampAuthorities, authority),
    },
    npmKeys: { ...next.npmKeys, keys: union(held.npmKeys.keys, next.npmKeys.keys, (k) => k.keyId) },
  };
}

const heldTrust = (row: TrustRow | null): TrustData =>
  row?.trusted_root && row.npm_keys ? { trustedRoot: row.trusted_root, npmKeys: row.npm_keys } : BUILTIN_TRUST;

/**
 * One refresh: skipped when another run tried within `intervalSeconds`; otherwise the TUF update, and the
 * merged trust data stored when it verified.
 */
export async function refreshSigstoreTrust(
  db: Db,
  base: string,
  intervalSeconds: number,
  now = new Date(),
): Promise<RefreshResult> {
  if (!(await claim(db, intervalSeconds))) return { status: 'skipped', detail: 'refreshed recently' };
  const row = await readRow(db);
  const fail = async (status: RefreshResult['status'], detail: string): Promise<RefreshResult> => {
    await db.query('UPDATE insights.sigstore_trust SET error = $2 WHERE repository = $1', [REPOSITORY, detail]);
    console.warn(`insights: sigstore trust refresh ${status}: ${detail}`);
    return { status, detail };
  };
  let next: Awaited<ReturnType<typeof update>>;
  try {
    next = await update(base.replace(/\/+$/, ''), row, now);
  } catch (err) {
    if (err instanceof TufFailure) return fail('failed', err.message);
    if (err instanceof UpstreamError || err instanceof UpstreamNotFound) return fail('unreachable', err.message);
    throw err;
  }
  const merged = mergeTrust(heldTrust(row), { trustedRoot: next.trustedRoot, npmKeys: next.npmKeys });
  const changed =
    JSON.stringify(merged) !== JSON.stringify(heldTrust(row)) ||
    JSON.stringify(next.rootJson) !== JSON.stringify(row?.tuf_root ?? null);
  await db.query(
    `UPDATE insights.sigstore_trust SET tuf_root = $2::json, timestamp_version = $3, snapshot_version = $4,
      targets_version = $5, trusted_root = $6::json, npm_keys = $7::json, refreshed_at = now(), error = ''
    WHERE repository = $1`,
    [
      REPOSITORY,
      JSON.stringify(next.rootJson),
      ...next.versions,
      JSON.stringify(merged.trustedRoot),
      JSON.stringify(merged.npmKeys),
    ],
  );
  const detail = `root ${(next.rootJson as { signed?: { version?: number } }).signed?.version}, targets ${next.versions[2]}`;
  return { status: changed ? 'updated' : 'unchanged', detail };
}

let cached: { at: string; data: TrustData } | null = null;

/** The trust data verification uses: the refreshed data when a refresh stored some, else the repository's. */
export async function currentTrust(db: Queryable): Promise<TrustData> {
  const row = await readRow(db);
  if (!row?.trusted_root || !row.npm_keys || !row.refreshed_at) return BUILTIN_TRUST;
  const at = new Date(row.refreshed_at).toISOString();
  if (cached?.at !== at) cached = { at, data: heldTrust(row) }; // one TrustData per refresh: its material is built once
  return cached.data;
}
