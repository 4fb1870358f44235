/**
 * Postgres-backed resolve Client over the insights tables. Lookups issued in the same microtask
 * are batched into one query per kind (versions of packages; requirements of versions), and every
 * answer is memoised for the request. Rows are mapped to the resolver vocabulary (src/resolve):
 *  NPM   meta {os, cpu, engines, deprecated} + package dist_tags -> attrs; the npm Requirements
 *        message -> dependencies (opt, scope peer|bundle, knownas for `npm:` aliases); `bundled[]`
 *        (manifests from the tarball) -> mangled packages `name>version>a>b` with one version
 *        (attr derivedfrom) held in memory, listed as bundle content in the requirements of the
 *        version holding their folder (src/resolve/npm-bundle.ts); they are answered without a
 *        query and are not `touched` (the bundler's own rows carry them);
 *  PYPI  meta.yanked -> blocked, meta.requiresPython -> requirespython;
 *        requirements.pypi.dependencies -> requirement = versionSpecifier,
 *        environment = environmentMarker, enableddependencies = extras;
 *  MAVEN dependencies (resolvedName/resolvedVersion when ingestion filled them) with scope,
 *        optional, exclusions; dependencyManagement rows with origin `management`;
 *  CARGO meta {yanked, links} -> blocked, links; requirements.cargo.features -> the `features`
 *        version attr (so a versions batch also reads the requirements rows of those versions, one
 *        more query, and primes the requirements cache with them); cargo dependencies -> real crate
 *        name, scope build|dev, opt, knownas (packageAlias), features, nodefault, environment (target).
 * Packages the database lacks are asked of `fetchMissing` (graph-read-through.ts) and answered from memory.
 *
 * Lookahead: resolvers walk a graph one node at a time, so answering each question as asked would cost a
 * database round trip (or an upstream fetch) per package. When a version's requirements arrive, the
 * client already asks for the versions of every dependency that can matter (not dev/test/bundled), and
 * when those arrive, for the requirements of the version the resolver will most likely pick (the
 * highest satisfying the requirement; npm's `latest` tag first; PyPI: never a dependency behind a marker,
 * never a version whose metadata is still to be fetched). Guesses share the batches of real
 * questions, so a graph costs about two round trips per level; a wrong guess only reads rows that are
 * not used. The lookahead is bounded (LOOKAHEAD_LIMIT names) and stops when the resolution is done.
 */
import type { Queryable } from '../platform/db.ts';
import { bundleRows, isMangled, type BundledManifest } from '../resolve/npm-bundle.ts';
import { npmDependency } from '../resolve/npm-packument.ts';
import type { Attrs, Client, Dependency, ResolveSystem, VersionInfo } from '../resolve/types.ts';
import { maxSatisfying } from '../versions/index.ts';
import { packageRows } from './graph-read-through.ts';
import type { IngestedPackage, IngestedVersion } from './ingest/types.ts';
import { requirementsOf, versionsOf, type RequirementRow, type VersionRow } from './queries-dependencies.ts';

type Json = Record<string, any>;

const LOOKAHEAD_LIMIT = 5000;

/** Dependencies a resolution never follows below the root (dev, test, bundled copies). */
function notFollowed(d: Dependency): boolean {
  const scope = d.attrs.scope;
  return scope === 'dev' || scope === 'bundle' || d.attrs.dev !== undefined || d.attrs.test !== undefined;
}

class Batcher<K, V> {
  private pending = new Map<string, { key: K; resolve: (v: V) => void; reject: (e: unknown) => void }[]>();
  private scheduled = false;
  private readonly keyOf: (k: K) => string;
  private readonly run: (keys: K[]) => Promise<Map<string, V>>;
  private readonly fallback: V;

  constructor(keyOf: (k: K) => string, run: (keys: K[]) => Promise<Map<string, V>>, fallback: V) {
    this.keyOf = keyOf;
    this.run = run;
    this.fallback = fallback;
  }

  load(key: K): Promise<V> {
    return new Promise((resolve, reject) => {
      const k = this.keyOf(key);
      const list = this.pending.get(k) ?? [];
      list.push({ key, resolve, reject });
      this.pending.set(k, list);
      if (!this.scheduled) {
        this.scheduled = true;
        setTimeout(() => void this.flush(), 0); // a macrotask: every chain of microtasks under way joins the batch
      }
    });
  }

