/** The `marketplace` worker: textbook marketplace API, plus its scheduled unlisting job. */
import { createApp } from '../src/platform/app.ts';
import type { Env, ExecutionContextLike } from '../src/platform/env.ts';
import { healthRoutes } from '../src/platform/health.ts';
import { marketplaceRoutes } from '../src/marketplace/routes.ts';
import { runScheduledUnlisting } from '../src/marketplace/scheduled.ts';

export const app = createApp('marketplace');
app.route('/', healthRoutes('marketplace'));
app.route('/', marketplaceRoutes);

export default {
  fetch: app.fetch,
  async scheduled(_event: { cron: string; scheduledTime: number }, env: Env, ctx: ExecutionContextLike): Promise<void> {
    ctx.waitUntil(runScheduledUnlisting(env));
  },
};
