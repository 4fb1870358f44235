/**
 * What a parsed purl (purl.ts) names in the store, for the purl lookup and purlbatch (beyond deps.dev):
 * - Go module paths match case-insensitively (deps.dev #299, #93: scanners lower-case Go purls, deps.dev
 *   matches the exact case only): the exact stored path wins; else the one stored path equal to it
 *   ignoring case (`lower(name)` index, migrations/0164_go_module_path_fold.sql). Two stored paths that
 *   differ only in case (`github.com/Sirupsen/logrus`, `github.com/sirupsen/logrus`) leave a path that
 *   matches neither exactly ambiguous: not found, the message naming both. Only stored modules are folded;
 *   an unknown path is read through as written (the Go proxy is case-sensitive).
 * - `repository_url`: a registry other than the one this service reads for the system (its configured
 *   upstream) or that system's public registry is another package of the same name: not found.
 * Every other qualifier and the subpath are ignored (purl.ts says why).
 */
import type { Queryable } from '../platform/db.ts';
import { registryOf, type UpstreamEnv } from './ingest/http.ts';
import { canonicalName, canonicalVersion } from './paths.ts';
import type { Purl } from './purl.ts';

/** The public registry hosts of each purl type (purl spec defaults and their API hosts). */
const PUBLIC_HOSTS: Record<string, string[]> = {
  NPM: ['registry.npmjs.org', 'registry.npmjs.com', 'npmjs.com', 'www.npmjs.com'],
  PYPI: ['pypi.org', 'pypi.python.org', 'files.pythonhosted.org'],
  MAVEN: ['repo.maven.apache.org', 'repo1.maven.org', 'central.sonatype.com'],
  CARGO: ['crates.io', 'index.crates.io', 'static.crates.io'],
  NUGET: ['www.nuget.org', 'nuget.org', 'api.nuget.org'],
  RUBYGEMS: ['rubygems.org'],
  GO: ['proxy.golang.org', 'pkg.go.dev'],
};

function hostOf(url: string): string | null {
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `https://${url}`).host.toLowerCase();
  } catch {
    return null;
  }
}

/** Why the purl's `repository_url` is not a registry served here, or null (none given, or one served). */
export function foreignRepository(env: UpstreamEnv, p: Purl): string | null {
  const url = p.qualifiers?.repository_url;
  if (!url) return null;
  const host = hostOf(url);
  const served = [...(PUBLIC_HOSTS[p.system] ?? []), hostOf(registryOf(env, p.system)) ?? ''].filter(Boolean);
  if (host && served.includes(host)) return null;
  return `repository_url ${url} is not a registry this service indexes for ${p.system} (${served[0]})`;
}

/** Stored Go module paths equal to each of `names` ignoring case, keyed by the lower-cased path. */
export async function goPathsFolded(db: Queryable, names: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (names.length === 0) return out;
  const lower = [...new Set(names.map((n) => n.toLowerCase()))];
  const rows = await db.query<{ name: string }>(
    `SELECT name FROM insights.packages
    WHERE system = 'GO' AND lower(name) = ANY($1::text[]) ORDER BY name`,
    [lower],
  );
  for (const { name } of rows) {
    const k = name.toLowerCase();
    out.set(k, [...(out.get(k) ?? []), name]);
  }
  return out;
}

/** The stored spelling of a Go module path: exact, else the one case-folded match; `ambiguous` lists several. */
export function goPathOf(folded: Map<string, string[]>, name: string): { name: string; ambiguous?: string[] } {
  const candidates = folded.get(name.toLowerCase()) ?? [];
  if (candidates.includes(name) || candidates.length === 0) return { name };
  if (candidates.length === 1) return { name: candidates[0]! };
  return { name, ambiguous: candidates };
}

export interface PurlKey {
  system: Purl['system'];
  name: string;
  version?: string;
  /** Why the purl names nothing this service stores (a foreign repository_url, an ambiguous Go path). */
  notHere?: string;
}

/** The canonical key of a parsed purl (throws the 400 of a bad name or version). */
export function canonicalPurlKey(p: Purl): PurlKey {
  return {
    system: p.system,
    name: canonicalName(p.system, p.name),
    ...(p.version !== undefined ? { version: canonicalVersion(p.system, p.version) } : {}),
  };
}

/** The stored keys of parsed purls (`canonicalPurlKey` of each), Go paths case-folded in one query. */
export async function purlKeys(db: Queryable, env: UpstreamEnv, purls: Purl[], keys = purls.map(canonicalPurlKey)) {
  const folded = await goPathsFolded(
    db,
    keys.filter((k) => k.system === 'GO').map((k) => k.name),
  );
  return keys.map((k, i): PurlKey => {
    const foreign = foreignRepository(env, purls[i]!);
    if (foreign) return { ...k, notHere: foreign };
    if (k.system !== 'GO') return k;
    const g = goPathOf(folded, k.name);
    return g.ambiguous
      ? { ...k, notHere: `Go module path ${k.name} matches ${g.ambiguous.join(', ')} ignoring case` }
      : { ...k, name: g.name };
  });
}
