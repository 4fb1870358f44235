/**
 * Queue messages of the graph read-through: `/insights/dependencies {system, name, version, round}`
 * finishes a graph that one invocation could not (each round stores what it fetched, so the next
 * starts further on; at most MAX_ROUNDS), and `/insights/advisories {system, names}` fetches the OSV
 * records of packages the read-through stored without them. Deduplicated per root, round and minute,
 * so a client polling a 503 does not multiply the work.
 */
import type { Env } from '../platform/env.ts';
import { warnLimited } from '../platform/log-limit.ts';
import { publish } from '../platform/queue.ts';
import type { GraphKey } from './graph-build.ts';

export const RETRY_AFTER_SECONDS = 5;
export const MAX_ROUNDS = 50;
const ADVISORY_BATCH = 100;

function dedup(parts: string[]): string {
  return parts.map((p) => encodeURIComponent(p)).join('-');
}

export async function queueGraphCompletion(env: Env, key: GraphKey, round: number): Promise<void> {
  if (round > MAX_ROUNDS) {
    console.warn(
      `insights: graph of ${key.system} ${key.name}@${key.version} still incomplete after ${MAX_ROUNDS} rounds`,
    );
    return;
  }
  const minute = Math.floor(Date.now() / 60_000);
  try {
    await publish(env, {
      path: '/insights/dependencies',
      body: { ...key, round },
      deduplicationId: dedup(['insights-graph', key.system, key.name, key.version, `r${round}`, String(minute)]),
    });
  } catch (err) {
    // the next request for the graph does the work again; nothing was cached
    warnLimited(
      'insights: queue publish failed',
      `completion of ${key.system} ${key.name}@${key.version}: ${(err as Error).message}`,
    );
  }
}

export async function queueAdvisories(env: Env, system: string, names: readonly string[]): Promise<void> {
  for (let i = 0; i < names.length; i += ADVISORY_BATCH) {
    const batch = names.slice(i, i + ADVISORY_BATCH);
    try {
      await publish(env, { path: '/insights/advisories', body: { system, names: batch } });
    } catch (err) {
      warnLimited(
        'insights: queue publish failed',
        `advisories of ${batch.length} ${system} packages: ${(err as Error).message}`,
      );
    }
  }
}
