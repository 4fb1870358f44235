/**
 * insights.version_details (migrations/0170_version_details.sql): the v3alpha Version fields stored at
 * ingestion (licenseDetails, upstreamIdentifiers). Written in the ingestion's transaction after the
 * version rows (whose replacement cascades to these); read for a page of answers in one statement.
 */
import type { Queryable } from '../platform/db.ts';
import type { LicenseDetail, UpstreamIdentifier } from './ingest/types.ts';

export interface VersionDetails {
  licenseDetails: LicenseDetail[];
  /** null: none recorded at ingestion. */
  upstreamIdentifiers: UpstreamIdentifier[] | null;
}

export interface DetailsRow extends Partial<VersionDetails> {
  /** The canonical (stored) version. */
  version: string;
}

export async function storeVersionDetailRows(tx: Queryable, system: string, name: string, rows: DetailsRow[]) {
  if (rows.length === 0) return;
  await tx.query(
    `INSERT INTO insights.version_details (system, name, version, license_details, upstream_identifiers)
    SELECT $2::text, $3::text, x.version, COALESCE(x.license_details, '[]'::json), x.upstream_identifiers
    FROM json_to_recordset($1::json) AS x(version text, license_details json, upstream_identifiers json)
    WHERE EXISTS (SELECT 1 FROM insights.versions v WHERE v.system = $2 AND v.name = $3 AND v.version = x.version)
    ON CONFLICT (system, name, version) DO UPDATE SET license_details = EXCLUDED.license_details,
      upstream_identifiers = EXCLUDED.upstream_identifiers`,
    [
      JSON.stringify(
        rows.map((r) => ({
          version: r.version,
          license_details: r.licenseDetails ?? [],
          upstream_identifiers: r.upstreamIdentifiers ?? null,
        })),
      ),
      system,
      name,
    ],
  );
}

export const detailsKey = (system: string, name: string, version: string) => `${system}\u0000${name}\u0000${version}`;

/** The stored details of each key that has them, by `detailsKey`. */
export async function readVersionDetails(
  db: Queryable,
  keys: { system: string; name: string; version: string }[],
): Promise<Map<string, VersionDetails>> {
  const out = new Map<string, VersionDetails>();
  if (keys.length === 0) return out;
  const rows = await db.query<{
    system: string;
    name: string;
    version: string;
    license_details: LicenseDetail[];
    upstream_identifiers: UpstreamIdentifier[] | null;
  }>(
    `SELECT d.system, d.name, d.version, d.license_details,
      d.upstream_identifiers
    FROM (SELECT DISTINCT * FROM json_to_recordset($1::json) AS k(system text, name text, version text)) k
    JOIN insights.version_details d ON d.system = k.system AND d.name = k.name AND d.version = k.version`,
    [JSON.stringify(keys)],
  );
  for (const r of rows) {
    out.set(detailsKey(r.system, r.name, r.version), {
      licenseDetails: r.license_details,
      upstreamIdentifiers: r.upstream_identifiers,
    });
  }
  return out;
}
