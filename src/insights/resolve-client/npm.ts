/**
 * npm rows in the resolver vocabulary: meta {os, cpu, libc, engines, deprecated} + package dist_tags -> attrs;
 * the npm Requirements message -> dependencies (opt, scope peer|bundle, knownas for `npm:` aliases);
 * `bundled[]` (manifests from the tarball) -> mangled packages `name>version>a>b` with one version (attr
 * derivedfrom) held in memory, listed as bundle content in the requirements of the version holding their
 * folder (src/resolve/npm-bundle.ts); they are answered without a query and are not `touched` (the
 * bundler's own rows carry them). A version whose tarball is not read yet (NPM_TARBALL) has its bundled
 * manifests read on demand.
 */
import { bundleRows, isMangled, type BundledManifest } from '../../resolve/npm-bundle.ts';
import { npmDependency } from '../../resolve/npm-packument.ts';
import type { Attrs, Dependency, VersionInfo } from '../../resolve/types.ts';
import { GraphIncomplete } from '../graph-read-through.ts';
import { NPM_TARBALL } from '../ingest/npm-pending.ts';
import type { VersionRow } from '../queries-dependencies.ts';
import { type ClientCore, type ClientOptions, type Json, type SystemReads, versionKey } from './system.ts';

function npmAttrs(version: string, meta: Json, distTags: Record<string, string>): Attrs {
  const a: Attrs = {};
  const tags = Object.entries(distTags)
    .filter(([, v]) => v === version)
    .map(([t]) => t);
  if (tags.length) a.tags = tags.join(',');
  if (typeof meta.deprecated === 'string' || meta.deprecated === true) a.deprecated = ''; // '' (no message) is deprecated too
  if (Array.isArray(meta.os) && meta.os.length) a.os = meta.os.join(',');
  if (Array.isArray(meta.cpu) && meta.cpu.length) a.cpu = meta.cpu.join(',');
  if (Array.isArray(meta.libc) && meta.libc.length) a.libc = meta.libc.join(',');
  if (meta.engines && typeof meta.engines === 'object' && !Array.isArray(meta.engines))
    a.engines = JSON.stringify(meta.engines);
  return a;
}

/** requirements.npm (the npm Requirements message) as dependencies. */
function npmDependencies(req: Json): Dependency[] {
  const d = req.npm?.dependencies ?? {};
  const out: Dependency[] = [];
  const optional = new Set<string>((d.optionalDependencies ?? []).map((x: Json) => x.name));
  for (const x of d.dependencies ?? []) if (!optional.has(x.name)) out.push(npmDependency(x.name, x.requirement, {}));
  for (const x of d.optionalDependencies ?? []) out.push(npmDependency(x.name, x.requirement, { opt: '' }));
  const peerOpt = new Set<string>(
    (d.peerDependencyMetadata ?? []).filter((m: Json) => m.optional).map((m: Json) => m.name),
  );
  for (const x of d.peerDependencies ?? [])
    out.push(
      npmDependency(x.name, x.requirement, peerOpt.has(x.name) ? { scope: 'peer', opt: '' } : { scope: 'peer' }),
    );
  for (const n of d.bundleDependencies ?? []) out.push({ name: n, requirement: '*', attrs: { scope: 'bundle' } });
  return out;
}

export class NpmReads implements SystemReads {
  private readonly client: ClientCore;
  private readonly fetchBundled: ClientOptions['fetchBundled'];
  /** bundled copies by mangled name (filled when their bundler's requirements are read) */
  private readonly bundles = new Map<string, { info: VersionInfo; deps: Dependency[] }>();
  /** versions whose tarball (bundled manifests) is not read yet (NPM_TARBALL), by versionKey */
  private readonly tarballs = new Map<string, string>();
  /** the requirements of those versions as fetched, without bundled manifests */
  private readonly unbundled = new Map<string, Json>();

  constructor(client: ClientCore, fetchBundled: ClientOptions['fetchBundled']) {
    this.client = client;
    this.fetchBundled = fetchBundled;
  }

  attrs(row: VersionRow): Attrs {
    return npmAttrs(row.version, row.meta ?? {}, row.dist_tags ?? {});
  }

  noteVersion(row: VersionRow): void {
    const tarball = row.meta?.[NPM_TARBALL];
    if (typeof tarball === 'string') this.tarballs.set(versionKey(row.name, row.version), tarball);
  }

  dependencies(name: string, version: string, req: Json): Dependency[] {
    return this.withBundled(name, version, npmDependencies(req), req.npm?.bundled);
  }

  /** its bundled manifests are read when it is asked for */
  holdRequirements(key: string, req: Json): boolean {
    if (!this.tarballs.has(key)) return false;
    this.unbundled.set(key, req);
    return true;
  }

  /** the bundled manifests of `name@version` join its dependencies (as bundle content) and the client's packages. */
  private withBundled(name: string, version: string, deps: Dependency[], bundled: unknown): Dependency[] {
    if (!Array.isArray(bundled) || bundled.length === 0) return deps;
    const b = bundleRows(
      name,
      version,
      bundled.map(
        (x: Json): BundledManifest => ({
          path: String(x?.path ?? ''),
          name: String(x?.name ?? ''),
          version: String(x?.version ?? ''),
          deps: npmDependencies({ npm: { dependencies: x?.dependencies ?? {} } }),
        }),
      ),
    );
    for (const r of b.rows) this.bundles.set(r.info.name, r);
    return [...deps, ...b.content];
  }

  /**
   * A version whose tarball is not read yet (ingest/npm-pending.ts) has its bundled manifests read now,
   * once, when the resolver asks for its requirements; without a way to read it the graph is incomplete.
   */
  async requirements(name: string, version: string): Promise<readonly Dependency[] | null> {
    const row = this.client.row(name, version); // in the same round trip as the version list
    row.catch(() => {});
    await this.client.versions(name);
    const k = versionKey(name, version);
    const tarball = this.tarballs.get(k);
    const raw = this.unbundled.get(k);
    const base = raw ? npmDependencies(raw) : await row;
    if (!tarball || !base) return base;
    if (!this.fetchBundled) throw new GraphIncomplete(`the tarball of npm ${name}@${version} is not read yet`);
    return this.withBundled(name, version, [...base], await this.fetchBundled(name, version, tarball));
  }

  memoryVersions(name: string): readonly VersionInfo[] | undefined {
    if (!isMangled(name)) return undefined;
    const b = this.bundles.get(name);
    return b ? [b.info] : [];
  }

  memoryRequirements(name: string, version: string): readonly Dependency[] | null | undefined {
    if (!isMangled(name)) return undefined;
    const b = this.bundles.get(name);
    return b && b.info.version === version ? b.deps : null;
  }

  skipAhead(d: Dependency): boolean {
    return isMangled(d.name);
  }

  /** a version whose tarball is unread costs an upstream fetch: read for the resolver only */
  mayReadAhead(key: string): boolean {
    return !this.tarballs.has(key);
  }
}
