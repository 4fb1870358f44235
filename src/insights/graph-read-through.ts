/**
 * Read-through of a whole dependency graph. While a resolver runs, every package it asks for that the
 * database lacks is fetched from the upstream through the same adapters as the package routes
 * (ingest/), answered to the resolver from memory at once, and written afterwards in one batched
 * transaction (`persist`). Upstream fetches are bounded per unit of work by a FetchBudget
 * (INSIGHTS_FETCH_LIMIT fetches in all, INSIGHTS_FETCH_CONCURRENCY in flight); when the limit is hit
 * or an upstream fails, the read-through is marked incomplete and `GraphIncomplete` aborts the
 * resolution: the caller stores what was fetched, answers 503 and finishes in the background, and
 * never caches the graph. A package the upstream does not have is complete data (the resolver
 * reports it in the graph).
 *
 * npm: a version whose tarball is not read yet (ingest/npm-pending.ts) has it read when the resolver asks
 * for its requirements (`fetchBundled`, within the same budget), and its bundled manifests are stored
 * with the rest; a tarball that cannot be read makes the graph incomplete, never a graph without them.
 *
 * Advisories of the packages fetched here are not fetched inline (one more upstream request per
 * package): `persist` returns their names and the caller queues `/insights/advisories` for them.
 */
import type { Db } from '../platform/db.ts';
import type { System } from '../versions/index.ts';
import { fetchForResolve, fetchVersionForResolve } from './ingest/index.ts';
import { FetchBudget, FetchLimitReached } from './ingest/http.ts';
import { UpstreamError, UpstreamNotFound, type IngestedPackage, type IngestedVersion } from './ingest/types.ts';
import { canon } from '../versions/index.ts';
import { prepareVersions, storeNewPackages, storeVersionDetails } from './queries-write.ts';
import type { RequirementRow, VersionRow } from './queries-dependencies.ts';
import { insightsConfig } from './config.ts';
import { NPM_TARBALL, readBundled } from './ingest/npm-pending.ts';
import type { Bundle } from './ingest/npm-tarball.ts';
import { storeNpmBundled } from './queries-npm-pending.ts';

export class GraphIncomplete extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'GraphIncomplete';
  }
}

export function fetchBudgetFor(env: Record<string, unknown>): FetchBudget {
  const cfg = insightsConfig(env);
  return new FetchBudget(cfg.INSIGHTS_FETCH_LIMIT, cfg.INSIGHTS_FETCH_CONCURRENCY);
}

export class GraphReadThrough {
  readonly budget: FetchBudget;
  /** Packages fetched in this unit of work, by canonical name. */
  readonly fetched = new Map<string, IngestedPackage>();
  /** Set once the fetch limit is reached: every later fetch fails at once. */
  incomplete = '';
  /** npm bundled manifests read on demand, by `name\0version`. */
  private readonly bundled = new Map<string, { name: string; version: string; bundled: Bundle[] }>();
  /** Versions whose metadata was read on demand (PyPI), by package name. */
  private readonly details = new Map<string, IngestedVersion[]>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly env: Record<string, unknown>;
  private readonly system: System;

  constructor(env: Record<string, unknown>, system: System, budget: FetchBudget = fetchBudgetFor(env)) {
    this.env = env;
    this.system = system;
    this.budget = budget;
  }

  /** The package as the upstream has it, null when the upstream has no such package; throws GraphIncomplete. */
  fetch(name: string): Promise<IngestedPackage | null> {
    return this.track(async () => {
      const pkg = await fetchForResolve(this.env, this.system, name);
      this.fetched.set(pkg.name, pkg);
      return pkg;
    });
  }

  /** The metadata of one version of a partially read package (PyPI, Maven), by its published spelling; null when the upstream has none. */
  fetchVersion(name: string, version: string): Promise<IngestedVersion | null> {
    return this.track(async () => {
      const v = await fetchVersionForResolve(this.env, this.system, name, version);
      const list = this.details.get(name) ?? [];
      list.push(v);
      this.details.set(name, list);
      return v;
    });
  }

