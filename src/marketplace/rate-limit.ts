/**
 * Rate limits of the account actions that a guesser or a mail bomber would repeat: failed logins per
 * address, sign-ups and reset requests per address, and each of them per client address where the
 * platform gives one (`CF-Connecting-IP` on Workers; absent locally, where only the per-address limits
 * apply). The API and the pages call the same actions (actions-auth.ts), so both meet the same limits.
 * Over a limit: 429 with Retry-After. A limit per address answers the same whether or not the address
 * has an account, so it tells nothing about accounts.
 */
import type { Context } from 'hono';
import type { AppEnv } from '../platform/env.ts';
import { HttpError } from '../platform/errors.ts';
import { clearHits, countHit, type Hits, hitsOf } from './queries-rate-limits.ts';

export const LIMITS = {
  /** Failed logins of one address (a success clears them). */
  login: { perAddress: 10, perClient: 50, windowSeconds: 15 * 60 },
  signup: { perAddress: 5, perClient: 20, windowSeconds: 60 * 60 },
  reset: { perAddress: 5, perClient: 20, windowSeconds: 60 * 60 },
} as const;
export type LimitedAction = keyof typeof LIMITS;
/** A window older than every limit's counts for nothing: the scheduled job deletes such rows. */
export const LONGEST_WINDOW_SECONDS = Math.max(...Object.values(LIMITS).map((l) => l.windowSeconds));

function keys(c: Context<AppEnv>, action: LimitedAction, address: string): [string, number][] {
  const limit = LIMITS[action];
  const out: [string, number][] = [[`${action}:address:${address.toLowerCase()}`, limit.perAddress]];
  const client = c.req.header('cf-connecting-ip');
  if (client) out.push([`${action}:client:${client}`, limit.perClient]);
  return out;
}

function refuse(h: Hits): never {
  throw new HttpError(429, 'Too many attempts; try again later', { headers: { 'retry-after': String(h.resetIn) } });
}

/** Counts this attempt; 429 once a key is over its limit. */
export async function limitAttempt(c: Context<AppEnv>, action: LimitedAction, address: string): Promise<void> {
  for (const [key, max] of keys(c, action, address)) {
    const h = await countHit(c.get('db'), key, LIMITS[action].windowSeconds);
    if (h.hits > max) refuse(h);
  }
}

/** Before a login: 429 while the address (or client) has used up its failures. Counts nothing. */
export async function checkFailures(c: Context<AppEnv>, address: string): Promise<void> {
  for (const [key, max] of keys(c, 'login', address)) {
    const h = await hitsOf(c.get('db'), key, LIMITS.login.windowSeconds);
    if (h.hits >= max) refuse(h);
  }
}

export async function countFailure(c: Context<AppEnv>, address: string): Promise<void> {
  for (const [key] of keys(c, 'login', address)) await countHit(c.get('db'), key, LIMITS.login.windowSeconds);
}

export async function clearFailures(c: Context<AppEnv>, address: string): Promise<void> {
  await clearHits(c.get('db'), keys(c, 'login', address)[0]![0]);
}
