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
 *  MAVEN `pom()` answers each POM as declared (requirements.maven plus meta packaging/relocation, the
 *        version in its published spelling) and the resolver builds effective models from them
 *        (src/resolve/maven-model.ts); a version listed `pending` (read through for a resolution) has its
 *        POM read on demand, and so has a parent or BOM the repository's metadata does not list;
 *        `requirements()` keeps the declared rows (dependencies, then dependencyManagement with origin
 *        `management`);
 *  CARGO meta {yanked, links} -> blocked, links; requirements.cargo.features -> the `features`
 *        version attr (so a versions batch also reads the requirements rows of those versions, one
 *        more query, and primes the requirements cache with them); cargo dependencies -> real crate
 *        name, scope build|dev, opt, knownas (packageAlias), features, nodefault, environment (target);
 *  GO    requirements.go direct and indirect requires -> dependencies (requirement the version written,
 *        attr indirect), each with attr modulego = the go directive of its go.mod (graph pruning); versions
 *        listed `pending` (read through), or not listed (pseudo-versions), have their go.mod read on demand (and
 *        kept: a pseudo-version's in `unlisted_requirements`); every stored go.mod of a graph is read in one query;
 *  RUBYGEMS meta {platforms, requiredRuby, linuxRuntimeDependencies} + the published spelling -> platforms,
 *        requiredruby, linuxdependencies, spelling; runtimeDependencies -> dependencies (a versions batch also
 *        reads the requirements rows: Bundler's possibility sets compare the dependencies of every candidate);
 *  NUGET dependencyGroups -> dependencies with attr framework (an empty group as one nameless entry).
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
import { mavenDependency } from '../resolve/maven.ts';
import type { PomDependency, RawPom } from '../resolve/maven-model.ts';
import type { Attrs, Client, Dependency, ResolveSystem, VersionInfo } from '../resolve/types.ts';
import { canon, maxSatisfying } from '../versions/index.ts';
import { normalizeNugetId, normalizePypiName } from '../versions/names/index.ts';
import { GraphIncomplete, packageRows } from './graph-read-through.ts';
import { NPM_TARBALL } from './ingest/npm-pending.ts';
import type { GoModMemory } from './go-mod-memory.ts';
import type { IngestedPackage, IngestedVersion } from './ingest/types.ts';
import {
  goModClosure,
  requirementsOf,
  versionsOf,
  type GoModRow,
  type RequirementRow,
  type VersionRow,
} from './queries-dependencies.ts';

// biome-ignore lint/suspicious/noExplicitAny: stored JSON documents, read field by field with checks
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
  /** npm: versions whose tarball (bundled manifests) is not read yet (NPM_TARBALL), by `name\0version`. */
  private readonly tarballs = new Map<string, string>();
  /** npm: the requirements of those versions as fetched, without bundled manifests. */
  private readonly unbundled = new Map<string, Json>();
  private readonly fetchBundled?: (name: string, version: string, tarball: string) => Promise<readonly Json[]>;
  /** Versions listed without their metadata (`meta.pending`, PyPI and Maven), by `name\0version`. */
  private readonly pending = new Set<string>();
  /** Maven: version meta (packaging, relocation) by `name\0version`, and the POMs read (memoised). */
  private readonly metas = new Map<string, Json>();
  private readonly raw = new Map<string, Json>();
  private readonly poms = new Map<string, Promise<RawPom | null>>();
  /** Go: the stored go.mod files of the resolution, read in one round trip when the root's is first asked for. */
  private goMods?: Promise<Map<string, GoModRow>>;
  private readonly goMemory?: GoModMemory;
  private readonly db: Queryable;

  constructor(
    db: Queryable,
    system: ResolveSystem,
    opts: {
      fetchMissing?: (name: string) => Promise<IngestedPackage | null>;
      fetchVersion?: (name: string, version: string) => Promise<IngestedVersion | null>;
      /** npm: the bundled manifests of a version whose tarball is not read yet (one fetch, stored later). */
      fetchBundled?: (name: string, version: string, tarball: string) => Promise<readonly Json[]>;
      /** Go: complete go.mod files read are kept here for later resolutions in this isolate. */
      goMemory?: GoModMemory;
    } = {},
  ) {
    this.db = db;
    this.system = system;
    this.goMemory = opts.goMemory;
    this.fetchMissing = opts.fetchMissing;
    this.fetchVersion = opts.fetchVersion;
    this.fetchBundled = opts.fetchBundled;
    this.vBatch = new Batcher(
      (n) => n,
      async (names) => {
        const { versions: rows, requirements } = await versionsOf(
          db,
          system,
          names,
          system === 'CARGO' || system === 'RUBYGEMS',
        );
        return this.infos(rows, requirements);
      },
      [],
    );
    this.rBatch = new Batcher(
      (k) => `${k.name}\u0000${k.version}`,
      async (keys) => {
        const rows = await requirementsOf(db, system, keys);
        return new Map(
          rows.map((r) => [
            `${r.name}\u0000${r.version}`,
            this.dependenciesOf(r.name, r.version, r.requirements ?? {}),
          ]),
        );
      },
      null,
    );
  }

  /** Version rows as resolver VersionInfos by package; CARGO requirement rows (features) also prime the requirements cache. */
  private infos(rows: readonly VersionRow[], reqRows: readonly RequirementRow[] | null): Map<string, VersionInfo[]> {
    const reqs = reqRows ? new Map(reqRows.map((r) => [`${r.name}\u0000${r.version}`, r.requirements ?? {}])) : null;
    const out = new Map<string, VersionInfo[]>();
    for (const r of rows) {
      if (r.upstream_version && r.upstream_version !== r.version)
        this.spellings.set(`${r.name}\u0000${r.version}`, r.upstream_version);
      if (r.meta?.pending === true) this.pending.add(`${r.name}\u0000${r.version}`);
      if (this.system === 'NPM' && typeof r.meta?.[NPM_TARBALL] === 'string')
        this.tarballs.set(`${r.name}\u0000${r.version}`, r.meta[NPM_TARBALL]);
      if (this.system === 'MAVEN') this.metas.set(`${r.name}\u0000${r.version}`, r.meta ?? {});
      const list = out.get(r.name) ?? [];
      const attrs = versionAttrs(this.system, r.version, r.meta ?? {}, r.dist_tags ?? {});
      if (this.system === 'RUBYGEMS') attrs.spelling = r.upstream_version || r.version; // gem order reads the published form
      const k = `${r.name}\u0000${r.version}`;
      const req = reqs?.get(k);
      if (req && this.system === 'CARGO') {
        const features = cargoFeatures(req);
        if (features) attrs.features = features;
      }
      if (req && this.tarballs.has(k))
        this.unbundled.set(k, req); // its bundled manifests are read when it is asked for
      else if (req && !this.rCache.has(k))
        this.rCache.set(k, Promise.resolve(this.dependenciesOf(r.name, r.version, req)));
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
    if (this.system === 'MAVEN') this.raw.set(`${name}\u0000${version}`, req);
    const deps = toDependencies(this.system, req);
    return this.system === 'NPM' ? this.withBundled(name, version, deps, req.npm?.bundled) : deps;
  }

  /** npm: the bundled manifests of `name@version` join its dependencies (as bundle content) and the client's packages. */
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
          deps: toDependencies('NPM', { npm: { dependencies: x?.dependencies ?? {} } }),
        }),
      ),
    );
    for (const r of b.rows) this.bundles.set(r.info.name, r);
    return [...deps, ...b.content];
  }

  /**
   * npm: a version whose tarball is not read yet (ingest/npm-pending.ts) has its bundled manifests read now,
   * once, when the resolver asks for its requirements; without a way to read it the graph is incomplete.
   */
  private async npmRequirements(name: string, version: string): Promise<readonly Dependency[] | null> {
    const row = this.rBatch.load({ name, version }); // in the same round trip as the version list
    row.catch(() => {});
    await this.versions(name);
    const k = `${name}\u0000${version}`;
    const tarball = this.tarballs.get(k);
    const raw = this.unbundled.get(k);
    const base = raw ? toDependencies('NPM', raw) : await row;
    if (!tarball || !base) return base;
    if (!this.fetchBundled) throw new GraphIncomplete(`the tarball of npm ${name}@${version} is not read yet`);
    return this.withBundled(name, version, [...base], await this.fetchBundled(name, version, tarball));
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

  /**
   * Go: a go.mod stored with the module is read from its row (all of the resolution's stored go.mod files at
   * once, goModClosure; a pseudo-version's from `unlisted_requirements`); one listed `pending`, one not stored
   * yet, and one stored before the go directive was kept are read from the proxy.
   */
  private async goRequirements(name: string, version: string): Promise<readonly Dependency[] | null> {
    // the first go.mod asked for is the root's: one query reads every stored go.mod the resolution reads
    this.goMods ??= goModClosure(this.db, name, version).then(
      (rows) => new Map(rows.map((r) => [`${r.name}\u0000${r.version}`, r])),
    );
    const k = `${name}\u0000${version}`;
    const stored = (await this.goMods).get(k);
    if (stored?.ready) {
      const deps = this.dependenciesOf(name, version, stored.requirements ?? {});
      if (deps.length === 0 || deps[0]!.attrs.modulego !== undefined) {
        this.touched.add(name);
        const spelled = stored.upstream_version;
        if (spelled && spelled !== version) this.spellings.set(k, spelled);
        return this.remember(name, version, deps, stored.listed);
      }
    }
    const row = this.rBatch.load({ name, version }); // in the same round trip as the version list
    row.catch(() => {});
    const listed = (await this.versions(name)).some((v) => v.version === version);
    if (listed && !this.pending.has(k)) {
      const deps = await row;
      if (deps && (deps.length === 0 || deps[0]!.attrs.modulego !== undefined))
        return this.remember(name, version, deps, true);
    }
    if (!this.fetchVersion) return null;
    const v = await this.fetchVersion(name, version);
    if (!v?.requirements) return null;
    this.touched.add(name);
    return this.remember(name, version, this.dependenciesOf(name, version, v.requirements), listed);
  }

  /** Go: a complete go.mod joins the isolate's memory (go-mod-memory.ts) as it is answered. */
  private remember(name: string, version: string, deps: readonly Dependency[], listed: boolean): readonly Dependency[] {
    const spelling = this.spellings.get(`${name}\u0000${version}`);
    this.goMemory?.put(name, version, { deps, listed, ...(spelling ? { spelling } : {}) });
    return deps;
  }

  /**
   * Maven: the POM of `name` at `version` (canonical or as a POM writes it) as declared, null when the
   * repository has none. Stored versions are read from their requirements row; pending ones, and
   * versions the package's metadata does not list (parents, BOMs), are read on demand.
   */
  pom(name: string, version: string): Promise<RawPom | null> {
    const c = canon('MAVEN', version) ?? version;
    const k = `${name}\u0000${c}`;
    let p = this.poms.get(k);
    if (!p) {
      p = this.readPom(name, version, c);
      this.poms.set(k, p);
      if (this.lookahead) {
        // the parent chain is read one POM after another: ask for the next one as soon as this one is here
        void p
          .then((pom) =>
            this.lookahead && pom?.parent && !pom.parent.version.includes('${')
              ? this.pom(pom.parent.name, pom.parent.version)
              : null,
          )
          .catch(() => {});
      }
    }
    return p;
  }

  private async readPom(name: string, asked: string, c: string): Promise<RawPom | null> {
    const k = `${name}\u0000${c}`;
    // the stored row is asked for in the same round trip as the version list (a parent or BOM is usually stored with it)
    const row = this.rBatch.load({ name, version: c });
    row.catch(() => {});
    const listed = (await this.versions(name)).some((v) => v.version === c);
    let req: Json | undefined;
    let meta: Json | undefined;
    let spelled = listed ? this.spelling(name, c) : asked;
    if (listed && !this.pending.has(k)) {
      const deps = await row; // the row's dependencies, already mapped (dependenciesOf kept its raw form)
      req = this.raw.get(k);
      meta = this.metas.get(k);
      if (deps && this.lookahead) this.lookAhead(deps);
    } else if (this.fetchVersion) {
      const v = await this.fetchVersion(name, spelled);
      if (v?.requirements) {
        req = v.requirements;
        meta = v.meta;
        spelled = v.version;
        this.touched.add(name);
        if (this.lookahead) this.lookAhead(toDependencies('MAVEN', req));
      }
    }
    if (!req) return null;
    return rawPom(name, spelled, req, meta ?? {});
  }

  /** Ends the lookahead (the resolution is done or aborted). */
  stopLookahead(): void {
    this.lookahead = false;
  }

  private lookAhead(deps: readonly Dependency[]): void {
    if (!this.lookahead || this.system === 'GO') return; // Go: the resolver reads each level's go.mod files at once
    const bundled = new Set(deps.filter((d) => d.attrs.scope === 'bundle').map((d) => d.name)); // come with the tarball
    for (const d of deps) {
      if (!d.name || notFollowed(d) || bundled.has(d.name) || (this.system === 'NPM' && isMangled(d.name))) continue;
      if (this.system === 'PYPI' && d.attrs.environment) continue; // a marker may exclude it: fetch only what pip would
      const key = `${d.name}\u0000${d.requirement}`;
      if (this.looked.has(key) || this.looked.size >= LOOKAHEAD_LIMIT) continue;
      this.looked.add(key);
      if (this.system === 'MAVEN') {
        if (d.name.includes('${') || d.requirement.includes('${')) continue;
        if (d.attrs.mavendependencyorigin === 'management' && d.attrs.scope !== 'import') continue; // a BOM may manage hundreds
        void this.versions(d.name)
          .then((vs) => {
            const exact = canon('MAVEN', d.requirement);
            return this.lookahead && exact && vs.some((v) => v.version === exact)
              ? this.pom(d.name, d.requirement)
              : null;
          })
          .catch(() => {});
        continue;
      }
      void this.versions(d.name)
        .then((vs) => {
          const guess = this.lookahead ? likelyPick(this.system, vs, d.requirement) : null;
          // metadata read on demand (PyPI) is fetched for versions the resolver considers, never for a guess
          const k = `${d.name}\u0000${guess}`;
          return guess && !this.pending.has(k) && !this.tarballs.has(k) ? this.requirements(d.name, guess) : null;
        })
        .catch(() => {}); // a failed guess is asked again (and fails visibly) if the resolver needs it
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
    if (!p) {
      p =
        this.system === 'PYPI'
          ? this.pypiRequirements(name, version)
          : this.system === 'GO'
            ? this.goRequirements(name, version)
            : this.system === 'NPM'
              ? this.npmRequirements(name, version)
              : this.rBatch.load({ name, version });
      this.rCache.set(k, p);
    }
    if (this.lookahead && !this.lookedVersions.has(k)) {
      this.lookedVersions.add(k);
      void p.then(
        (deps) => deps && this.lookAhead(deps),
        () => {},
      );
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
  return maxSatisfying(
    system,
    versions.map((v) => v.version),
    requirement || (system === 'PYPI' ? '' : '*'),
  );
}

function versionAttrs(system: ResolveSystem, version: string, meta: Json, distTags: Record<string, string>): Attrs {
  const a: Attrs = {};
  if (system === 'NPM') {
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
  } else if (meta.yanked === true) a.blocked = '';
  if (system === 'CARGO' && typeof meta.links === 'string' && meta.links) a.links = meta.links;
  if (system === 'PYPI' && typeof meta.requiresPython === 'string' && meta.requiresPython.trim())
    a.requirespython = meta.requiresPython.trim();
  if (system === 'RUBYGEMS') {
    if (Array.isArray(meta.platforms) && meta.platforms.length) a.platforms = meta.platforms.map(String).join(',');
    else if (typeof meta.platform === 'string' && meta.platform) a.platforms = meta.platform;
    if (typeof meta.requiredRuby === 'string' && meta.requiredRuby.trim()) a.requiredruby = meta.requiredRuby.trim();
    if (Array.isArray(meta.linuxRuntimeDependencies))
      a.linuxdependencies = JSON.stringify(meta.linuxRuntimeDependencies);
  }
  if (system === 'NUGET' && meta.listed === false) a.unlisted = '';
  return a;
}

/** requirements.cargo.features ([{name, implies}]) as the resolver's `features` attr (JSON object), or ''. */
function cargoFeatures(req: Json): string {
  const list = req.cargo?.features;
  if (!Array.isArray(list) || list.length === 0) return '';
  const o: Record<string, string[]> = {};
  for (const f of list)
    if (f && typeof f.name === 'string') o[f.name] = Array.isArray(f.implies) ? f.implies.map(String) : [];
  return JSON.stringify(o);
}

export function toDependencies(system: ResolveSystem, req: Json): Dependency[] {
  if (system === 'NPM') {
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
  if (system === 'PYPI') {
    return (req.pypi?.dependencies ?? []).map((x: Json) => {
      const attrs: Attrs = {};
      if (x.environmentMarker) attrs.environment = x.environmentMarker;
      if (x.extras) attrs.enableddependencies = String(x.extras).replace(/\s+/g, '');
      return { name: normalizePypiName(String(x.projectName)), requirement: x.versionSpecifier ?? '', attrs };
    });
  }
  if (system === 'MAVEN') {
    const m = req.maven ?? {};
    const one = (x: Json, origin?: string) =>
      mavenDependency(
        {
          ...pomDependency(x),
          name: x.resolvedName || String(x.name ?? ''),
          version: x.resolvedVersion || String(x.version ?? ''),
        },
        origin,
      );
    return [
      ...(m.dependencies ?? []).map((x: Json) => one(x)),
      ...(m.dependencyManagement ?? []).map((x: Json) => one(x, 'management')),
    ];
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
  if (system === 'GO') {
    const g = req.go ?? {};
    // a row stored before the go directive was kept: a placeholder without `modulego`, so the client reads it again
    if (typeof g.goVersion !== 'string') return [{ name: '', requirement: '', attrs: {} }];
    const one = (x: Json, indirect: boolean): Dependency => ({
      name: String(x.name),
      requirement: String(x.requirement),
      attrs: { modulego: g.goVersion, ...(indirect ? { indirect: '' } : {}) },
    });
    const list = (x: unknown) => (Array.isArray(x) ? x : []) as Json[];
    return [
      ...list(g.directDependencies).map((x) => one(x, false)),
      ...list(g.indirectDependencies).map((x) => one(x, true)),
    ];
  }
  if (system === 'RUBYGEMS') {
    const list = req.rubygems?.runtimeDependencies;
    return (Array.isArray(list) ? list : []).map((x: Json) => ({
      name: String(x.name),
      requirement: String(x.requirement ?? ''),
      attrs: {},
    }));
  }
  if (system === 'NUGET') {
    // a group without dependencies still counts when its framework is the nearest: it is kept as a nameless entry
    return (req.nuget?.dependencyGroups ?? []).flatMap((g: Json) => {
      const attrs = { framework: String(g?.targetFramework ?? '') };
      const list: Json[] = Array.isArray(g?.dependencies) ? g.dependencies : [];
      return list.length
        ? list.map((x) => ({
            name: normalizeNugetId(String(x.name)),
            requirement: String(x.requirement ?? ''),
            attrs: { ...attrs },
          }))
        : [{ name: '', requirement: '', attrs }];
    });
  }
  return [];
}

/** A stored POM dependency (ingest/maven.ts) in the model builder's shape. */
function pomDependency(x: Json): PomDependency {
  return {
    name: String(x?.name ?? ''),
    version: String(x?.version ?? ''),
    classifier: String(x?.classifier ?? ''),
    type: String(x?.type || 'jar'),
    scope: String(x?.scope ?? ''),
    optional: String(x?.optional ?? ''),
    exclusions: Array.isArray(x?.exclusions) ? x.exclusions.map(String) : [],
  };
}

/** A stored Maven version (requirements.maven + meta) as the POM the model builder reads. */
function rawPom(name: string, version: string, req: Json, meta: Json): RawPom {
  const m = req.maven ?? {};
  const props = (list: unknown) =>
    (Array.isArray(list) ? list : []).map((p: Json) => ({
      name: String(p?.name ?? ''),
      value: String(p?.value ?? ''),
    }));
  const deps = (list: unknown) => (Array.isArray(list) ? list : []).map(pomDependency);
  const parent =
    m.parent && typeof m.parent.name === 'string'
      ? { name: m.parent.name, version: String(m.parent.version ?? '') }
      : undefined;
  const r = meta.relocation;
  return {
    name,
    version,
    packaging: typeof meta.packaging === 'string' ? meta.packaging : 'jar',
    ...(parent ? { parent } : {}),
    dependencies: deps(m.dependencies),
    dependencyManagement: deps(m.dependencyManagement),
    properties: props(m.properties),
    profiles: (Array.isArray(m.profiles) ? m.profiles : []).map((p: Json) => ({
      id: String(p?.id ?? ''),
      ...(p?.activation ? { activation: p.activation } : {}),
      dependencies: deps(p?.dependencies),
      dependencyManagement: deps(p?.dependencyManagement),
      properties: props(p?.properties),
    })),
    ...(r && typeof r === 'object'
      ? {
          relocation: {
            groupId: String(r.groupId ?? ''),
            artifactId: String(r.artifactId ?? ''),
            version: String(r.version ?? ''),
          },
        }
      : {}),
  };
}
