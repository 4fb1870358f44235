/**
 * Outbound URLs are refused when they are saved (sources, destinations, providers), with the rule
 * every fetch applies again at run time and that webhook URLs are saved under
 * (platform/url-guard.ts: http(s) only, no credentials, no loopback, private, link-local, metadata or
 * other reserved ranges unless `OUTBOUND_ALLOWLIST` names the host). Saving first and refusing at the
 * first run left a source that could never run; the check at run time stays (names may resolve
 * differently later, and redirects are checked hop by hop).
 */
import type { Env } from '../platform/env.ts';
import { HttpError } from '../platform/errors.ts';
import { checkOutboundUrl } from '../platform/url-guard.ts';

/** 422 `<field>: <reason>` unless `url` (when a non-empty string) passes the outbound guard. */
export function refuseOutbound(env: Env, field: string, url: unknown): void {
  if (typeof url !== 'string' || !url) return;
  const check = checkOutboundUrl(url, env);
  if (!check.ok) throw new HttpError(422, `${field}: ${check.reason}`);
}
