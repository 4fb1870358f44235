/**
 * Retry schedule: exponential backoff with "equal jitter" (AWS Architecture Blog): the n-th
 * consecutive failure waits d = min(max, base * 2^(n-1)) seconds, then a uniform draw in [d/2, d],
 * rounded up to whole seconds (QStash delays are whole seconds). Defaults: base 5 s, cap 1 h, and
 * the webhook is disabled after 48 consecutive failures (about two days at the cap), or at once on
 * 410 Gone (Standard Webhooks guidance). All three are configurable by env (src/webhooks/config.ts).
 */
import type { Env } from '../platform/env.ts';
import { webhooksConfig } from './config.ts';

export interface RetryPolicy {
  baseSeconds: number;
  maxSeconds: number;
  disableAfter: number;
}

export function retryPolicy(env: Env): RetryPolicy {
  const cfg = webhooksConfig(env);
  return {
    baseSeconds: cfg.WEBHOOK_RETRY_BASE_SECONDS,
    maxSeconds: cfg.WEBHOOK_RETRY_MAX_SECONDS,
    disableAfter: cfg.WEBHOOK_DISABLE_AFTER_FAILURES,
  };
}

export function retryDelaySeconds(failures: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const d = Math.min(policy.maxSeconds, policy.baseSeconds * 2 ** Math.max(0, Math.min(failures, 40) - 1));
  return Math.ceil(d / 2 + (d / 2) * random());
}

export function shouldDisable(status: number, failures: number, policy: RetryPolicy): boolean {
  return status === 410 || failures >= policy.disableAfter;
}
