/**
 * The marketplace's response envelope `{data, time, method}` (errors: `data.error`, rendered by the
 * platform's marketplace dialect) and the body reader: the original's client wraps every body as
 * `{data: {...}}` (requestBook even as `{data: {payload: {...}}}`), other clients send it bare; both
 * are accepted and validated by the same schema.
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import * as z from 'zod';
import type { ZodType } from 'zod';
import { validate } from '../platform/validate.ts';

export function ok(c: Context, data: unknown, status: ContentfulStatusCode = 200): Response {
  return c.json({ data, time: new Date().toISOString(), method: `${c.req.method} ${c.req.path}` }, status);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `{data: X}` -> X, `{data: {payload: X}}` -> X, anything else unchanged. */
export function unwrapBody(body: unknown): unknown {
  let b = body;
  if (isObject(b) && Object.keys(b).length === 1 && isObject(b.data)) b = b.data;
  if (isObject(b) && Object.keys(b).length === 1 && isObject(b.payload)) b = b.payload;
  return b;
}

/** `validate('json', ...)` over the unwrapped body. */
export function body<S extends ZodType>(schema: S) {
  return validate('json', z.preprocess(unwrapBody, schema) as unknown as S);
}
