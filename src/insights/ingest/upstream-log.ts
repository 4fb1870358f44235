/**
 * The log line of an expected upstream failure: one per upstream and status per minute
 * (platform/log-limit.ts), never a stack trace. `upstream` names the source (`OSV`, `NPM`, ...).
 */
import { warnLimited } from '../../platform/log-limit.ts';
import { FetchLimitReached } from './http.ts';
import { UpstreamError, UpstreamNotFound } from './types.ts';

/** Whether `err` is an expected upstream failure (logged here, answered 502/503/404) rather than a bug. */
export function isUpstreamFailure(err: unknown): err is UpstreamError | UpstreamNotFound | FetchLimitReached {
  return err instanceof UpstreamError || err instanceof UpstreamNotFound || err instanceof FetchLimitReached;
}

/** What failed, in a few words: `HTTP 503`, `timeout`, `unreachable`, `not found (404)`. */
export function failureOf(err: Error): string {
  const status = (err as UpstreamError).status;
  if (err instanceof UpstreamNotFound) return `not found (${status ?? 404})`;
  if (status !== undefined) return `HTTP ${status}`;
  if (err instanceof FetchLimitReached) return 'fetch limit reached';
  if (/timeout|timed out|aborted/i.test(err.message)) return 'timeout';
  if (/not JSON|malformed|invalid/i.test(err.message)) return 'malformed answer';
  return 'unreachable';
}

export function warnUpstream(upstream: string, err: Error, context = ''): void {
  warnLimited(`insights: upstream ${upstream} ${failureOf(err)}`, context ? `${context}: ${err.message}` : err.message);
}
