/**
 * What every loopback registry-with-feed offers the change-feed tests and `npm run bench:freshness`: the
 * variables that point the insights function at it, and the three events a feed reports (a publication,
 * a removal, a change that changes nothing). `failing` names packages whose documents answer 500,
 * `fake.down` makes everything answer 503 (an outage).
 */
import type { Fake } from '../../../test/support/fakes/http-fake.ts';

export interface FeedRegistry {
  registry: string;
  system: 'NPM' | 'PYPI' | 'CARGO' | 'RUBYGEMS' | 'GO' | 'NUGET' | 'MAVEN';
  fake: Fake;
  /** Upstream variables for the insights function (OSV answers `{}` here too). */
  env: Record<string, string>;
  failing: Set<string>;
  /** Adds `version` of `name` (creating the package) and appends the change to the feed. */
  publish(name: string, version: string, deps?: Record<string, string>): void;
  /** Removes the package (npm unpublish, NuGet PackageDelete of its versions, a gem or crate yanked wholly). */
  remove(name: string): void;
  /** Appends a change that changes nothing (a duplicate). */
  touch(name: string): void;
  close(): Promise<void>;
}

/** A package's versions in publication order, with their dependencies (name -> requirement). */
export type Store = Map<string, Map<string, { deps: Record<string, string>; time: string }>>;

export function addVersion(store: Store, name: string, version: string, deps: Record<string, string> = {}): void {
  if (!store.has(name)) store.set(name, new Map());
  store.get(name)!.set(version, { deps, time: new Date().toISOString() });
}
