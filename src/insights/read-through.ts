/**
 * Read-through: the one way an insights route answers from the store and the upstreams. `readThrough`
 * looks the item up in the store; on a miss (and when INSIGHTS_READ_THROUGH is not `off`) it asks the
 * item's `Upstream` to fetch and write it, then reads the store again under the key the upstream named
 * (a PyPI name comes back PEP 503-normalised, a NuGet id lower-cased). An item the upstream does not
 * have is a miss (the route answers 404); a failing upstream is a 502, and nothing is written for it.
 * A stored package older than INSIGHTS_REFRESH_AFTER_SECONDS (default 86400) is answered from the store
 * and a refresh is queued (`/insights/refresh` on the delivery function, deduplicated per package and
 * hour) when the caller asks for it (`refreshStale`).
 *
 * Upstreams: `packages` (adapter -> store -> the package's OSV records), `advisories` (one OSV record),
 * `projects` (host API + Scorecard). The dependency graph reads through per package while the resolver
 * runs (graph-read-through.ts, driven by graph-build.ts with this same context), because its inputs are
 * many packages read in one unit of work and an incomplete graph is reported, never stored as final.
 *
 * Nothing here knows Hono: a route builds the `ReadContext` (route-context.ts) and renders the answer.
 */
import type { Db } from '../platform/db.ts';
import type { Env } from '../platform/env.ts';
import { HttpError } from '../platform/errors.ts';
import { warnLimited } from '../platform/log-limit.ts';
import { publish } from '../platform/queue.ts';
import type { System } from '../versions/index.ts';
import { fetchPackage } from './ingest/index.ts';
import { readAdvisories } from './advisory-reads.ts';
import type { ReadContext } from './read-context.ts';
import { fetchOsv, fetchOsvForPackage, type Osv } from './ingest/osv.ts';
import { fetchProject } from './ingest/projects.ts';
import { UpstreamError, UpstreamNotFound, type IngestedPackage } from './ingest/types.ts';
import { failureOf, isUpstreamFailure, warnUpstream } from './ingest/upstream-log.ts';
import { claimAttempt, markRead, PROJECT_SYSTEM } from './queries-source-reads.ts';
import {
  storeAdvisories,
  storePackageRows,
  storeProject,
  writePackageAnswers,
  writePackageAnswersLater,
} from './queries-write.ts';
import { insightsConfig } from './config.ts';
import { queueNpmPending } from './npm-pending.ts';
import { sharedFlight, storeInFlight, type AdvisoryRead, type Flight } from './stores-in-flight.ts';
import { queueAttestationChecks } from './attestation-queue.ts';

/** An item found in the store; `fetchedAt` (packages) tells whether the stored copy is stale. */
export interface Stored<T> {
  value: T;
  fetchedAt?: Date;
}

/** Where an item comes from when the store lacks it. */
export interface Upstream<K> {
  /** Fetches the item and writes it; the key it is stored under now, null when the upstream has none. */
  ingest(ctx: ReadContext, key: K): Promise<K | null>;
  /** The upstream's name in log lines (`NPM`, `OSV`, `github.com`). */
  label(key: K): string;
  /** Claims the one attempt per retry window at replacing a seeded (demo) copy; absent: never replaced. */
  claim?(ctx: ReadContext, key: K): Promise<boolean>;
  /** Resolves when this isolate's store of `key` that is under way (if any) has ended, so a read sees it. */
  settled?(key: K): Promise<unknown> | undefined;
  /** Queues a background refresh of a stored copy fetched at `fetchedAt`, when it is stale. */
  refresh?(ctx: ReadContext, key: K, fetchedAt: Date): void;
}

export function readThroughEnabled(env: Env): boolean {
  return insightsConfig(env).INSIGHTS_READ_THROUGH;
}

export function refreshAfterSeconds(env: Env): number {
  return insightsConfig(env).INSIGHTS_REFRESH_AFTER_SECONDS;
}

/**
 * The item under `key`: from the store, else fetched through `upstream`, written and read again.
 * Null when neither the store nor the upstream has it.
 */
export async function readThrough<K, T>(
  ctx: ReadContext,
  upstream: Upstream<K>,
  key: K,
  read: (key: K) => Promise<Stored<T> | null>,
  opts: { refreshStale?: boolean; onMiss?: () => Promise<Stored<T> | null> } = {},
): Promise<Stored<T> | null> {
  await upstream.settled?.(key);
  const stored = await read(key);
  if (stored !== null) {
    if (stored.fetchedAt?.getTime() === SEEDED_AT.getTime() && ctx.readThrough && upstream.claim) {
      const fresh = await replaceSeeded(ctx, upstream, key, read);
      if (fresh !== null) return fresh;
    }
    if (opts.refreshStale && stored.fetchedAt && upstream.refresh) upstream.refresh(ctx, key, stored.fetchedAt);
    return stored;
  }
  if (!ctx.readThrough) return null;
  return upstreamFailures(upstream.label(key), async () => {
    if (opts.onMiss) return opts.onMiss();
    const storedAs = await upstream.ingest(ctx, key);
    return storedAs === null ? null : read(storedAs);
  });
}

