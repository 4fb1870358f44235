/**
 * The marketplace's response envelope `{data, time, method}` (errors: `data.error`, rendered by the
 * platform's marketplace dialect). The body reader, its input side, is in schemas.ts.
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

export function ok(c: Context, data: unknown, status: ContentfulStatusCode = 200): Response {
  return c.json({ data, time: new Date().toISOString(), method: `${c.req.method} ${c.req.path}` }, status);
}
