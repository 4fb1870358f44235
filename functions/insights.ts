/** The `insights` worker: deps.dev v3-compatible read API. */
import { createApp } from '../src/platform/app.ts';
import { config } from './config.ts';
import { healthRoutes } from '../src/platform/health.ts';
import { insightsRoutes } from '../src/insights/routes.ts';

export const app = createApp('insights', {}, config.insights);
app.route('/', healthRoutes('insights'));
app.route('/', insightsRoutes);

export default { fetch: app.fetch };
