/**
 * The one place that completes a v3alpha Version answer in TypeScript. The Version built in SQL
 * (insights.version_json_alpha: v3 fields plus `purl` and npm's `upstreamIdentifiers`) gets, in proto
 * declaration order:
 *   licenseDetails       after `licenses`: stored at ingestion (insights.version_details, migration 0170);
 *                        [] when none was recorded (deps.dev: "empty when unable to obtain")
 *   upstreamIdentifiers  replaced by the stored list when ingestion recorded one (npm, PyPI); else kept
 *   cooldown {end, description}  after `upstreamIdentifiers`, only while the version is in its cooldown
 *                        window (cooldown.ts), computed from `publishedAt` at request time, never stored
 * Every route answering a v3alpha Version goes through `withAlphaFields` (GetVersion, PurlLookup,
 * versionbatch, purlbatch, Query): one read of the stored details for all the versions of an answer.
 */
import type { Queryable } from '../platform/db.ts';
import { cooldownOf } from './cooldown.ts';
import { detailsKey, readVersionDetails, type VersionDetails } from './queries-version-details.ts';

type VersionJson = Record<string, unknown> & { versionKey?: { system: string; name: string; version: string } };

/** The versions with their v3alpha fields completed (null entries, "not found", stay null). */
export async function withAlphaFields<T extends VersionJson | null>(
  db: Queryable,
  versions: readonly T[],
  days: number,
  now = new Date(),
): Promise<T[]> {
  const keys = versions.flatMap((v) => (v?.versionKey ? [v.versionKey] : []));
  const details = await readVersionDetails(db, keys);
  return versions.map((v) => {
    if (!v?.versionKey) return v;
    const k = v.versionKey;
    return complete(v, details.get(detailsKey(k.system, k.name, k.version)), now, days) as T;
  });
}

/** A JSON text holding one v3alpha Version, completed. */
export async function alphaVersionText(db: Queryable, body: string, days: number): Promise<string> {
  const [v] = await withAlphaFields(db, [JSON.parse(body) as VersionJson], days);
  return JSON.stringify(v);
}

/** One Version completed from details at hand (a first read's, before they are stored). */
export function completeAlphaVersion(v: VersionJson, d: VersionDetails | undefined, days: number, now = new Date()) {
  return complete(v, d, now, days);
}

function complete(v: VersionJson, d: VersionDetails | undefined, now: Date, days: number): VersionJson {
  const cooldown = cooldownOf(typeof v.publishedAt === 'string' ? v.publishedAt : null, now, days);
  const out: VersionJson = {};
  let placed = false;
  for (const [key, value] of Object.entries(v)) {
    if (key === 'licenseDetails' || key === 'cooldown') continue; // always this module's
    if (key === 'projectStatus' && !placed && cooldown) {
      out.cooldown = cooldown;
      placed = true;
    }
    out[key] = key === 'upstreamIdentifiers' ? (d?.upstreamIdentifiers ?? value) : value;
    if (key === 'licenses') out.licenseDetails = d?.licenseDetails ?? [];
    if (key === 'upstreamIdentifiers' && cooldown) {
      out.cooldown = cooldown;
      placed = true;
    }
  }
  if (cooldown && !placed) out.cooldown = cooldown;
  return out;
}
