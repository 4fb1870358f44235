/** The `pipeline` worker: insight-pipeline admin API, report pages, RSS feed, and the webhook resource. */
import { createApp } from '../src/platform/app.ts';
import { healthRoutes } from '../src/platform/health.ts';
import { pipelineRoutes } from '../src/pipeline/routes.ts';
import { webhookRoutes } from '../src/webhooks/routes.ts';

export const app = createApp('pipeline');
app.route('/', healthRoutes('pipeline'));
app.route('/', webhookRoutes);
app.route('/', pipelineRoutes);

export default { fetch: app.fetch };
