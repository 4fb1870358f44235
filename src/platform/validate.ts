/**
 * The one validation wrapper: zod through @hono/zod-validator, with failures thrown as
 * `ValidationError` so each app's onError renders them in its own dialect (400, or 422 for the
 * pipeline's FastAPI dialect), each issue in words (validation-text.ts). A JSON body sent under another
 * content type is a 415 naming the one expected, not a list of fields it seems to lack. Handlers read
 * the parsed value with `c.req.valid(target)`.
 */
import { zValidator } from '@hono/zod-validator';
import type { Context, ValidationTargets } from 'hono';
import type { ZodType } from 'zod';
import { HttpError, ValidationError, type ValidationIssue } from './errors.ts';
import { issueText } from './validation-text.ts';

const JSON_MEDIA = /^application\/([\w.-]+\+)?json$/i;

function issuesOf(
  error: { issues: readonly import('zod').core.$ZodIssue[] },
  raw: unknown,
  location: string,
): ValidationIssue[] {
  return error.issues.map((i) => {
    const { text, code } = issueText(i, raw);
    return { path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)), message: text, code, location };
  });
}

/**
 * A JSON target whose request is not JSON: another media type is refused outright; no content type is
 * refused only when the schema needed a body (an endpoint whose body is optional takes none).
 */
function unsupportedMedia(c: Context, failed: boolean): HttpError | undefined {
  const media = (c.req.header('content-type') ?? '').split(';')[0]!.trim();
  if (JSON_MEDIA.test(media) || (media === '' && !failed)) return undefined;
  return new HttpError(
    415,
    media === ''
      ? 'the request body must be JSON: send it with `content-type: application/json`'
      : 'unsupported content type: the request body must be JSON (`content-type: application/json`)',
  );
}

export function validate<Target extends keyof ValidationTargets, Schema extends ZodType>(
  target: Target,
  schema: Schema,
) {
  return zValidator(target, schema, (result, c) => {
    if (target === 'json') {
      const refused = unsupportedMedia(c, !result.success);
      if (refused) throw refused;
    }
    if (!result.success) throw new ValidationError(issuesOf(result.error, result.data, target));
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
  throw new ValidationError(issuesOf(result.error, value, location));
}
