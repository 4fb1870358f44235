/**
 * The one validation wrapper: zod through @hono/zod-validator, with failures thrown as
 * `ValidationError` so each app's onError renders them in its own dialect (400, or 422 for the
 * pipeline's FastAPI dialect). Handlers read the parsed value with `c.req.valid(target)`.
 */
import { zValidator } from '@hono/zod-validator';
import type { ValidationTargets } from 'hono';
import type { ZodType } from 'zod';
import { ValidationError, type ValidationIssue } from './errors.ts';

export function validate<Target extends keyof ValidationTargets, Schema extends ZodType>(
  target: Target,
  schema: Schema,
) {
  return zValidator(target, schema, (result) => {
    if (!result.success) {
      const issues: ValidationIssue[] = result.error.issues.map((i) => ({
        path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
        message: i.message,
        code: i.code,
        location: target,
      }));
      throw new ValidationError(issues);
    }
  });
}

/** Parses a value outside a route (queue payloads, stored JSON) with the same error type. */
export function parseWith<Schema extends ZodType>(
  schema: Schema,
  value: unknown,
  location = 'body',
): import('zod').output<Schema> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new ValidationError(
    result.error.issues.map((i) => ({
      path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
      message: i.message,
      code: i.code,
      location,
    })),
  );
}
