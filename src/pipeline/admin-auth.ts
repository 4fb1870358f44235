/**
 * Admin access: every `/api/v1/*` route except the public RSS feed needs
 * `Authorization: Bearer <PIPELINE_ADMIN_TOKEN>`, compared in constant time. A missing, malformed or
 * wrong token, or a deployment without the secret, answers 401 `{"detail": ...}` with
 * `WWW-Authenticate: Bearer` (the original had no auth at all; the spec left it open).
 */
import type { MiddlewareHandler } from 'hono';
import { bearerToken } from '../platform/auth.ts';
import { timingSafeEqual } from '../platform/crypto.ts';
import type { AppEnv } from '../platform/env.ts';
import { HttpError } from '../platform/errors.ts';
import { pipelineConfig } from './config.ts';

export const PUBLIC_API_PATHS = new Set(['/api/v1/feed.xml']);

export const requireAdmin: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (PUBLIC_API_PATHS.has(c.req.path)) return next();
  const expected = pipelineConfig(c.env).PIPELINE_ADMIN_TOKEN ?? '';
  const given = bearerToken(c.req.header('authorization'));
  const deny = (message: string): never => {
    c.header('WWW-Authenticate', 'Bearer');
    throw new HttpError(401, message);
  };
  if (!expected) deny('Admin token is not configured on this deployment');
  if (!given) deny('Not authenticated');
  if (!timingSafeEqual(given!, expected)) deny('Invalid admin token');
  return next();
};
