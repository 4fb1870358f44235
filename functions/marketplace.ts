/** The `marketplace` worker: textbook marketplace API, plus its scheduled unlisting job. */
import { createApp } from '../src/platform/app.ts';
import { marketplaceFunctionConfig } from '../src/marketplace/config.ts';
import type { Env, ExecutionContextLike } from '../src/platform/env.ts';
import { healthRoutes } from '../src/platform/health.ts';
import { marketplaceRoutes } from '../src/marketplace/routes.ts';
import { runScheduledUnlisting } from '../src/marketplace/scheduled.ts';

export const app = createApp('marketplace', {}, marketplaceFunctionConfig);
app.route('/', healthRoutes('marketplace'));
app.route('/', marketplaceRoutes);

export default {
  fetch: app.fetch,
  async scheduled(_event: { cron: string; scheduledTime: number }, env: Env, ctx: ExecutionContextLike): Promise<void> {
    marketplaceFunctionConfig(env); // a misconfigured function fails here, naming the variable
    ctx.waitUntil(runScheduledUnlisting(env));
  },
};
