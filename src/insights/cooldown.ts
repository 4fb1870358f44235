/**
 * The cooldown window: a version published less than INSIGHTS_COOLDOWN_DAYS (default 7, fractions allowed,
 * 0 = no window) ago is still "cooling down" (a fresh release is where hijacked and malicious versions
 * are caught). One definition serves the COOLDOWN finding (findings.ts, `cooldownContext.end`) and the v3alpha
 * Version's `cooldown {end, description}` (version-alpha.ts); both are computed at request time from
 * `publishedAt` and the clock, never stored, so they agree for the same request time.
 */
import { insightsConfig } from './config.ts';

export function cooldownDays(env: Record<string, unknown>): number {
  return insightsConfig(env).INSIGHTS_COOLDOWN_DAYS;
}

export const rfc3339 = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** When the window of a version published at `publishedAt` ends, or null when it has ended (or is unknown). */
export function cooldownEnd(publishedAt: string | null | undefined, now: Date, days: number): Date | null {
  if (!publishedAt) return null;
  const published = new Date(publishedAt).getTime();
  if (!Number.isFinite(published)) return null;
  const end = new Date(published + days * 86_400_000);
  return end > now ? end : null;
}

/** The v3alpha `cooldown` message of a version, or undefined outside the window. */
export function cooldownOf(publishedAt: string | null | undefined, now: Date, days: number) {
  const end = cooldownEnd(publishedAt, now, days);
  if (end === null) return undefined;
  return {
    end: rfc3339(end),
    description:
      `published ${rfc3339(new Date(publishedAt!))}, less than ${days} day${days === 1 ? '' : 's'} ago; ` +
      `a version is in cooldown for ${days} day${days === 1 ? '' : 's'} after publication (INSIGHTS_COOLDOWN_DAYS)`,
  };
}
