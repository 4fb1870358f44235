/** The `marketplace` worker: textbook marketplace API, plus its scheduled unlisting job. */
import { createApp } from '../src/platform/app.ts';
import type { Env, ExecutionContextLike } from '../src/platform/env.ts';
import { healthRoutes } from '../src/platform/health.ts';
import { marketplaceRoutes } from '../src/marketplace/routes.ts';

export const app = createApp('marketplace');
app.route('/', healthRoutes('marketplace'));
app.route('/', marketplaceRoutes);

export default {
  fetch: app.fetch,
  async scheduled(_event: { cron: string; scheduledTime: number }, _env: Env, _ctx: ExecutionContextLike): Promise<void> {},
};