/** A read from an upstream: its not-found is a miss (null), its failure a 502 with Retry-After, logged once per kind per minute. */
async function upstreamFailures<T>(label: string, read: () => Promise<T | null>): Promise<T | null> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof UpstreamNotFound) return null;
    if (err instanceof UpstreamError) {
      warnUpstream(label, err); // once per kind per minute, no stack trace
      throw new HttpError(502, `upstream registry failed: ${err.message}`, { headers: { 'Retry-After': '30' } });
    }
    throw err;
  }
}

/**
 * The `fetched_at` of demo data (tools/seed/insights.ts): never read from the registry, so the first read
 * that may reach the registry reads the package through (one attempt per INSIGHTS_SOURCE_RETRY_SECONDS);
 * the demo copy answers only while the registry cannot (unreachable, or it has no such package).
 */
export const SEEDED_AT = new Date(0);

async function replaceSeeded<K, T>(
  ctx: ReadContext,
  upstream: Upstream<K>,
  key: K,
  read: (key: K) => Promise<Stored<T> | null>,
): Promise<Stored<T> | null> {
  if (!(await upstream.claim!(ctx, key))) return null;
  try {
    const storedAs = await upstream.ingest(ctx, key);
    return storedAs === null ? null : read(storedAs);
  } catch (err) {
    if (!isUpstreamFailure(err)) throw err;
    warnUpstream(upstream.label(key), err);
    return null;
  }
}

export interface PackageKey {
  system: System;
  name: string;
}

/** Fetches and stores a package and its advisories: the canonical name, null when the upstream has no such package. */
export async function ingestPackage(
  env: Record<string, unknown>,
  db: Db,
  system: System,
  name: string,
  deferAnswers?: (work: Promise<unknown>) => void,
): Promise<string | null> {
  const pkg = await fetchIngested(env, db, system, name);
  if (pkg === null) return null;
  await storeIngested(env, db, pkg, deferAnswers);
  return pkg.name;
}

/** A package from its registry; null when the registry has no such package. */
export async function fetchIngested(
  env: Record<string, unknown>,
  db: Db,
  system: System,
  name: string,
): Promise<IngestedPackage | null> {
  try {
    return await fetchPackage(env, system, name);
  } catch (err) {
    // a registry answering 403 for a name (npm does for names it cannot hold) does not have it either
    if (err instanceof UpstreamNotFound || (err instanceof UpstreamError && err.status === 403)) return null;
    // recorded, so that answers of a stored copy say how old it is (read-status.ts)
    if (isUpstreamFailure(err)) await markRead(db, 'registry', system, name, failureOf(err));
    throw err;
  }
}

/**
 * Stores a fetched package, its OSV records (fetched while its rows are stored; the outcome is recorded,
 * advisory-reads.ts) and then its stored answers, which `deferAnswers` takes instead of awaiting them.
 */
export async function storeIngested(
  env: Record<string, unknown>,
  db: Db,
  pkg: IngestedPackage,
  deferAnswers?: (work: Promise<unknown>) => void,
  records: Promise<Osv[]> = fetchOsvForPackage(env, pkg.system, pkg.name),
): Promise<void> {
  records.catch(() => {}); // a failure is handled by readAdvisories (or the store failed first)
  await storePackageRows(db, pkg);
  await markRead(db, 'registry', pkg.system, pkg.name, null);
  if (pkg.versions.some((v) => v.attestations.length > 0))
    await queueAttestationChecks(env as Env, pkg.system, pkg.name);
  await readAdvisories(env, db, pkg.system, pkg.name, records);
  // the stored answers: after the advisories (which rewrite some), and after the answer when deferred
  if (deferAnswers) deferAnswers(writePackageAnswersLater(db, pkg.system, pkg.name));
  else await writePackageAnswers(db, pkg.system, pkg.name);
}

/**
 * Fetches and stores a package, shared with every read of it in this isolate meanwhile (stores-in-flight.ts):
 * the rows are awaited by whoever needs them, the rest (stored answers, npm's other versions' reads) is the
 * starting request's deferred work.
 */