  private async flush() {
    const batch = this.pending;
    this.pending = new Map();
    this.scheduled = false;
    try {
      const got = await this.run([...batch.values()].map((l) => l[0]!.key));
      for (const [k, list] of batch) for (const w of list) w.resolve(got.get(k) ?? this.fallback);
    } catch (e) {
      for (const list of batch.values()) for (const w of list) w.reject(e);
    }
  }
}

export class PgResolveClient implements Client {
  readonly touched = new Set<string>();
  private readonly looked = new Set<string>();
  private readonly lookedVersions = new Set<string>();
  private lookahead = true;
  /** Published spelling of versions whose stored (canonical) form differs, by `name\0version`. */
  private readonly spellings = new Map<string, string>();
  private readonly system: ResolveSystem;
  private readonly vCache = new Map<string, Promise<readonly VersionInfo[]>>();
  private readonly rCache = new Map<string, Promise<readonly Dependency[] | null>>();
  private readonly vBatch: Batcher<string, VersionInfo[]>;
  private readonly rBatch: Batcher<{ name: string; version: string }, Dependency[] | null>;
  /** npm bundled copies by mangled name (filled when their bundler's requirements are read) */
  private readonly bundles = new Map<string, { info: VersionInfo; deps: Dependency[] }>();
  private readonly fetchMissing?: (name: string) => Promise<IngestedPackage | null>;
  private readonly fetchVersion?: (name: string, version: string) => Promise<IngestedVersion | null>;
  /** Versions listed without their metadata (`meta.pending`, PyPI), by `name\0version`. */
  private readonly pending = new Set<string>();

  constructor(db: Queryable, system: ResolveSystem, opts: {
    fetchMissing?: (name: string) => Promise<IngestedPackage | null>;
    fetchVersion?: (name: string, version: string) => Promise<IngestedVersion | null>;
  } = {}) {
    this.system = system;
    this.fetchMissing = opts.fetchMissing;
    this.fetchVersion = opts.fetchVersion;
    this.vBatch = new Batcher((n) => n, async (names) => {
      const { versions: rows, requirements } = await versionsOf(db, system, names, system === 'CARGO');
      return this.infos(rows, requirements);
    }, []);
    this.rBatch = new Batcher((k) => `${k.name}\u0000${k.version}`, async (keys) => {
      const rows = await requirementsOf(db, system, keys);
      return new Map(rows.map((r) => [`${r.name}\u0000${r.version}`, this.dependenciesOf(r.name, r.version, r.requirements ?? {})]));
    }, null);
  }

  /** Version rows as resolver VersionInfos by package; CARGO requirement rows (features) also prime the requirements cache. */
  private infos(rows: readonly VersionRow[], reqRows: readonly RequirementRow[] | null): Map<string, VersionInfo[]> {
    const reqs = reqRows ? new Map(reqRows.map((r) => [`${r.name}\u0000${r.version}`, r.requirements ?? {}])) : null;
    const out = new Map<string, VersionInfo[]>();
    for (const r of rows) {
      if (r.upstream_version && r.upstream_version !== r.version) this.spellings.set(`${r.name}\u0000${r.version}`, r.upstream_version);
      if (r.meta?.pending === true) this.pending.add(`${r.name}\u0000${r.version}`);
      const list = out.get(r.name) ?? [];
      const attrs = versionAttrs(this.system, r.version, r.meta ?? {}, r.dist_tags ?? {});
      const k = `${r.name}\u0000${r.version}`;
      const req = reqs?.get(k);
      if (req && this.system === 'CARGO') {
        const features = cargoFeatures(req);
        if (features) attrs.features = features;
      }
      if (req && !this.rCache.has(k)) this.rCache.set(k, Promise.resolve(this.dependenciesOf(r.name, r.version, req)));
      list.push({ name: r.name, version: r.version, attrs });
      out.set(r.name, list);
    }
    return out;
  }

  /** A package fetched by the read-through, answered from memory (it is written to the database later). */
  private fromPackage(pkg: IngestedPackage): VersionInfo[] {
    const rows = packageRows(pkg);
    return this.infos(rows.versions, rows.requirements).get(pkg.name) ?? [];
  }

  private dependenciesOf(name: string, version: string, req: Json): Dependency[] {
    const deps = toDependencies(this.system, req);
    const bundled = this.system === 'NPM' ? req.npm?.bundled : undefined;
    if (!Array.isArray(bundled) || bundled.length === 0) return deps;
    const b = bundleRows(name, version, bundled.map((x: Json): BundledManifest => ({
      path: String(x?.path ?? ''), name: String(x?.name ?? ''), version: String(x?.version ?? ''),
      deps: toDependencies('NPM', { npm: { dependencies: x?.dependencies ?? {} } }),
    })));
    for (const r of b.rows) this.bundles.set(r.info.name, r);
    return [...deps, ...b.content];
  }

