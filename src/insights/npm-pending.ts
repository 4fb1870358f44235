/**
 * The npm reads left pending at ingestion (ingest/npm-pending.ts): an answer that shows them reads its
 * own version's (GetRequirements: the tarball's bundled manifests; GetVersion: the attestations
 * document), stores them and is answered from the store; a failure is that answer's error (502 naming
 * the version and the cause), never an empty list. Every other pending version of the package is read
 * in the background: `/insights/npm-pending {names, before}` on the delivery function takes
 * NPM_PENDING_BATCH versions of each package per message, newest first, and queues the rest of a package
 * as a message of its own; a version whose read
 * fails is logged and stays pending (its own answer tries again and says why).
 */
import type { Db } from '../platform/db.ts';
import type { Env } from '../platform/env.ts';
import { HttpError } from '../platform/errors.ts';
import { publish } from '../platform/queue.ts';
import { queueAttestationChecks } from './attestation-queue.ts';
import { mapLimit } from './ingest/http.ts';
import { readAttestations, readBundled } from './ingest/npm-pending.ts';
import type { ReadAttestations } from './ingest/attestations.ts';
import { failureOf, warnUpstream } from './ingest/upstream-log.ts';
import { claimAttempt, markRead } from './queries-source-reads.ts';
import { insightsConfig } from './config.ts';
import { UpstreamError, UpstreamNotFound } from './ingest/types.ts';
import {
  npmPendingOf,
  npmPendingVersions,
  storeNpmAttestations,
  storeNpmBundled,
  type NpmPendingVersion,
} from './queries-npm-pending.ts';

export const NPM_PENDING_BATCH = 32;

export type NpmRead = 'tarball' | 'attestations';

/** Reads and stores one pending read; true when it stored attestations (which are then to be verified). */
async function readOne(env: Env, db: Db, name: string, p: NpmPendingVersion, what: NpmRead): Promise<boolean> {
  if (what === 'tarball' && p.tarball) await storeNpmBundled(db, name, p.version, await readBundled(env, p.tarball));
  if (what !== 'attestations' || !p.attestations) return false;
  const read = await readAttestations(env, p.attestations);
  await storeNpmAttestations(db, name, p.version, read);
  return read.attestations.length > 0;
}

function upstreamFailure(err: unknown): err is UpstreamError | UpstreamNotFound {
  return err instanceof UpstreamError || err instanceof UpstreamNotFound;
}

/**
 * Reads and stores one version's pending `what` before its answer is read. A tarball that cannot be read
 * is a 502; attestations that cannot be read are recorded (source_reads) and the answer says so in its
 * Warning header (read-status.ts), one attempt per INSIGHTS_SOURCE_RETRY_SECONDS.
 */
export async function completeNpmVersion(env: Env, db: Db, name: string, version: string, what: NpmRead) {
  const p = await npmPendingOf(db, name, version);
  if (!p) return;
  const attestations = what === 'attestations' && p.attestations;
  if (attestations && !(await claimAttempt(db, 'attestations', 'NPM', name, retrySeconds(env), p.version))) return;
  const tarball = what === 'tarball' && p.tarball;
  try {
    if (await readOne(env, db, name, p, what)) await queueAttestationChecks(env, 'NPM', name); // verified off the request path
  } catch (err) {
    if (!upstreamFailure(err)) throw err;
    if (tarball) await markRead(db, 'tarball', 'NPM', name, failureOf(err as Error), p.version);
    if (attestations) {
      warnUpstream('npm attestations', err as Error, `npm ${name}@${version}`);
      return markRead(db, 'attestations', 'NPM', name, failureOf(err as Error), p.version);
    }
    throw new HttpError(
      502,
      `the bundled manifests (tarball) of npm ${name}@${version} could not be read: ${(err as Error).message}`,
    );
  }
  if (attestations || tarball) await markRead(db, what, 'NPM', name, null, p.version);
}

/**
 * Stores the attestations a first read read for its answer (version-first-read.ts), once the package's rows
 * are: what completeNpmVersion stores and records after its own read.
 */
export async function keepAttestations(env: Env, db: Db, name: string, version: string, read: ReadAttestations) {
  await storeNpmAttestations(db, name, version, read);
  await markRead(db, 'attestations', 'NPM', name, null, version);
  if (read.attestations.length) await queueAttestationChecks(env, 'NPM', name); // verified off the request path
}

const retrySeconds = (env: Env) => insightsConfig(env).INSIGHTS_SOURCE_RETRY_SECONDS;

export const NPM_PENDING_TOP = 2 ** 31 - 1;
const NAMES_PER_MESSAGE = 50;

/** Queues the background read of packages' pending versions (newest first; `before` an ordinal, for one name). */
export async function queueNpmPending(env: Env, names: readonly string[], before = NPM_PENDING_TOP): Promise<void> {
  for (let i = 0; i < names.length; i += NAMES_PER_MESSAGE) {
    const batch = names.slice(i, i + NAMES_PER_MESSAGE);
    const minute = Math.floor(Date.now() / 60_000);
    try {
      await publish(env, {
        path: '/insights/npm-pending',
        body: { names: batch, before },
        ...(batch.length === 1
          ? { deduplicationId: `insights-npm-pending-${encodeURIComponent(batch[0]!)}-${before}-${minute}` }
          : {}),
      });
    } catch (err) {
      console.warn(`insights: pending reads of ${batch.length} npm packages not queued: ${(err as Error).message}`);
    }
  }
}

/** One background batch: reads NPM_PENDING_BATCH pending versions below `before`; the next `before`, or null when done. */
export async function completeNpmBatch(env: Env, db: Db, name: string, before: number): Promise<number | null> {
  const todo = await npmPendingVersions(db, name, before, NPM_PENDING_BATCH);
  let attested = false;
  await mapLimit(todo, 4, async (p) => {
    for (const what of ['tarball', 'attestations'] as const) {
      try {
        if (await readOne(env, db, name, p, what)) attested = true;
      } catch (err) {
        if (!upstreamFailure(err)) throw err;
        warnUpstream(`npm ${what}`, err as Error, `npm ${name}@${p.version}`);
        if (p[what]) await markRead(db, what, 'NPM', name, failureOf(err as Error), p.version);
        continue;
      }
      if (p[what]) await markRead(db, what, 'NPM', name, null, p.version); // when it was read (source_reads)
    }
  });
  if (attested) await queueAttestationChecks(env, 'NPM', name); // one message for the batch's documents
  return todo.length === NPM_PENDING_BATCH ? todo.at(-1)!.ordinal : null;
}
