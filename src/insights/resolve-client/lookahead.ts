/**
 * Lookahead: resolvers walk a graph one node at a time, so answering each question as asked would cost a
 * database round trip (or an upstream fetch) per package. When a version's requirements arrive, the
 * client already asks for the versions of every dependency that can matter (not dev/test/bundled), and
 * when those arrive, for the requirements of the version the resolver will most likely pick (the
 * highest satisfying the requirement; npm's `latest` tag first; PyPI: never a dependency behind a marker,
 * never a version whose metadata is still to be fetched). Guesses share the batches of real
 * questions, so a graph costs about two round trips per level; a wrong guess only reads rows that are
 * not used. The lookahead is bounded (LOOKAHEAD_LIMIT names) and stops when the resolution is done.
 * A system module narrows it (SystemReads: looksAhead, skipAhead, aheadOf, mayReadAhead).
 */
import type { Dependency, ResolveSystem, VersionInfo } from '../../resolve/types.ts';
import { maxSatisfying } from '../../versions/index.ts';
import { type ClientCore, type SystemReads, versionKey } from './system.ts';

const LOOKAHEAD_LIMIT = 5000;

/** Dependencies a resolution never follows below the root (dev, test, bundled copies). */
function notFollowed(d: Dependency): boolean {
  const scope = d.attrs.scope;
  return scope === 'dev' || scope === 'bundle' || d.attrs.dev !== undefined || d.attrs.test !== undefined;
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

export class Lookahead {
  /** False once the resolution is done or aborted. */
  on = true;
  private readonly looked = new Set<string>();
  private readonly lookedVersions = new Set<string>();
  private readonly system: ResolveSystem;
  private readonly client: ClientCore;
  private readonly reads: SystemReads;

  constructor(system: ResolveSystem, client: ClientCore, reads: SystemReads) {
    this.system = system;
    this.client = client;
    this.reads = reads;
  }

  /** The requirements of a version were asked for: when they arrive, look ahead of them (once a version). */
  afterRequirements(key: string, p: Promise<readonly Dependency[] | null>): void {
    if (!this.on || this.lookedVersions.has(key)) return;
    this.lookedVersions.add(key);
    void p.then(
      (deps) => deps && this.of(deps),
      () => {},
    );
  }

  /** Asks ahead for the versions of each dependency that can matter, then for the requirements of the likely pick. */
  of(deps: readonly Dependency[]): void {
    if (!this.on || this.reads.looksAhead === false) return;
    const bundled = new Set(deps.filter((d) => d.attrs.scope === 'bundle').map((d) => d.name)); // come with the tarball
    for (const d of deps) {
      if (!d.name || notFollowed(d) || bundled.has(d.name) || this.reads.skipAhead?.(d)) continue;
      const key = versionKey(d.name, d.requirement);
      if (this.looked.has(key) || this.looked.size >= LOOKAHEAD_LIMIT) continue;
      this.looked.add(key);
      if (this.reads.aheadOf?.(d)) continue;
      void this.client
        .versions(d.name)
        .then((vs) => {
          const guess = this.on ? likelyPick(this.system, vs, d.requirement) : null;
          // metadata read on demand (PyPI) is fetched for versions the resolver considers, never for a guess
          const k = versionKey(d.name, String(guess));
          return guess && !this.client.pending.has(k) && this.reads.mayReadAhead?.(k) !== false
            ? this.client.requirements(d.name, guess)
            : null;
        })
        .catch(() => {}); // a failed guess is asked again (and fails visibly) if the resolver needs it
    }
  }
}
