/** Pipeline admin routers (/api/v1/...), pages and feed. Mounted by functions/pipeline.ts. */
import { Hono } from 'hono';
import type { AppEnv } from '../platform/env.ts';

export const pipelineRoutes = new Hono<AppEnv>();
