/**
 * The marketplace's pages, mounted after the API by routes.ts: the session (a cookie) is read and every
 * POST's CSRF token checked for page paths only (never under /api/, where bearer tokens rule and
 * cookies are ignored). A refusal that reaches here is a page in the service's look with the API's
 * status (400/401/403/404/409/429), never a 500; anything unexpected is logged and a plain 500 page.
 */
import { Hono, type MiddlewareHandler } from 'hono';
import { served } from '../../platform/allowed-methods.ts';
import type { AppEnv } from '../../platform/env.ts';
import { HttpError } from '../../platform/errors.ts';
import { assetRoutes } from './assets.ts';
import { h, render } from './html.ts';
import { accountPages } from './routes-account.ts';
import { browsePages } from './routes-browse.ts';
import { staffPages } from './routes-staff.ts';
import { studentPages } from './routes-student.ts';
import { checkCsrf, sessionUser } from './session.ts';

const isPagePath = (path: string) => !path.startsWith('/api/') && !path.startsWith('/assets/') && path !== '/healthz';

const pageSession: MiddlewareHandler<AppEnv> = async (c, next) => {
  // a path no page serves under this method is the app's 404 (or 405), not a CSRF refusal
  if (!isPagePath(c.req.path) || !served(pageRoutes, c.req.method === 'HEAD' ? 'GET' : c.req.method, c.req.path))
    return next();
  await sessionUser(c, async () => {
    await checkCsrf(c, next);
  });
};

export const pageRoutes: Hono<AppEnv> = new Hono<AppEnv>();
pageRoutes.use('*', pageSession);
pageRoutes.route('/', assetRoutes);
pageRoutes.route('/', browsePages);
pageRoutes.route('/', accountPages);
pageRoutes.route('/', studentPages);
pageRoutes.route('/', staffPages);

pageRoutes.onError(async (err, c) => {
  if (err instanceof HttpError) {
    for (const [k, v] of Object.entries(err.headers ?? {})) c.header(k, v);
    return render(
      c,
      {
        title: err.status === 403 ? 'Not allowed' : 'Something is not right',
        status: err.status,
        notice: { kind: 'error', text: err.message },
      },
      h('p', null, h('a', { href: '/' }, 'Back to the books')),
    );
  }
  console.error('marketplace pages:', err);
  return render(c, { title: 'Something went wrong', status: 500 }, h('p', null, 'Please try again in a moment.'));
});
