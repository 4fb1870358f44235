/**
 * Postgres-backed resolve Client over the insights tables. Lookups issued in the same macrotask are
 * batched into one query per kind (versions of packages; requirements of versions: batcher.ts), and every
 * answer is memoised for the request. Rows are mapped to the resolver vocabulary (src/resolve) by one
 * module per system, named as src/resolve names them (npm.ts, pypi.ts, maven.ts, cargo.ts, go.ts,
 * rubygems.ts, nuget.ts), which also hold the system's on-demand reads; this core dispatches to them
 * (system.ts: SystemReads) and looks ahead (lookahead.ts). Packages the database lacks are asked of
 * `fetchMissing` (graph-read-through.ts) and answered from memory.
 */
import type { Queryable } from '../../platform/db.ts';
import type { RawPom } from '../../resolve/maven-model.ts';
import type { Client, Dependency, ResolveSystem, VersionInfo } from '../../resolve/types.ts';
import { packageRows } from '../graph-read-through.ts';
import type { IngestedPackage } from '../ingest/types.ts';
import { requirementsOf, versionsOf, type RequirementRow, type VersionRow } from '../queries-dependencies.ts';
import { Batcher } from './batcher.ts';
import { cargoReads } from './cargo.ts';
import { GoReads } from './go.ts';
import { Lookahead } from './lookahead.ts';
import { MavenReads } from './maven.ts';
import { NpmReads } from './npm.ts';
import { nugetReads } from './nuget.ts';
import { PypiReads } from './pypi.ts';
import { rubygemsReads } from './rubygems.ts';
import { type ClientCore, type ClientOptions, type Json, type SystemReads, versionKey } from './system.ts';

const SYSTEMS: Record<ResolveSystem, (client: ClientCore, opts: ClientOptions) => SystemReads> = {
  NPM: (client, opts) => new NpmReads(client, opts.fetchBundled),
  PYPI: (client) => new PypiReads(client),
  MAVEN: (client) => new MavenReads(client),
  CARGO: () => cargoReads,
  GO: (client, opts) => new GoReads(client, opts.goMemory),
  RUBYGEMS: () => rubygemsReads,
  NUGET: () => nugetReads,
};

export class PgResolveClient implements Client, ClientCore {
  readonly touched = new Set<string>();
  readonly pending = new Set<string>();
  readonly db: Queryable;
  readonly fetchVersion: ClientOptions['fetchVersion'];
  private readonly fetchMissing: ClientOptions['fetchMissing'];
  /** Published spelling of versions whose stored (canonical) form differs, by versionKey. */
  private readonly spellings = new Map<string, string>();
  private readonly vCache = new Map<string, Promise<readonly VersionInfo[]>>();
  private readonly rCache = new Map<string, Promise<readonly Dependency[] | null>>();
  private readonly vBatch: Batcher<string, VersionInfo[]>;
  private readonly rBatch: Batcher<{ name: string; version: string }, Dependency[] | null>;
  private readonly reads: SystemReads;
  private readonly ahead: Lookahead;

  constructor(db: Queryable, system: ResolveSystem, opts: ClientOptions = {}) {
    this.db = db;
    this.fetchMissing = opts.fetchMissing;
    this.fetchVersion = opts.fetchVersion;
    this.reads = SYSTEMS[system](this, opts);
    this.ahead = new Lookahead(system, this, this.reads);
    this.vBatch = new Batcher(
      (n) => n,
      async (names) => {
        const { versions: rows, requirements } = await versionsOf(
          db,
          system,
          names,
          this.reads.versionsWithRequirements === true,
        );
        return this.infos(rows, requirements);
      },
      [],
    );
    this.rBatch = new Batcher(
      (k) => versionKey(k.name, k.version),
      async (keys) => {
        const rows = await requirementsOf(db, system, keys);
        return new Map(
          rows.map((r) => [
            versionKey(r.name, r.version),
            this.reads.dependencies(r.name, r.version, r.requirements ?? {}),
          ]),
        );
      },
      null,
    );
  }

  get lookingAhead(): boolean {
    return this.ahead.on;
  }

  /** Version rows as resolver VersionInfos by package; requirement rows read with them prime the requirements cache. */
  private infos(rows: readonly VersionRow[], reqRows: readonly RequirementRow[] | null): Map<string, VersionInfo[]> {
    const reqs = reqRows ? new Map(reqRows.map((r) => [versionKey(r.name, r.version), r.requirements ?? {}])) : null;
    const out = new Map<string, VersionInfo[]>();
    for (const r of rows) {
      const k = versionKey(r.name, r.version);
      if (r.upstream_version && r.upstream_version !== r.version) this.spellings.set(k, r.upstream_version);
      if (r.meta?.pending === true) this.pending.add(k);
      this.reads.noteVersion?.(r);
      const list = out.get(r.name) ?? [];
      const req: Json | undefined = reqs?.get(k);
      const attrs = this.reads.attrs(r, req);
      if (req && !this.reads.holdRequirements?.(k, req) && !this.rCache.has(k))
        this.rCache.set(k, Promise.resolve(this.reads.dependencies(r.name, r.version, req)));
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

  row(name: string, version: string): Promise<Dependency[] | null> {
    return this.rBatch.load({ name, version });
  }

  /** Maven: a version's POM as declared (maven.ts); no other system has POMs. */
  pom(name: string, version: string): Promise<RawPom | null> {
    return this.reads.pom ? this.reads.pom(name, version) : Promise.resolve(null);
  }

  /** Ends the lookahead (the resolution is done or aborted). */
  stopLookahead(): void {
    this.ahead.on = false;
  }

  lookAhead(deps: readonly Dependency[]): void {
    this.ahead.of(deps);
  }

  /** The version as the registry spells it (the resolver works on the canonical form). */
  spelling(name: string, version: string): string {
    return this.spellings.get(versionKey(name, version)) ?? version;
  }

  spell(name: string, version: string, spelled: string): void {
    this.spellings.set(versionKey(name, version), spelled);
  }

  versions(name: string): Promise<readonly VersionInfo[]> {
    const inMemory = this.reads.memoryVersions?.(name);
    if (inMemory) return Promise.resolve(inMemory);
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
    const inMemory = this.reads.memoryRequirements?.(name, version);
    if (inMemory !== undefined) return Promise.resolve(inMemory);
    const k = versionKey(name, version);
    let p = this.rCache.get(k);
    if (!p) {
      p = this.reads.requirements ? this.reads.requirements(name, version) : this.row(name, version);
      this.rCache.set(k, p);
    }
    this.ahead.afterRequirements(k, p);
    return p;
  }
}
