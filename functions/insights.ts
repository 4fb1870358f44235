/** The `insights` worker: deps.dev v3-compatible read API. */
import { createApp } from '../src/platform/app.ts';
import { insightsFunctionConfig } from '../src/insights/config.ts';
import { healthRoutes } from '../src/platform/health.ts';
import { insightsRoutes } from '../src/insights/routes.ts';
import { indexRoutes } from '../src/insights/routes-index.ts';

export const app = createApp('insights', {}, insightsFunctionConfig);
app.route('/', healthRoutes('insights'));
app.route('/', insightsRoutes);
app.route('/', indexRoutes);

export default { fetch: app.fetch };
