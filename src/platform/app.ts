/**
 * `createApp(dialect)`: a Hono app typed with the shared bindings, the input guard (input-guard.ts), a
 * per-request database handle (closed through waitUntil once the response is ready), and the dialect's
 * onError / notFound (a 405 with `Allow` for a path served under other methods: allowed-methods.ts).
 * Every function builds its app with this and mounts its routers with `app.route()`.
 */
import { Hono, type MiddlewareHandler } from 'hono';
import { methodGuard } from './allowed-methods.ts';
import { ConfigError } from './config/define.ts';
import { createDb } from './db.ts';
import type { AppEnv } from './env.ts';
import { errorHandler, notFoundHandler, renderError, type Dialect } from './errors.ts';
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

/**
 * Parses the function's configuration (memoised per env object) before anything else runs: a missing or
 * malformed variable answers 503 in the dialect, naming the variable (never its value).
 */
export function configGuard(
  config: (env: object) => unknown,
  dialectFor: (path: string) => Dialect,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    try {
      config(c.env);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      console.error(`configuration: ${err.message}`);
      return renderError(dialectFor(c.req.path), c, 503, `service misconfigured: ${err.message}`);
    }
    return next();
  };
}

/**
 * `others` names paths served in another dialect (by prefix), e.g. the webhook resource of `pipeline`;
 * `config` is the function's configuration reader (functions/config.ts).
 */
export function createApp(
  dialect: Dialect,
  others: Record<string, Dialect> = {},
  config?: (env: object) => unknown,
): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const dialectFor = (path: string) =>
    Object.entries(others).find(([prefix]) => path.startsWith(prefix))?.[1] ?? dialect;
  if (config) app.use('*', configGuard(config, dialectFor));
  app.use('*', inputGuard(dialectFor));
  app.use('*', methodGuard(app, dialectFor));
  app.use('*', dbMiddleware);
  app.onError(errorHandler(dialect));
  app.notFound(notFoundHandler(dialect));
  return app;
}
