/** Insights API routers (deps.dev v3). Mounted by functions/insights.ts. */
import { Hono } from 'hono';
import type { AppEnv } from '../platform/env.ts';

export const insightsRoutes = new Hono<AppEnv>();
