/**
 * Read-through and background refresh. A package the service has never stored is fetched from its
 * upstream inside the request (adapter -> store -> its OSV records), then read again; a stored
 * package older than INSIGHTS_REFRESH_AFTER_SECONDS (default 86400) is answered from the store
 * and a refresh is queued (`/insights/refresh` on the delivery function, deduplicated per package
 * and hour). INSIGHTS_READ_THROUGH=off disables the in-request fetch (unknown -> 404).
 */
import type { Context } from 'hono';
import type { Db } from '../platform/db.ts';
import type { AppEnv, Env } from '../platform/env.ts';
import { HttpError } from '../platform/errors.ts';
import { publish } from '../platform/queue.ts';
import type { System } from '../versions/index.ts';
import { fetchPackage } from './ingest/index.ts';
import { fetchOsv, fetchOsvForPackage } from './ingest/osv.ts';
import { fetchProject } from './ingest/projects.ts';
import { UpstreamError, UpstreamNotFound } from './ingest/types.ts';
import { storeAdvisories, storePackage, storeProject } from './queries-write.ts';
import { insightsConfig } from './config.ts';

export function readThroughEnabled(env: Env): boolean {
  return insightsConfig(env).INSIGHTS_READ_THROUGH;
}

/** Fetches and stores a package and its advisories; returns the canonical name, null when upstream has no such package. */
export async function ingestPackage(env: Record<string, unknown>, db: Db, system: System, name: string): Promise<string | null> {
  let pkg;
  try {
    pkg = await fetchPackage(env, system, name);
  } catch (err) {
    if (err instanceof UpstreamNotFound) return null;
    throw err;
  }
  await storePackage(db, pkg);
  try {
    await storeAdvisories(db, await fetchOsvForPackage(env, system, pkg.name));
  } catch (err) {
    if (!(err instanceof UpstreamError || err instanceof UpstreamNotFound)) throw err;
    console.warn(`insights: advisories for ${system} ${pkg.name} not refreshed: ${(err as Error).message}`);
  }
  return pkg.name;
}

function upstreamFailure(err: unknown): never {
  if (err instanceof UpstreamError) throw new HttpError(502, `upstream registry failed: ${err.message}`);
  throw err;
}

/** Read-through for a package route: null when the package does not exist upstream either. */
export async function readThroughPackage(c: Context<AppEnv>, system: System, name: string): Promise<string | null> {
  if (!readThroughEnabled(c.env)) return null;
  return ingestPackage(c.env, c.get('db'), system, name).catch(upstreamFailure);
}

export async function readThroughAdvisory(c: Context<AppEnv>, id: string): Promise<boolean> {
  if (!readThroughEnabled(c.env)) return false;
  try {
    await storeAdvisories(c.get('db'), [await fetchOsv(c.env, id)]);
    return true;
  } catch (err) {
    if (err instanceof UpstreamNotFound) return false;
    return upstreamFailure(err);
  }
}

export async function readThroughProject(c: Context<AppEnv>, id: string): Promise<boolean> {
  if (!readThroughEnabled(c.env)) return false;
  try {
    await storeProject(c.get('db'), await fetchProject(c.env, id));
    return true;
  } catch (err) {
    if (err instanceof UpstreamNotFound) return false;
    return upstreamFailure(err);
  }
}

/** Queues a background refresh when the stored copy is older than the configured age. */
export function refreshIfStale(c: Context<AppEnv>, system: System, name: string, fetched: Date | null): void {
  if (!fetched) return;
  const maxAge = insightsConfig(c.env).INSIGHTS_REFRESH_AFTER_SECONDS;
  if (!(Date.now() - fetched.getTime() > maxAge * 1000)) return;
  const hour = Math.floor(Date.now() / 3_600_000);
  const job = publish(c.env, { path: '/insights/refresh', body: { system, name }, deduplicationId: `insights-refresh-${system}-${encodeURIComponent(name)}-${hour}` })
    .catch((err) => console.warn(`insights: refresh of ${system} ${name} not queued: ${(err as Error).message}`));
  try {
    c.executionCtx.waitUntil(job);
  } catch {
    void job;
  }
}