export function ingestShared(ctx: ReadContext, system: System, name: string): Promise<Flight<IngestedPackage>> {
  const env = ctx.env as unknown as Record<string, unknown>;
  const start = async (): Promise<Flight<IngestedPackage>> => {
    // the OSV records are asked for beside the package: a first read that shows them waits for neither in turn
    const early = fetchOsvForPackage(env, system, name);
    early.catch(() => {}); // a failure is recorded by the store (readAdvisories), or the package does not exist
    const pkg = await fetchIngested(env, ctx.db, system, name);
    if (pkg === null) return { pkg, rows: Promise.resolve() };
    const records = pkg.name === name ? early : fetchOsvForPackage(env, system, pkg.name);
    const advisories: AdvisoryRead = {};
    records.then(
      (r) => {
        advisories.records = r;
      },
      () => {
        advisories.failed = true;
      },
    );
    let answers: Promise<unknown> = Promise.resolve();
    const rows = storeIngested(
      env,
      ctx.db,
      pkg,
      (w) => {
        answers = w;
      },
      records,
    );
    const done = rows.then(async () => {
      await answers;
      if (system === 'NPM') await queueNpmPending(ctx.env, [pkg.name]); // other versions' reads
    });
    rows.catch(() => {}); // awaited by the readers
    ctx.defer(done.catch(() => {})); // a failed store is the readers' error (or logged by a first read)
    return { pkg, rows, advisories };
  };
  return sharedFlight(system, name, start, (p) => p.name);
}

/** A package of a registry (and the OSV records that name it). */
export const packages: Upstream<PackageKey> = {
  label: (key) => key.system,
  settled: (key) => storeInFlight(key.system, key.name),
  claim: (ctx, key) =>
    claimAttempt(ctx.db, 'registry', key.system, key.name, insightsConfig(ctx.env).INSIGHTS_SOURCE_RETRY_SECONDS),
  async ingest(ctx, key) {
    const flight = await ingestShared(ctx, key.system, key.name);
    if (flight.pkg === null) return null;
    await flight.rows; // the answer is read from them; the stored answers follow
    return { system: key.system, name: flight.pkg.name };
  },
  refresh(ctx, { system, name }, fetchedAt) {
    if (!(Date.now() - fetchedAt.getTime() > ctx.refreshAfterSeconds * 1000)) return;
    const hour = Math.floor(Date.now() / 3_600_000);
    const deduplicationId = `insights-refresh-${system}-${encodeURIComponent(name)}-${hour}`;
    ctx.defer(
      publish(ctx.env, { path: '/insights/refresh', body: { system, name }, deduplicationId }).catch((err) =>
        warnLimited('insights: queue publish failed', `refresh of ${system} ${name}: ${(err as Error).message}`),
      ),
    );
  },
};

/** One OSV record, by id. */
export const advisories: Upstream<string> = {
  label: () => 'OSV',
  async ingest(ctx, id) {
    await storeAdvisories(ctx.db, [await fetchOsv(ctx.env, id)]);
    return id;
  },
};

/**
 * Fetches and stores a project, recording both reads (source_reads `project` and `scorecard`): a failing
 * host API throws (the stored copy, if any, stays as it was), a failing Scorecard keeps the stored one.
 */
async function ingestProject(ctx: ReadContext, id: string): Promise<void> {
  let p: Awaited<ReturnType<typeof fetchProject>>;
  try {
    p = await fetchProject(ctx.env, id);
  } catch (err) {
    if (err instanceof UpstreamError) await markRead(ctx.db, 'project', PROJECT_SYSTEM, id, failureOf(err));
    throw err;
  }
  await storeProject(ctx.db, p);
  await markRead(ctx.db, 'project', PROJECT_SYSTEM, p.id, null);
  await markRead(ctx.db, 'scorecard', PROJECT_SYSTEM, p.id, p.scorecardError ?? null);
}

/** A stored project read again in the background (read-status.ts): a failure is logged and recorded only. */
export async function readProject(ctx: ReadContext, id: string): Promise<void> {
  try {
    await ingestProject(ctx, id);
  } catch (err) {
    if (!isUpstreamFailure(err)) throw err;
    warnUpstream(id.split('/')[0]!, err);
  }
}

/** One source repository (`<host>/<owner>/<repo>`), from its host's API and Scorecard. */
export const projects: Upstream<string> = {
  label: (id) => id.split('/')[0]!,
  async ingest(ctx, id) {
    await ingestProject(ctx, id);
    return id;
  },
};

/** A read that answers `value` when the store has it at all: non-null is stored, null is a miss. */
export function storedIf<T>(value: T | null): Stored<T> | null {
  return value === null ? null : { value };
}

/** A queries.ts `Found` as a stored read: a miss when its package was never ingested. */
export function storedFound(found: { body: string | null; fetched: Date | null }): Stored<string | null> | null {
  return found.fetched === null ? null : { value: found.body, fetchedAt: found.fetched };
}
