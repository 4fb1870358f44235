/** Queue callbacks of the marketplace service, mounted by functions/delivery.ts under /marketplace (behind verifyQstash). */
import { Hono } from 'hono';
import type { AppEnv } from '../platform/env.ts';

export const marketplaceJobs = new Hono<AppEnv>();
