/** The `pipeline` worker: insight-pipeline admin API, report pages, RSS feed, and the webhook resource. */
import { createApp } from '../src/platform/app.ts';
import { pipelineFunctionConfig } from '../src/pipeline/config.ts';
import type { Env, ExecutionContextLike } from '../src/platform/env.ts';
import { healthRoutes } from '../src/platform/health.ts';
import { pipelineRoutes } from '../src/pipeline/routes.ts';
import { runScheduled } from '../src/pipeline/scheduled.ts';
import { webhookRoutes } from '../src/webhooks/routes.ts';
import './event-catalog.ts';

export const app = createApp('pipeline', { '/rest/v2/webhook': 'ultracart' }, pipelineFunctionConfig);
app.route('/', healthRoutes('pipeline'));
app.route('/', webhookRoutes);
app.route('/', pipelineRoutes);

export default {
  fetch: app.fetch,
  async scheduled(_event: { cron: string; scheduledTime: number }, env: Env, ctx: ExecutionContextLike): Promise<void> {
    pipelineFunctionConfig(env); // a misconfigured function fails here, naming the variable
    ctx.waitUntil(runScheduled(env).then(() => undefined));
  },
};
