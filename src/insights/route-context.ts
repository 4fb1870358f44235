/**
 * The one place the insights routes turn Hono's request context into the plain values the functions
 * below them take (read-through.ts `ReadContext`): the database of the request, the bindings, the
 * read-through settings and the Worker's `waitUntil`.
 */
import type { Context } from 'hono';
import type { AppEnv } from '../platform/env.ts';
import { readThroughEnabled, refreshAfterSeconds } from './read-through.ts';
import type { ReadContext } from './read-context.ts';

export function readContext(c: Context<AppEnv>): ReadContext {
  return {
    db: c.get('db'),
    env: c.env,
    readThrough: readThroughEnabled(c.env),
    refreshAfterSeconds: refreshAfterSeconds(c.env),
    defer(work) {
      try {
        c.executionCtx.waitUntil(work);
      } catch {
        void work; // no execution context (plain app.request): the work still runs
      }
    },
  };
}