  /** PyPI: a version listed without its metadata has it read on demand (the resolver considers it). */
  private async pypiRequirements(name: string, version: string): Promise<readonly Dependency[] | null> {
    await this.versions(name); // learns which versions are pending
    const k = `${name}\u0000${version}`;
    if (!this.pending.has(k)) return this.rBatch.load({ name, version });
    if (!this.fetchVersion) return null;
    const v = await this.fetchVersion(name, this.spelling(name, version));
    return v?.requirements ? this.dependenciesOf(name, version, v.requirements) : null;
  }

  /** Ends the lookahead (the resolution is done or aborted). */
  stopLookahead(): void {
    this.lookahead = false;
  }

  private lookAhead(deps: readonly Dependency[]): void {
    if (!this.lookahead) return;
    const bundled = new Set(deps.filter((d) => d.attrs.scope === 'bundle').map((d) => d.name)); // come with the tarball
    for (const d of deps) {
      if (notFollowed(d) || bundled.has(d.name) || (this.system === 'NPM' && isMangled(d.name))) continue;
      if (this.system === 'PYPI' && d.attrs.environment) continue; // a marker may exclude it: fetch only what pip would
      const key = `${d.name}\u0000${d.requirement}`;
      if (this.looked.has(key) || this.looked.size >= LOOKAHEAD_LIMIT) continue;
      this.looked.add(key);
      void this.versions(d.name).then((vs) => {
        const guess = this.lookahead ? likelyPick(this.system, vs, d.requirement) : null;
        // metadata read on demand (PyPI) is fetched for versions the resolver considers, never for a guess
        return guess && !this.pending.has(`${d.name}\u0000${guess}`) ? this.requirements(d.name, guess) : null;
      }).catch(() => {}); // a failed guess is asked again (and fails visibly) if the resolver needs it
    }
  }

  /** The version as the registry spells it (the resolver works on the canonical form). */
  spelling(name: string, version: string): string {
    return this.spellings.get(`${name}\u0000${version}`) ?? version;
  }

  versions(name: string): Promise<readonly VersionInfo[]> {
    if (this.system === 'NPM' && isMangled(name)) {
      const b = this.bundles.get(name);
      return Promise.resolve(b ? [b.info] : []);
    }
    let p = this.vCache.get(name);
    if (!p) {
      this.touched.add(name);
      p = this.vBatch.load(name).then(async (vs) => {
        if (vs.length > 0 || !this.fetchMissing) return vs;
        const pkg = await this.fetchMissing(name);
        return pkg && pkg.name === name ? this.fromPackage(pkg) : vs;
      });
      this.vCache.set(name, p);
    }
    return p;
  }

  requirements(name: string, version: string): Promise<readonly Dependency[] | null> {
    if (this.system === 'NPM' && isMangled(name)) {
      const b = this.bundles.get(name);
      return Promise.resolve(b && b.info.version === version ? b.deps : null);
    }
    const k = `${name}\u0000${version}`;
    let p = this.rCache.get(k);
    if (!p) this.rCache.set(k, (p = this.system === 'PYPI' ? this.pypiRequirements(name, version) : this.rBatch.load({ name, version })));
    if (this.lookahead && !this.lookedVersions.has(k)) {
      this.lookedVersions.add(k);
      void p.then((deps) => deps && this.lookAhead(deps), () => {});
    }
    return p;
  }
}

/** The version a resolver most likely picks for `requirement`: npm's `latest` when it satisfies, else the highest satisfying. */
function likelyPick(system: ResolveSystem, versions: readonly VersionInfo[], requirement: string): string | null {
  if (versions.length === 0) return null;
  if (system === 'NPM') {
    const latest = versions.find((v) => v.attrs.tags?.split(',').includes('latest'));
    if (latest && maxSatisfying(system, [latest.version], requirement || '*') !== null) return latest.version;
  }
  return maxSatisfying(system, versions.map((v) => v.version), requirement || (system === 'PYPI' ? '' : '*'));
}

