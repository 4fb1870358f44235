/**
 * The queue message that has a package's stored attestations verified off the request path
 * (`/insights/attestations {system, name}`, handled by attestation-checks.ts on the delivery function).
 * Kept apart from the verifier so that the insights function, which only queues, does not carry it.
 */
import type { Env } from '../platform/env.ts';
import { warnLimited } from '../platform/log-limit.ts';
import { publish } from '../platform/queue.ts';

/**
 * Queues the checks of a package's attestations (never throws: a lost message is queued by the next store).
 * Not deduplicated: a message sent while another is being handled may find documents that one did not,
 * and a message that finds nothing unchecked costs one query.
 */
export async function queueAttestationChecks(env: Env, system: string, name: string): Promise<void> {
  try {
    await publish(env, { path: '/insights/attestations', body: { system, name } });
  } catch (err) {
    warnLimited('insights: queue publish failed', `attestation checks of ${system} ${name}: ${(err as Error).message}`);
  }
}
