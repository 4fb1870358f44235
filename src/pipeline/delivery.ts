/** Queue callbacks of the pipeline service, mounted by functions/delivery.ts under /pipeline (behind verifyQstash). */
import { Hono } from 'hono';
import type { AppEnv } from '../platform/env.ts';

export const pipelineDelivery = new Hono<AppEnv>();
