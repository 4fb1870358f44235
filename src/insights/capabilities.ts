/**
 * GetCapabilities (`GET /v3alpha/systems/go/packages/{module}/versions/{v}:capabilities`):
 * `{capabilities: [{capability, directCount, indirectCount}]}` with Capslock's capability names, computed
 * from the module's source zip fetched through GO_PROXY_URL (`{escaped module}/@v/{escaped version}.zip`)
 * by go-capabilities.ts (an import-and-reference analysis of the module's own files; how it differs from
 * Capslock is said there), once per version (insights.go_capabilities). Go only, as deps.dev (another
 * system is a 404). A zip larger than MAX_ZIP_BYTES, or not a readable zip, is not analysed: the answer is
 * CAPABILITY_UNANALYZED. A zip the proxy does not have is a 404, a failing proxy a 502. The zip's licences are
 * kept as well when no GetVersion has read them yet (go-licenses.ts).
 */
import type { Db } from '../platform/db.ts';
import { HttpError } from '../platform/errors.ts';
import { UpstreamError, UpstreamNotFound } from './ingest/types.ts';
import { zipCapabilities, type CapabilityCount } from './go-capabilities.ts';
import { fetchGoZip, goLicencesRead, storeGoLicences, zipLicences } from './go-licenses.ts';

const UNANALYZED: CapabilityCount = { capability: 'CAPABILITY_UNANALYZED', directCount: 1, indirectCount: 0 };

async function compute(
  env: Record<string, unknown>,
  db: Db,
  module: string,
  version: string,
): Promise<CapabilityCount[]> {
  let zip: Uint8Array | null;
  try {
    zip = await fetchGoZip(env, module, version);
  } catch (err) {
    if (err instanceof UpstreamNotFound) {
      throw new HttpError(404, `source of GO ${module}@${version} not found on the Go proxy`);
    }
    if (err instanceof UpstreamError) throw new HttpError(502, `Go proxy failed: ${err.message}`);
    throw err;
  }
  if (!zip) return [UNANALYZED];
  // the zip is here: its licences too, when no GetVersion has read them yet (go-licenses.ts)
  if (!(await goLicencesRead(db, module, version))) {
    const licences = await zipLicences(zip).catch(() => ({ licenses: [], licenseDetails: [] }));
    await storeGoLicences(db, module, version, licences);
  }
  try {
    return await zipCapabilities(zip);
  } catch {
    return [UNANALYZED]; // not a readable zip: nothing was analysed
  }
}

/** Computes and keeps the answer of a Go module version (also run by the demo seed); returns its body. */
export async function storeCapabilities(env: Record<string, unknown>, db: Db, module: string, version: string) {
  const body = JSON.stringify({ capabilities: await compute(env, db, module, version) });
  await db.query(
    `INSERT INTO insights.go_capabilities (name, version, body) VALUES ($1, $2, $3::json)
    ON CONFLICT (name, version) DO NOTHING`,
    [module, version, body],
  );
  return body;
}

/** The answer (JSON text) for a stored Go version (the caller has checked it exists): kept, else computed and kept. */
export async function getCapabilities(
  env: Record<string, unknown>,
  db: Db,
  module: string,
  version: string,
): Promise<string> {
  const cached = await db.query<{ body: string }>(
    'SELECT body::text AS body FROM insights.go_capabilities WHERE name = $1 AND version = $2',
    [module, version],
  );
  return cached[0]?.body ?? storeCapabilities(env, db, module, version);
}
