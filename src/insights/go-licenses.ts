/**
 * Go licences (issue 34): deps.dev determines a Go module version's licences by licence detection on its
 * source (google/licensecheck, as pkgsite does); here the licence files at the root of the module's zip
 * from GO_PROXY_URL (`LICENSE`, `LICENCE`, `COPYING`, `UNLICENSE`, `MIT-LICENSE`, each with any
 * `.md`/`.txt`/`-MIT`/`-APACHE`... suffix, in any case) are matched against SPDX's templates
 * (licenses/match.ts). `licenses` is the sorted set of ids found in them (`non-standard` for a file that
 * is not mostly known licence text), `[]` when the module has no licence file; v3alpha's `licenseDetails`
 * is one `{license, spdx}` per id.
 *
 * Read once per version, when a GetVersion or PurlLookup answer shows it first (or when its capabilities
 * read the zip; batch and Query answers show what was read, they fetch no zips):
 * kept in insights.go_licenses (migration 0194) and written into the version row, its details and its
 * stored answers; a re-ingestion of the module copies them back (restoreGoLicences). A zip over
 * MAX_ZIP_BYTES, a zip the proxy does not have, or one that is not a readable zip is kept as `[]`
 * (nothing to read). A failing proxy leaves the version unread: the answer shows `[]` with a 199 Warning
 * naming the failure (unknown is not empty), and the next answer tries again.
 */
import type { Db, Queryable } from '../platform/db.ts';
import { escapeModulePath } from '../versions/names/index.ts';
import { fetchUpstream, upstreamUrl } from './ingest/http.ts';
import { UpstreamError, UpstreamNotFound } from './ingest/types.ts';
import { readZipEntry, zipEntries } from './ingest/zip.ts';
import { detectLicences } from './licenses/match.ts';
import { refreshVersionAnswers } from './stored-answers.ts';
import { quoted } from './warning-header.ts';

export const MAX_ZIP_BYTES = 32 * 1024 * 1024;
const MAX_LICENCE_FILE_BYTES = 512 * 1024;
const LICENCE_FILE = /^(?:licen[cs]e|unlicen[cs]e|copying|mit[-_]licen[cs]e)(?:[-._][a-z0-9.-]*)?$/i;

export interface GoLicences {
  licenses: string[];
  licenseDetails: { license: string; spdx: string }[];
}

/** A module version's source zip from the Go proxy, or null when it is larger than MAX_ZIP_BYTES. */
export async function fetchGoZip(env: Record<string, unknown>, module: string, version: string) {
  const url = `${upstreamUrl(env, 'GO_PROXY_URL')}/${escapeModulePath(module)}/@v/${escapeModulePath(version)}.zip`;
  const res = await fetchUpstream(url);
  if (Number(res.headers.get('content-length') ?? 0) > MAX_ZIP_BYTES) {
    await res.body?.cancel();
    return null;
  }
  const zip = new Uint8Array(await res.arrayBuffer());
  return zip.length > MAX_ZIP_BYTES ? null : zip;
}

/** The licences of a proxy zip (`module@version/...`): its root licence files, detected. */
export async function zipLicences(zip: Uint8Array): Promise<GoLicences> {
  const ids = new Set<string>();
  const dec = new TextDecoder();
  for (const e of zipEntries(zip)) {
    const rel = /^[^@]*@[^/]+\/(.*)$/.exec(e.name)?.[1] ?? e.name;
    if (rel.includes('/') || !LICENCE_FILE.test(rel) || e.size > MAX_LICENCE_FILE_BYTES) continue;
    for (const id of detectLicences(dec.decode(await readZipEntry(zip, e))).ids) ids.add(id);
  }
  const licenses = [...ids].sort();
  return { licenses, licenseDetails: licenses.map((id) => ({ license: id, spdx: id })) };
}

const NONE: GoLicences = { licenses: [], licenseDetails: [] };

/** Keeps a version's licences and writes them into its row, details and stored answers. */
export async function storeGoLicences(db: Db, module: string, version: string, l: GoLicences): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO insights.go_licenses (name, version, licenses, license_details) VALUES ($1, $2, $3::json, $4::json)
      ON CONFLICT (name, version) DO UPDATE SET licenses = EXCLUDED.licenses, license_details = EXCLUDED.license_details,
        detected_at = now()`,
      [module, version, JSON.stringify(l.licenses), JSON.stringify(l.licenseDetails)],
    );
    await restoreGoLicences(tx, module, version);
    await refreshVersionAnswers(tx, 'GO', module, [version]);
  });
}

/** Copies kept licences into the version rows and details of a module (one version, or all). */
export async function restoreGoLicences(tx: Queryable, module: string, version?: string): Promise<void> {
  const args = version === undefined ? [module] : [module, version];
  const only = version === undefined ? '' : 'AND g.version = $2';
  await tx.query(
    `UPDATE insights.versions v SET licenses = g.licenses FROM insights.go_licenses g
    WHERE v.system = 'GO' AND v.name = g.name AND v.version = g.version AND g.name = $1 ${only}`,
    args,
  );
  await tx.query(
    `INSERT INTO insights.version_details (system, name, version, license_details, upstream_identifiers)
    SELECT 'GO', g.name, g.version, g.license_details, NULL FROM insights.go_licenses g
    JOIN insights.versions v ON v.system = 'GO' AND v.name = g.name AND v.version = g.version
    WHERE g.name = $1 ${only}
    ON CONFLICT (system, name, version) DO UPDATE SET license_details = EXCLUDED.license_details`,
    args,
  );
}

/** Whether a version's licences were read. */
export async function goLicencesRead(db: Queryable, module: string, version: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM insights.go_licenses WHERE name = $1 AND version = $2', [module, version]);
  return rows.length > 0;
}

/**
 * Reads and keeps a version's licences when they were not read yet. Returns whether they were stored now
 * (the answer is to be read again) and, when the proxy failed, the Warning header part.
 */
export async function ensureGoLicences(
  env: Record<string, unknown>,
  db: Db,
  module: string,
  version: string,
): Promise<{ stored: boolean; warning: string | null }> {
  if (await goLicencesRead(db, module, version)) return { stored: false, warning: null };
  let licences = NONE;
  try {
    const zip = await fetchGoZip(env, module, version);
    if (zip) licences = await zipLicences(zip).catch(() => NONE); // not a readable zip: nothing to read
  } catch (err) {
    if (err instanceof UpstreamError) {
      const text = `licenses unknown for GO ${module}@${version} (Go proxy source zip: ${err.message})`;
      return { stored: false, warning: `199 insights ${quoted(text)}` };
    }
    if (!(err instanceof UpstreamNotFound)) throw err;
  }
  await storeGoLicences(db, module, version, licences);
  return { stored: true, warning: null };
}
