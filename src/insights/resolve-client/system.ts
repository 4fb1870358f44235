/**
 * What the client core (index.ts) and its system modules (npm.ts, pypi.ts, maven.ts, cargo.ts, go.ts,
 * rubygems.ts, nuget.ts) share: the part of the client a system module may call (ClientCore), the part of a
 * system the core dispatches to (SystemReads), and the client's options.
 */
import type { Queryable } from '../../platform/db.ts';
import type { RawPom } from '../../resolve/maven-model.ts';
import type { Attrs, Dependency, VersionInfo } from '../../resolve/types.ts';
import type { GoModMemory } from '../go-mod-memory.ts';
import type { IngestedPackage, IngestedVersion } from '../ingest/types.ts';
import type { VersionRow } from '../queries-dependencies.ts';

// biome-ignore lint/suspicious/noExplicitAny: stored JSON documents, read field by field with checks
export type Json = Record<string, any>;

/** The key of a version in the client's maps. */
export const versionKey = (name: string, version: string): string => `${name}\u0000${version}`;

export interface ClientOptions {
  fetchMissing?: (name: string) => Promise<IngestedPackage | null>;
  fetchVersion?: (name: string, version: string) => Promise<IngestedVersion | null>;
  /** npm: the bundled manifests of a version whose tarball is not read yet (one fetch, stored later). */
  fetchBundled?: (name: string, version: string, tarball: string) => Promise<readonly Json[]>;
  /** Go: complete go.mod files read are kept here for later resolutions in this isolate. */
  goMemory?: GoModMemory;
}

/** The client as its system modules see it. */
export interface ClientCore {
  readonly db: Queryable;
  /** Names whose rows the resolution read (the graph cache entry is dropped when one of them changes). */
  readonly touched: Set<string>;
  /** Versions listed without their metadata (`meta.pending`, PyPI and Maven), by versionKey. */
  readonly pending: ReadonlySet<string>;
  readonly fetchVersion?: (name: string, version: string) => Promise<IngestedVersion | null>;
  /** False once the resolution is done or aborted. */
  readonly lookingAhead: boolean;
  versions(name: string): Promise<readonly VersionInfo[]>;
  requirements(name: string, version: string): Promise<readonly Dependency[] | null>;
  /** The stored requirements row of a version, mapped, in the batch of this macrotask. */
  row(name: string, version: string): Promise<Dependency[] | null>;
  /** The version as the registry spells it. */
  spelling(name: string, version: string): string;
  /** Records the published spelling of a version whose stored (canonical) form differs. */
  spell(name: string, version: string, spelled: string): void;
  lookAhead(deps: readonly Dependency[]): void;
}

/** One system's part of the client: its rows in the resolver vocabulary (src/resolve) and its on-demand reads. */
export interface SystemReads {
  /** The version attrs of a row; `req` is its requirements document when the versions batch read it too. */
  attrs(row: VersionRow, req: Json | undefined): Attrs;
  /** Whether a versions batch also reads the requirements rows of the versions (one more query). */
  readonly versionsWithRequirements?: boolean;
  /** Bookkeeping on each version row read (before its attrs). */
  noteVersion?(row: VersionRow): void;
  /** A requirements document as dependencies. */
  dependencies(name: string, version: string, req: Json): Dependency[];
  /** A requirements document the versions batch read: true when the module holds it instead of the cache. */
  holdRequirements?(key: string, req: Json): boolean;
  /** Requirements read on demand; without it, the stored row. */
  requirements?(name: string, version: string): Promise<readonly Dependency[] | null>;
  /** Versions and requirements answered from memory without a query (undefined: not the module's). */
  memoryVersions?(name: string): readonly VersionInfo[] | undefined;
  memoryRequirements?(name: string, version: string): readonly Dependency[] | null | undefined;
  /** Maven: a POM as declared. */
  pom?(name: string, version: string): Promise<RawPom | null>;
  /** Lookahead: false when the system reads none; `skipAhead`, dependencies never guessed for. */
  readonly looksAhead?: false;
  skipAhead?(d: Dependency): boolean;
  /** Lookahead done by the module itself for one dependency (true when it handled it). */
  aheadOf?(d: Dependency): boolean;
  /** Whether the guessed version may be read ahead (not when reading it costs an upstream fetch). */
  mayReadAhead?(key: string): boolean;
}

/** Version attrs every system but npm has: `blocked` for a yanked version. */
export function yankedAttrs(meta: Json): Attrs {
  return meta.yanked === true ? { blocked: '' } : {};
}

/** A list field of a stored document, [] when absent or not a list. */
export const list = (x: unknown): Json[] => (Array.isArray(x) ? x : []);
