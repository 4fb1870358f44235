/**
 * Pacing of delivery attempts. A webhook's `rate_limit_per_second` r spaces the starts of its
 * attempts at least 1/r s apart, across runs (a run starts from the time of the webhook's last
 * attempt, measured by the database). A short wait is slept inside the run, holding the lease; a
 * longer one (slow rates) ends the run and publishes a delayed message (QStash delays are whole
 * seconds, rounded up, so the spacing is never shorter).
 *
 * `Retry-After` (RFC 9110 §10.2.3: delay-seconds or an HTTP-date) on a 429 or 503 answer sets the
 * retry delay to at least that long (capped at a day); other statuses' Retry-After is ignored.
 */
export const RETRY_AFTER_STATUSES = new Set([429, 503]);
export const MAX_RETRY_AFTER_SECONDS = 86_400;

/** Seconds a Retry-After value asks for, or undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, nowMs = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d{1,10}$/.test(v)) return Math.min(MAX_RETRY_AFTER_SECONDS, Number(v));
  if (!/[a-z]/i.test(v)) return undefined;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(0, Math.ceil((at - nowMs) / 1000)));
}

/** The retry delay after a failed attempt: the backoff, or the receiver's Retry-After when longer. */
export function retryDelayWithRetryAfter(
  backoffSeconds: number,
  status: number,
  headers: Record<string, string>,
  nowMs = Date.now(),
): number {
  if (!RETRY_AFTER_STATUSES.has(status)) return backoffSeconds;
  const asked = parseRetryAfter(headers['retry-after'], nowMs);
  return asked === undefined ? backoffSeconds : Math.max(backoffSeconds, asked);
}

/** Milliseconds to wait before the next attempt may start, given the last start (ms epoch, or null). */
export function paceWaitMs(ratePerSecond: number | null, lastStartMs: number | null, nowMs = Date.now()): number {
  if (!ratePerSecond || ratePerSecond <= 0 || lastStartMs === null) return 0;
  return Math.max(0, Math.ceil(lastStartMs + 1000 / ratePerSecond - nowMs));
}
