/**
 * Insights API routers (deps.dev v3 + two v3alpha additions), mounted by functions/insights.ts at '/'.
 * One router per endpoint group: packages/versions, projects, advisories, query, v3alpha extras.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../platform/env.ts';
import { advisoryRoutes } from './routes-advisories.ts';
import { alphaRoutes } from './routes-alpha.ts';
import { packageRoutes } from './routes-packages.ts';
import { projectRoutes } from './routes-projects.ts';
import { queryRoutes } from './routes-query.ts';

export const insightsRoutes = new Hono<AppEnv>();
insightsRoutes.route('/', alphaRoutes);
insightsRoutes.route('/', packageRoutes);
insightsRoutes.route('/', projectRoutes);
insightsRoutes.route('/', advisoryRoutes);
insightsRoutes.route('/', queryRoutes);