function versionAttrs(system: ResolveSystem, version: string, meta: Json, distTags: Record<string, string>): Attrs {
  const a: Attrs = {};
  if (system === 'NPM') {
    const tags = Object.entries(distTags).filter(([, v]) => v === version).map(([t]) => t);
    if (tags.length) a.tags = tags.join(',');
    if (typeof meta.deprecated === 'string' || meta.deprecated === true) a.deprecated = ''; // '' (no message) is deprecated too
    if (Array.isArray(meta.os) && meta.os.length) a.os = meta.os.join(',');
    if (Array.isArray(meta.cpu) && meta.cpu.length) a.cpu = meta.cpu.join(',');
    if (Array.isArray(meta.libc) && meta.libc.length) a.libc = meta.libc.join(',');
    if (meta.engines && typeof meta.engines === 'object' && !Array.isArray(meta.engines)) a.engines = JSON.stringify(meta.engines);
  } else if (meta.yanked === true) a.blocked = '';
  if (system === 'CARGO' && typeof meta.links === 'string' && meta.links) a.links = meta.links;
  if (system === 'PYPI' && typeof meta.requiresPython === 'string' && meta.requiresPython.trim()) a.requirespython = meta.requiresPython.trim();
  return a;
}

/** requirements.cargo.features ([{name, implies}]) as the resolver's `features` attr (JSON object), or ''. */
function cargoFeatures(req: Json): string {
  const list = req.cargo?.features;
  if (!Array.isArray(list) || list.length === 0) return '';
  const o: Record<string, string[]> = {};
  for (const f of list) if (f && typeof f.name === 'string') o[f.name] = Array.isArray(f.implies) ? f.implies.map(String) : [];
  return JSON.stringify(o);
}

export function toDependencies(system: ResolveSystem, req: Json): Dependency[] {
  if (system === 'NPM') {
    const d = req.npm?.dependencies ?? {};
    const out: Dependency[] = [];
    const optional = new Set<string>((d.optionalDependencies ?? []).map((x: Json) => x.name));
    for (const x of d.dependencies ?? []) if (!optional.has(x.name)) out.push(npmDependency(x.name, x.requirement, {}));
    for (const x of d.optionalDependencies ?? []) out.push(npmDependency(x.name, x.requirement, { opt: '' }));
    const peerOpt = new Set<string>((d.peerDependencyMetadata ?? []).filter((m: Json) => m.optional).map((m: Json) => m.name));
    for (const x of d.peerDependencies ?? []) out.push(npmDependency(x.name, x.requirement, peerOpt.has(x.name) ? { scope: 'peer', opt: '' } : { scope: 'peer' }));
    for (const n of d.bundleDependencies ?? []) out.push({ name: n, requirement: '*', attrs: { scope: 'bundle' } });
    return out;
  }
  if (system === 'PYPI') {
    return (req.pypi?.dependencies ?? []).map((x: Json) => {
      const attrs: Attrs = {};
      if (x.environmentMarker) attrs.environment = x.environmentMarker;
      if (x.extras) attrs.enableddependencies = String(x.extras).replace(/\s+/g, '');
      return { name: String(x.projectName).toLowerCase().replace(/[-_.]+/g, '-'), requirement: x.versionSpecifier ?? '', attrs };
    });
  }
  if (system === 'MAVEN') {
    const m = req.maven ?? {};
    const one = (x: Json, origin?: string): Dependency => {
      const attrs: Attrs = {};
      if (x.scope && x.scope !== 'compile') attrs[x.scope === 'test' ? 'test' : 'scope'] = x.scope === 'test' ? '' : x.scope;
      if (x.optional === 'true' || x.optional === true) attrs.opt = '';
      if (x.classifier) attrs.mavenclassifier = x.classifier;
      if (x.type && x.type !== 'jar') attrs.mavenartifacttype = x.type;
      if (Array.isArray(x.exclusions) && x.exclusions.length) attrs.mavenexclusions = x.exclusions.join('|');
      if (origin) attrs.mavendependencyorigin = origin;
      return { name: x.resolvedName || x.name, requirement: x.resolvedVersion || x.version || '', attrs };
    };
    return [...(m.dependencies ?? []).map((x: Json) => one(x)), ...(m.dependencyManagement ?? []).map((x: Json) => one(x, 'management'))];
  }
  if (system === 'CARGO') {
    return (req.cargo?.dependencies ?? []).map((x: Json) => {
      const attrs: Attrs = {};
      if (x.kind === 'build' || x.kind === 'dev') attrs.scope = x.kind;
      if (x.optional === true) attrs.opt = '';
      if (x.packageAlias) attrs.knownas = String(x.packageAlias);
      if (Array.isArray(x.features) && x.features.length) attrs.features = x.features.map(String).join(',');
      if (x.usesDefaultFeatures === false) attrs.nodefault = '';
      if (x.target) attrs.environment = String(x.target);
      return { name: String(x.name), requirement: String(x.requirement ?? ''), attrs };
    });
  }
  return [];
}
