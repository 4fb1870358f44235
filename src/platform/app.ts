/**
 * `createApp(dialect)`: a Hono app typed with the shared bindings, a per-request database handle
 * (closed through waitUntil once the response is ready), and the dialect's onError / notFound.
 * Every function builds its app with this and mounts its routers with `app.route()`.
 */
import { Hono, type MiddlewareHandler } from 'hono';
import { createDb } from './db.ts';
import type { AppEnv } from './env.ts';
import { errorHandler, notFoundHandler, type Dialect } from './errors.ts';

export const dbMiddleware: MiddlewareHandler<AppEnv> = async (c, next) => {
  const db = createDb(c.env);
  c.set('db', db);
  try {
    await next();
  } finally {
    let ctx: { waitUntil(p: Promise<unknown>): void } | undefined;
    try {
      ctx = c.executionCtx;
    } catch {
      ctx = undefined; // app.request() in tests gives no execution context
    }
    if (ctx) ctx.waitUntil(db.close());
    else await db.close();
  }
};

export function createApp(dialect: Dialect): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', dbMiddleware);
  app.onError(errorHandler(dialect));
  app.notFound(notFoundHandler(dialect));
  return app;
}
