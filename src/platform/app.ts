/**
 * `createApp(dialect)`: a Hono app typed with the shared bindings, the input guard (input-guard.ts), a
 * per-request database handle (closed through waitUntil once the response is ready), and the dialect's
 * onError / notFound.
 * Every function builds its app with this and mounts its routers with `app.route()`.
 */
import { Hono, type MiddlewareHandler } from 'hono';
import { createDb } from './db.ts';
import type { AppEnv } from './env.ts';
import { errorHandler, notFoundHandler, type Dialect } from './errors.ts';
import { inputGuard } from './input-guard.ts';

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

/** `others` names paths served in another dialect (by prefix), e.g. the webhook resource of `pipeline`. */
export function createApp(dialect: Dialect, others: Record<string, Dialect> = {}): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const dialectFor = (path: string) => Object.entries(others).find(([prefix]) => path.startsWith(prefix))?.[1] ?? dialect;
  app.use('*', inputGuard(dialectFor));
  app.use('*', dbMiddleware);
  app.onError(errorHandler(dialect));
  app.notFound(notFoundHandler(dialect));
  return app;
}
