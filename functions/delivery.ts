/**
 * The `delivery` worker: queue callbacks only. Every route is behind `verifyQstash` (401 for a bad,
 * missing, expired or re-targeted signature) and must be idempotent (QStash delivers at least once).
 */
import { createApp } from '../src/platform/app.ts';
import { config } from './config.ts';
import { healthRoutes } from '../src/platform/health.ts';
import { platformJobs } from '../src/platform/jobs.ts';
import { verifyQstash } from '../src/platform/queue.ts';
import { insightsJobs } from '../src/insights/jobs.ts';
import { marketplaceJobs } from '../src/marketplace/jobs.ts';
import { pipelineJobs } from '../src/pipeline/jobs.ts';
import { webhooksJobs } from '../src/webhooks/jobs.ts';
import { sweepWebhooks } from '../src/webhooks/deliver.ts';
import { refreshTrustScheduled } from '../src/insights/attestations/trust-scheduled.ts';
import './event-catalog.ts';
import type { Env, ExecutionContextLike } from '../src/platform/env.ts';

export const app = createApp('pipeline', {}, config.delivery);
app.route('/', healthRoutes('delivery'));
app.use('*', async (c, next) => (c.req.path === '/healthz' ? next() : verifyQstash(c, next)));
app.route('/', platformJobs);
app.route('/insights', insightsJobs);
app.route('/marketplace', marketplaceJobs);
app.route('/pipeline', pipelineJobs);
app.route('/webhooks', webhooksJobs);

export default {
  fetch: app.fetch,
  /**
   * Every minute: drain webhook events a lost notification left in the outbox, restart stalled
   * deliveries, prune delivered rows past retention; once a day (INSIGHTS_TRUST_REFRESH_SECONDS), refresh
   * the Sigstore trust data attestations are verified against from Sigstore's TUF repository.
   */
  async scheduled(_event: { cron: string }, env: Env, ctx: ExecutionContextLike): Promise<void> {
    config.delivery(env); // a misconfigured function fails here, naming the variable
    ctx.waitUntil(refreshTrustScheduled(env).catch((err) => console.error('insights: sigstore trust refresh', err)));
    ctx.waitUntil(
      sweepWebhooks(env).then((r) => {
        if (r.drained || r.restarted)
          console.log(`webhook sweep: ${r.drained} events fanned out, ${r.restarted} deliveries restarted`);
        const p = r.pruned;
        if (p.queue || p.logs || p.outbox || p.replays)
          console.log(
            `webhook retention: pruned ${p.queue} queue rows, ${p.logs} logs, ${p.outbox} outbox events, ${p.replays} replays`,
          );
      }),
    );
  },
};
