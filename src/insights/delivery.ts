/** Queue callbacks of the insights service, mounted by functions/delivery.ts under /insights (behind verifyQstash). */
import { Hono } from 'hono';
import type { AppEnv } from '../platform/env.ts';

export const insightsDelivery = new Hono<AppEnv>();
