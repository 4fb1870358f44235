/**
 * A 405 with `Allow` where a request names a path that exists under other methods (RFC 9110 §15.5.6),
 * answered before any other middleware (authentication, the database) runs: that the path exists is
 * public (the API is documented), and a caller who used the wrong method learns that, not that a
 * token is missing. Read from the app's own router, so it is always the routes the app really has: a
 * route counts when it was registered for a method (`app.get`, `app.post`, ...), never middleware
 * (`app.use`, registered for every method). `HEAD` is allowed wherever `GET` is.
 */
import type { Hono, MiddlewareHandler } from 'hono';
import type { AppEnv } from './env.ts';
import { renderError, type Dialect } from './errors.ts';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

type RouterMatch = [[[unknown, { method: string }], unknown][], ...unknown[]];

/** Whether `app` has a route (not middleware) for `method` on `path`. */
export function served(app: Hono<AppEnv>, method: string, path: string): boolean {
  const [matches] = app.router.match(method, path) as unknown as RouterMatch;
  return matches.some(([[, route]]) => route.method !== 'ALL');
}

export function allowedMethods(app: Hono<AppEnv>, path: string): string[] {
  const allowed: string[] = METHODS.filter((m) => served(app, m, path));
  if (allowed.includes('GET')) allowed.splice(1, 0, 'HEAD');
  return allowed;
}

export function methodGuard(app: Hono<AppEnv>, dialectFor: (path: string) => Dialect): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const method = c.req.method === 'HEAD' ? 'GET' : c.req.method;
    if (method === 'OPTIONS' || served(app, method, c.req.path)) return next();
    const allow = allowedMethods(app, c.req.path);
    if (!allow.length) return next(); // no such path: the app's 404
    c.header('Allow', allow.join(', '));
    const dialect = dialectFor(c.req.path);
    // FastAPI's own words in the pipeline dialect; the others say what would work
    const text =
      dialect === 'pipeline'
        ? 'Method Not Allowed'
        : `method ${c.req.method} is not allowed here: use ${allow.join(', ')}`;
    return renderError(dialect, c, 405, text);
  };
}
