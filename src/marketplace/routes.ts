/** Marketplace routers (/api/auth, /api/books, /api/user, /api/dashboard). Mounted by functions/marketplace.ts. */
import { Hono } from 'hono';
import type { AppEnv } from '../platform/env.ts';

export const marketplaceRoutes = new Hono<AppEnv>();
