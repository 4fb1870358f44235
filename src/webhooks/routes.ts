/** Webhook resource routers (/rest/v2/webhook/...). Mounted by functions/pipeline.ts. */
import { Hono } from 'hono';
import type { AppEnv } from '../platform/env.ts';

export const webhookRoutes = new Hono<AppEnv>();
