/**
 * Retry schedule: exponential backoff with "equal jitter" (AWS Architecture Blog): the n-th
 * consecutive failure waits d = min(max, base * 2^(n-1)) seconds, then a uniform draw in [d/2, d],
 * rounded up to whole seconds (QStash delays are whole seconds). Defaults: base 5 s, cap 1 h, and
 * the webhook is disabled after 48 consecutive failures (about two days at the cap), or at once on
 * 410 Gone (Standard Webhooks guidance). All three are configurable by env.
 */
import type { Env } from '../platform/env.ts';

export interface RetryPolicy {
  baseSeconds: number;
  maxSeconds: number;
  disableAfter: number;
}

function num(v: unknown, fallback: number): number {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) && n >= 0 ? n : fallback;
}

export function retryPolicy(env: Env): RetryPolicy {
  return {
    baseSeconds: num(env.WEBHOOK_RETRY_BASE_SECONDS, 5),
    maxSeconds: num(env.WEBHOOK_RETRY_MAX_SECONDS, 3600),
    disableAfter: Math.max(1, num(env.WEBHOOK_DISABLE_AFTER_FAILURES, 48)),
  };
}

export function retryDelaySeconds(failures: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const d = Math.min(policy.maxSeconds, policy.baseSeconds * 2 ** Math.max(0, Math.min(failures, 40) - 1));
  return Math.ceil(d / 2 + (d / 2) * random());
}

export function shouldDisable(status: number, failures: number, policy: RetryPolicy): boolean {
  return status === 410 || failures >= policy.disableAfter;
}
