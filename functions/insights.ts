/** The `insights` worker: deps.dev v3-compatible read API. */
import { createApp } from '../src/platform/app.ts';
import { insightsFunctionConfig } from '../src/insights/config.ts';
import { healthRoutes } from '../src/platform/health.ts';
import { insightsRoutes } from '../src/insights/routes.ts';
import { indexRoutes } from '../src/insights/routes-index.ts';
import { feedRoutes } from '../src/insights/routes-feeds.ts';
import { runFeedsScheduled } from '../src/insights/feeds/scheduled.ts';
import type { Env, ExecutionContextLike } from '../src/platform/env.ts';

export const app = createApp('insights', {}, insightsFunctionConfig);
app.route('/', healthRoutes('insights'));
app.route('/', feedRoutes);
app.route('/', insightsRoutes);
app.route('/', indexRoutes);

export default {
  fetch: app.fetch,
  /** Every minute: follow the registries' change feeds (src/insights/feeds/run.ts). */
  async scheduled(
    _event: { cron: string; scheduledTime?: number },
    env: Env,
    ctx: ExecutionContextLike,
  ): Promise<void> {
    insightsFunctionConfig(env); // a misconfigured function fails here, naming the variable
    ctx.waitUntil(runFeedsScheduled(env).then(() => undefined));
  },
};
