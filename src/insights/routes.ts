/**
 * Insights API routers (deps.dev v3 + the v3alpha methods), mounted by functions/insights.ts at '/'.
 * One router per endpoint group: packages/versions, projects, advisories, query, v3alpha single-item methods,
 * v3alpha batches, findings, and the generated OpenAPI document (`GET /openapi.json`).
 */
import { Hono } from 'hono';
import { etag } from 'hono/etag';
import type { AppEnv } from '../platform/env.ts';
import { advisoryRoutes } from './routes-advisories.ts';
import { alphaRoutes } from './routes-alpha.ts';
import { batchRoutes } from './routes-batch.ts';
import { findingsRoutes } from './routes-findings.ts';
import { openApiRoutes } from './routes-openapi.ts';
import { packageRoutes } from './routes-packages.ts';
import { projectRoutes } from './routes-projects.ts';
import { queryRoutes } from './routes-query.ts';

export const insightsRoutes = new Hono<AppEnv>();
/** Every 200 of a GET carries a strong `ETag` (SHA-1 of the body); `If-None-Match` matching it answers 304. */
insightsRoutes.use('*', etag());
insightsRoutes.route('/', alphaRoutes);
insightsRoutes.route('/', batchRoutes);
insightsRoutes.route('/', findingsRoutes);
insightsRoutes.route('/', packageRoutes);
insightsRoutes.route('/', projectRoutes);
insightsRoutes.route('/', advisoryRoutes);
insightsRoutes.route('/', queryRoutes);
insightsRoutes.route('/', openApiRoutes);