  /** npm: the bundled manifests of one version's tarball; a tarball the registry does not have is incomplete data. */
  fetchBundled(name: string, version: string, tarball: string): Promise<Bundle[]> {
    return this.track(async () => {
      const bundled = await readBundled(this.env, tarball);
      this.bundled.set(`${name}\u0000${version}`, { name, version, bundled });
      return bundled;
    }).then((b) => {
      if (b === null) throw new GraphIncomplete(`the tarball of npm ${name}@${version} was not found`);
      return b;
    });
  }

  private track<T>(fn: () => Promise<T>): Promise<T | null> {
    if (this.incomplete) return Promise.reject(new GraphIncomplete(this.incomplete));
    const p = this.failures(fn);
    this.inFlight.add(p);
    void p.catch(() => {}).finally(() => this.inFlight.delete(p));
    return p;
  }

  private async failures<T>(fn: () => Promise<T>): Promise<T | null> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof UpstreamNotFound) return null;
      if (err instanceof FetchLimitReached) {
        this.incomplete ||= `${err.message} (INSIGHTS_FETCH_LIMIT)`; // no fetch can succeed any more
        throw new GraphIncomplete(this.incomplete);
      }
      if (err instanceof UpstreamError) throw new GraphIncomplete(`upstream failed: ${err.message}`);
      throw err;
    }
  }

  /** Waits for fetches still in flight (after a resolution was aborted). */
  async settle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /**
   * Writes every fetched package the database still lacks (with the versions read on demand filled in),
   * in one transaction, then the versions read on demand of packages stored before; returns the names fetched.
   */
  async persist(db: Db): Promise<string[]> {
    const pkgs = [...this.fetched.values()].map((p) => this.withBundled(this.withDetails(p)));
    await storeNewPackages(db, pkgs);
    for (const [name, versions] of this.details) await storeVersionDetails(db, this.system, name, versions);
    for (const b of this.bundled.values()) await storeNpmBundled(db, b.name, b.version, b.bundled); // no-op when stored above
    return pkgs.map((p) => p.name);
  }

  /** npm: fetched versions carry the bundled manifests read for them (and are no longer pending). */
  private withBundled(pkg: IngestedPackage): IngestedPackage {
    if (this.system !== 'NPM' || this.bundled.size === 0) return pkg;
    for (const v of pkg.versions) {
      const b = this.bundled.get(`${pkg.name}\u0000${v.version}`);
      const npm = (v.requirements as { npm?: { bundled: Bundle[] } } | null)?.npm;
      if (!b || !npm) continue;
      npm.bundled = b.bundled;
      delete v.meta[NPM_TARBALL];
    }
    return pkg;
  }

  private withDetails(pkg: IngestedPackage): IngestedPackage {
    const filled = this.details.get(pkg.name);
    if (!filled) return pkg;
    const byCanon = new Map(filled.map((v) => [canon(this.system, v.version) ?? v.version, v]));
    const versions = pkg.versions.map((v) => byCanon.get(canon(this.system, v.version) ?? v.version) ?? v);
    return { ...pkg, versions, partial: versions.some((v) => v.meta.pending === true) };
  }
}

/** A fetched package as the rows the Postgres resolve client reads (what `storePackage` would write). */
export function packageRows(pkg: IngestedPackage): { versions: VersionRow[]; requirements: RequirementRow[] } {
  const prepared = prepareVersions(pkg);
  const distTags = pkg.distTags ?? {};
  return {
    versions: prepared.map((v) => ({
      name: pkg.name,
      version: v.canonical,
      upstream_version: v.version,
      meta: v.meta,
      dist_tags: distTags,
    })),
    requirements: prepared
      .filter((v) => v.requirements)
      .map((v) => ({ name: pkg.name, version: v.canonical, requirements: v.requirements! })),
  };
}
