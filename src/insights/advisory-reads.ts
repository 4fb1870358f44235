/**
 * Unknown is not empty (DESIGN.md convention 14) for a package's advisories, read from OSV. Every read
 * of a package's OSV records records its outcome (queries-source-reads.ts): `read_at` of the last
 * success, `failed_at` of a failure since. From that, each package of an answer is
 *   known    read, and the last attempt succeeded
 *   stale    read once, but the last attempt failed: the last known good records are served
 *            (stale-if-error) and the answer says how old they are
 *   missing  never read successfully: its "no advisories" means "not known"
 * Answers that are a security decision (findings, findingsbatch, `:dependencies?include=advisories`)
 * call `requireAdvisories`: a missing package is read inline once (one attempt per package per
 * INSIGHTS_SOURCE_RETRY_SECONDS, claimed in the store so concurrent requests share it), and if it is
 * still missing the answer is 503 with Retry-After. Other answers (GetVersion) call `advisoryWarning`:
 * the body keeps deps.dev's shape, a `Warning` header names what is missing or stale, and a read is
 * started in the background, so the stored answer is rewritten (queries-write.ts) as soon as OSV answers.
 */
import { HttpError } from '../platform/errors.ts';
import { fetchOsvForPackage, type Osv } from './ingest/osv.ts';
import { mapLimit } from './ingest/http.ts';
import { failureOf, isUpstreamFailure, warnUpstream } from './ingest/upstream-log.ts';
import type { System } from '../versions/index.ts';
import { insightsConfig } from './config.ts';
import { storeAdvisories } from './queries-write.ts';
import { claimAttempt, markRead, sourceReadOf, sourceReads, type SourceRead } from './queries-source-reads.ts';
import type { Db } from '../platform/db.ts';
import type { ReadContext } from './read-context.ts';
import { joinWarnings, readNames, warningParts } from './warning-header.ts';

/** At most this many packages are read inline for one answer; the rest wait for the queue. */
const INLINE_READS = 100;
const INLINE_CONCURRENCY = 6;
/** At most this many packages are read after an answer (a batch page may name a thousand). */
const BACKGROUND_READS = 20;

export interface PackageRef {
  system: string;
  name: string;
}

/**
 * Reads a package's OSV records, stores them and records the outcome: true when OSV answered. An
 * upstream failure is logged (rate-limited) and recorded; anything else (a bug, the database) throws.
 */
export async function readAdvisories(
  env: Record<string, unknown>,
  db: Db,
  system: string,
  name: string,
  records: Promise<Osv[]> = fetchOsvForPackage(env, system as System, name), // fetched already, while storing
) {
  try {
    await storeAdvisories(db, await records);
  } catch (err) {
    if (!isUpstreamFailure(err)) throw err;
    warnUpstream('OSV', err, `advisories of ${system} ${name}`);
    await markRead(db, 'osv', system, name, `${failureOf(err)}`);
    return false;
  }
  await markRead(db, 'osv', system, name, null);
  return true;
}

interface AdvisoryState {
  missing: SourceRead[];
  stale: SourceRead[];
}

function distinct(keys: readonly PackageRef[]): PackageRef[] {
  // packages only: a key carrying a version (a graph node) names its package's advisories
  return [...new Map(keys.map((k) => [`${k.system}\u0000${k.name}`, { system: k.system, name: k.name }])).values()];
}

/** Classifies `keys`; with `inline`, missing packages whose attempt is due are read now, else in the background. */
async function advisoryState(ctx: ReadContext, keys: readonly PackageRef[], inline: boolean): Promise<AdvisoryState> {
  const all = distinct(keys);
  const retry = insightsConfig(ctx.env).INSIGHTS_SOURCE_RETRY_SECONDS;
  const reads = await sourceReads(ctx.db, 'osv', all);
  const state: AdvisoryState = { missing: [], stale: [] };
  const due: SourceRead[] = [];
  for (const k of all) {
    const r = sourceReadOf(reads, k.system, k.name);
    if (r.readAt !== null && r.failedAt === null) continue;
    (r.readAt === null ? state.missing : state.stale).push(r);
    if (!r.attemptedAt || Date.now() - r.attemptedAt.getTime() >= retry * 1000) due.push(r);
  }
  const now = inline ? due.filter((r) => r.readAt === null).slice(0, INLINE_READS) : [];
  const later = due.filter((r) => !now.includes(r)).slice(0, BACKGROUND_READS);
  const claimAndRead = async (r: SourceRead) =>
    (await claimAttempt(ctx.db, 'osv', r.system, r.name, retry)) &&
    (await readAdvisories(ctx.env as unknown as Record<string, unknown>, ctx.db, r.system, r.name));
  const ok = await mapLimit(now, INLINE_CONCURRENCY, claimAndRead);
  if (ok.length) {
    const still = state.missing.filter((r) => !ok[now.indexOf(r)]);
    const fresh = await sourceReads(ctx.db, 'osv', still);
    state.missing = still.map((r) => sourceReadOf(fresh, r.system, r.name));
  }
  if (later.length)
    ctx.defer(mapLimit(later, 2, claimAndRead).catch((err) => console.error('insights: advisory read', err)));
  return state;
}

const names = (rs: SourceRead[]) => readNames(rs);

/** The `Warning` header of an answer built from `state` (warning-header.ts), or null when every package's advisories are known. */
function warningOf(state: AdvisoryState): string | null {
  return joinWarnings(warningParts({ what: 'advisories', source: 'OSV', ...state }));
}

/** For answers that show advisories but are not a security decision: the Warning header, or null. */
export async function advisoryWarning(ctx: ReadContext, keys: readonly PackageRef[]): Promise<string | null> {
  return warningOf(await advisoryState(ctx, keys, false));
}

/**
 * For security answers: returns the Warning header (stale data) or null; throws a 503 with Retry-After
 * when a package's advisories are still unknown after an inline read.
 */
export async function requireAdvisories(ctx: ReadContext, keys: readonly PackageRef[]): Promise<string | null> {
  const state = await advisoryState(ctx, keys, true);
  if (state.missing.length) {
    const retry = Math.max(1, Math.ceil(insightsConfig(ctx.env).INSIGHTS_SOURCE_RETRY_SECONDS));
    const last = state.missing.find((r) => r.failedAt) ?? state.missing[0]!;
    const why = last.failedAt ? `OSV ${last.error}` : 'OSV not read yet';
    throw new HttpError(
      503,
      `advisories of ${names(state.missing)} are unknown (${why}); this answer is withheld rather than shown as clean; retry in ${retry} seconds`,
      { headers: { 'Retry-After': String(retry) } },
    );
  }
  return warningOf(state);
}
