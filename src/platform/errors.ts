/**
 * Typed errors and the four response dialects (DESIGN.md convention 4).
 *
 * Handlers throw `HttpError` (or a subclass) for expected failures; each app installs one
 * `onError` built by `errorHandler(dialect)` that renders it in the service's own shape. Anything
 * else is logged and answered with a generic 500 in the same shape, never a stack trace.
 *
 * Dialects:
 *  - insights:    deps.dev style `{"error": "..."}` (what deps.dev clients decode)
 *  - marketplace: `{data: {error}, time, method}` (the original's documented envelope)
 *  - pipeline:    FastAPI `{"detail": ...}`; validation failures are 422 like FastAPI's
 *  - ultracart:   `{error: {developer_message, user_message, error_code, ...}, success: false, ...}`
 *                 plus the `UC-REST-ERROR` header
 */
import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ConfigError } from './config/define.ts';

export type Dialect = 'insights' | 'marketplace' | 'pipeline' | 'ultracart';

export class HttpError extends Error {
  readonly status: ContentfulStatusCode;
  /** Extra fields merged into the error body (dialect permitting). */
  readonly extra: Record<string, unknown> | undefined;
  /** For the pipeline dialect, a structured `detail` replacing the message. */
  readonly detail: unknown;
  /** Response headers set by the service itself (e.g. Retry-After); never user input. */
  readonly headers: Record<string, string> | undefined;
  constructor(
    status: ContentfulStatusCode,
    message: string,
    opts: { extra?: Record<string, unknown>; detail?: unknown; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.extra = opts.extra;
    this.detail = opts.detail;
    this.headers = opts.headers;
  }
}

/** Input that failed validation; rendered as 400 (422 in the pipeline dialect). */
export class ValidationError extends HttpError {
  readonly issues: ValidationIssue[];
  constructor(issues: ValidationIssue[], message = formatIssues(issues)) {
    super(400, message);
    this.name = 'ValidationError';
    this.issues = issues;
  }
}

export interface ValidationIssue {
  path: (string | number)[];
  /** The whole sentence, naming the field ("`edition` is required"). */
  message: string;
  code?: string;
  /** Where the input came from: json, query, param, header, form. */
  location?: string;
}

export function formatIssues(issues: ValidationIssue[]): string {
  return issues.map((i) => i.message).join('; ');
}

/** FastAPI's names for where an input came from (`loc[0]` of a validation error). */
const FASTAPI_LOC: Record<string, string> = {
  json: 'body',
  form: 'body',
  param: 'path',
  query: 'query',
  header: 'header',
  cookie: 'cookie',
};

const STATUS_PHRASES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/** The body and status of an error in a dialect. */
export function renderError(
  dialect: Dialect,
  c: Context,
  status: ContentfulStatusCode,
  message: string,
  err?: HttpError,
): Response {
  for (const [k, v] of Object.entries(err?.headers ?? {})) c.header(k, v);
  switch (dialect) {
    case 'insights':
      return c.json({ error: message, ...(err?.extra ?? {}) }, status);
    case 'marketplace':
      return c.json(
        {
          data: { error: message, ...(err?.extra ?? {}) },
          time: new Date().toISOString(),
          method: `${c.req.method} ${c.req.path}`,
        },
        status,
      );
    case 'pipeline': {
      if (err instanceof ValidationError) {
        return c.json(
          {
            detail: err.issues.map((i) => ({
              type: i.code ?? 'value_error',
              loc: [FASTAPI_LOC[i.location ?? 'json'] ?? i.location, ...i.path],
              msg: i.message,
            })),
          },
          422,
        );
      }
      return c.json({ detail: err?.detail ?? message, ...(err?.extra ?? {}) }, status);
    }
    case 'ultracart': {
      // UltraCart names the failure in UC-REST-ERROR; the header carries only the status phrase, never
      // text that may quote the request. Absent members are omitted, as UltraCart does.
      c.header('UC-REST-ERROR', STATUS_PHRASES[status] ?? `HTTP ${status}`);
      return c.json(
        {
          error: {
            developer_message: message,
            user_message: message,
            error_code: String(status),
            ...(err?.extra ?? {}),
          },
          metadata: {},
          success: false,
        },
        status,
      );
    }
  }
}

export function errorHandler(dialect: Dialect): ErrorHandler {
  return (err, c) => {
    if (err instanceof HttpError) return renderError(dialect, c, err.status, err.message, err);
    if (err instanceof HTTPException) {
      const status = err.status as ContentfulStatusCode;
      if (status >= 500) console.error('http exception', err);
      return renderError(dialect, c, status, err.message || 'bad request');
    }
    if (err instanceof SyntaxError) return renderError(dialect, c, 400, 'malformed JSON body');
    if (err instanceof ConfigError) return renderError(dialect, c, 503, `service misconfigured: ${err.message}`);
    console.error(`unhandled error in ${c.req.method} ${c.req.path}:`, err);
    return renderError(dialect, c, 500, 'internal server error');
  };
}

export function notFoundHandler(dialect: Dialect): NotFoundHandler {
  return (c) =>
    renderError(dialect, c, 404, dialect === 'pipeline' ? 'Not Found' : `no route for ${c.req.method} ${c.req.path}`);
}
