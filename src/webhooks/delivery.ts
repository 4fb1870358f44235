/** Queue callbacks of the webhooks service, mounted by functions/delivery.ts under /webhooks (behind verifyQstash). */
import { Hono } from 'hono';
import type { AppEnv } from '../platform/env.ts';

export const webhooksDelivery = new Hono<AppEnv>();
