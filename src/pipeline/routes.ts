/**
 * Pipeline routers, mounted by functions/pipeline.ts at '/': the admin API under /api/v1 (behind the
 * admin token, except the public feed), the public report pages, and the API root.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../platform/env.ts';
import { requireAdmin } from './admin-auth.ts';
import { destinationRoutes } from './routes-destinations.ts';
import { feedRoutes } from './routes-feed.ts';
import { monitorRoutes } from './routes-monitors.ts';
import { pageRoutes } from './routes-pages.ts';
import { providerRoutes } from './routes-providers.ts';
import { reportRoutes } from './routes-reports.ts';
import { sourceRoutes } from './routes-sources.ts';
import { taskRoutes } from './routes-tasks.ts';

export const pipelineRoutes = new Hono<AppEnv>();

pipelineRoutes.use('/api/v1/*', requireAdmin);
pipelineRoutes.route('/api/v1', feedRoutes);
pipelineRoutes.route('/api/v1/sources', sourceRoutes);
pipelineRoutes.route('/api/v1/reports', reportRoutes);
pipelineRoutes.route('/api/v1/destinations', destinationRoutes);
pipelineRoutes.route('/api/v1/providers', providerRoutes);
pipelineRoutes.route('/api/v1/tasks', taskRoutes);
pipelineRoutes.route('/api/v1/monitors', monitorRoutes);
pipelineRoutes.route('/', pageRoutes);
