/**
 * GetCapabilities (`GET /v3alpha/systems/go/packages/{module}/versions/{v}:capabilities`):
 * `{capabilities: [{capability, directCount, indirectCount}]}` with Capslock's capability names, computed
 * from the module's source zip fetched through GO_PROXY_URL (`{escaped module}/@v/{escaped version}.zip`)
 * by go-capabilities.ts (an import-and-reference analysis of the module's own files; how it differs from
 * Capslock is said there), once per version (insights.go_capabilities). Go only, as deps.dev (another
 * system is a 404). A zip larger than MAX_ZIP_BYTES, or not a readable zip, is not analysed: the answer is
 * CAPABILITY_UNANALYZED. A zip the proxy does not have is a 404, a failing proxy a 502.
 */
import type { Queryable } from '../platform/db.ts';
import { HttpError } from '../platform/errors.ts';
import { escapeModulePath } from '../versions/names/index.ts';
import { fetchUpstream, upstreamUrl } from './ingest/http.ts';
import { UpstreamError, UpstreamNotFound } from './ingest/types.ts';
import { zipCapabilities, type CapabilityCount } from './go-capabilities.ts';

export const MAX_ZIP_BYTES = 32 * 1024 * 1024;
const UNANALYZED: CapabilityCount = { capability: 'CAPABILITY_UNANALYZED', directCount: 1, indirectCount: 0 };

async function compute(env: Record<string, unknown>, module: string, version: string): Promise<CapabilityCount[]> {
  const url = `${upstreamUrl(env, 'GO_PROXY_URL')}/${escapeModulePath(module)}/@v/${escapeModulePath(version)}.zip`;
  let res: Response;
  try {
    res = await fetchUpstream(url);
  } catch (err) {
    if (err instanceof UpstreamNotFound) {
      throw new HttpError(404, `source of GO ${module}@${version} not found on the Go proxy`);
    }
    if (err instanceof UpstreamError) throw new HttpError(502, `Go proxy failed: ${err.message}`);
    throw err;
  }
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > MAX_ZIP_BYTES) {
    await res.body?.cancel();
    return [UNANALYZED];
  }
  const zip = new Uint8Array(await res.arrayBuffer());
  if (zip.length > MAX_ZIP_BYTES) return [UNANALYZED];
  try {
    return await zipCapabilities(zip);
  } catch {
    return [UNANALYZED]; // not a readable zip: nothing was analysed
  }
}

/** Computes and keeps the answer of a Go module version (also run by the demo seed); returns its body. */
export async function storeCapabilities(env: Record<string, unknown>, db: Queryable, module: string, version: string) {
  const body = JSON.stringify({ capabilities: await compute(env, module, version) });
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
  db: Queryable,
  module: string,
  version: string,
): Promise<string> {
  const cached = await db.query<{ body: string }>(
    'SELECT body::text AS body FROM insights.go_capabilities WHERE name = $1 AND version = $2',
    [module, version],
  );
  return cached[0]?.body ?? storeCapabilities(env, db, module, version);
}
