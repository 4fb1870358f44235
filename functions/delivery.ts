/**
 * The `delivery` worker: queue callbacks only. Every route is behind `verifyQstash` (401 for a bad,
 * missing, expired or re-targeted signature) and must be idempotent (QStash delivers at least once).
 */
import { createApp } from '../src/platform/app.ts';
import { healthRoutes } from '../src/platform/health.ts';
import { platformDelivery } from '../src/platform/delivery-routes.ts';
import { verifyQstash } from '../src/platform/queue.ts';
import { insightsDelivery } from '../src/insights/delivery.ts';
import { marketplaceDelivery } from '../src/marketplace/delivery.ts';
import { pipelineDelivery } from '../src/pipeline/delivery.ts';
import { webhooksDelivery } from '../src/webhooks/delivery.ts';

export const app = createApp('pipeline');
app.route('/', healthRoutes('delivery'));
app.use('*', async (c, next) => (c.req.path === '/healthz' ? next() : verifyQstash(c, next)));
app.route('/', platformDelivery);
app.route('/insights', insightsDelivery);
app.route('/marketplace', marketplaceDelivery);
app.route('/pipeline', pipelineDelivery);
app.route('/webhooks', webhooksDelivery);

export default { fetch: app.fetch };
