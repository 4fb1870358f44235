/**
 * Marketplace routers (/api/auth, /api/books, /api/user, /api/dashboard), then the web pages (pages/routes.ts).
 * Mounted by functions/marketplace.ts.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../platform/env.ts';
import { pageRoutes } from './pages/routes.ts';
import { authRoutes } from './routes-auth.ts';
import { booksRoutes } from './routes-books.ts';
import { dashboardRoutes } from './routes-dashboard.ts';
import { userRoutes } from './routes-user.ts';

export const marketplaceRoutes = new Hono<AppEnv>();
marketplaceRoutes.route('/api/auth', authRoutes);
marketplaceRoutes.route('/api/books', booksRoutes);
marketplaceRoutes.route('/api/user', userRoutes);
marketplaceRoutes.route('/api/dashboard', dashboardRoutes);
marketplaceRoutes.route('/', pageRoutes);
