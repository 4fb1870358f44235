/**
 * RubyGems resolver: the root gem as a Gemfile dependency (`gem "root", "= version"`) locked by Bundler
 * 2.3 (Molinillo) on Ruby for x86_64-linux, the lockfile's only platform; runtime dependencies only.
 *
 * Candidates (Bundler::Index#search_by_dependency and Resolver#search_for): versions of the gem whose
 * spelling meets the requirement, releases highest first and then prereleases highest first
 * (GemVersionPromoter#sort_dep_specs with nothing locked: a prerelease is chosen only when no release
 * fits; Bundler 2.4+ drops prereleases the requirement does not name); a version is usable when it has a `ruby` or an `x86_64-linux` gem (other platforms
 * are ignored); the `x86_64-linux` gem (select_best_platform_match: its own dependencies) is tried before
 * the `ruby` gem of the same version, which is the next possibility (Bundler 2.3's ruby spec group); versions whose required Ruby excludes the target Ruby are
 * skipped (Bundler resolves the `Ruby\0` metadata dependency against the running Ruby). Highest first.
 *
 * Order (Molinillo + Bundler#sort_dependencies): the open requirements are re-sorted whenever an
 * activation adds requirements, by (gem already activated first, root gem first, amount constrained
 * (memoised per gem on first use: candidates minus all specs, or all - 1e6 when the gem has at most one
 * spec; prereleases not counted), candidate count), and the first one is taken. Candidates are tried in
 * possibility sets (Molinillo's group_possibilities: consecutive candidates with equal dependencies); the
 * activated set is the versions of the gem still possible, a later requirement narrows it (an edge) or,
 * when none is left, is a conflict; the graph shows the most preferred version left. Conflicts backtrack chronologically to the latest decision with candidates
 * left (Molinillo unwinds to the decision that caused the conflict, which finds the same first solution
 * on the universes tested; docs/resolve.md). A requirement no version meets is a conflict like any
 * other; when no solution exists the resolution is redone with such requirements as node errors
 * (deps.dev's convention), and if that fails too the graph has a graph error.
 *
 * Client vocabulary: version attrs `spelling` (the version as published: the resolver compares it, the
 * stored form may be canonical), `platforms` (comma list of the gem's platforms for that version, default
 * `ruby`), `requiredruby` (required_ruby_version), `blocked` (yanked), `linuxdependencies` (JSON
 * `[{name, requirement}]`: the runtime dependencies of the `x86_64-linux` gem when it has one; `requirements`
 * answers the `ruby` gem's, or the only gem's); dependencies with `scope: dev` are skipped.
 *
 * Parts: rubygems-candidates.ts (specs, platform and prerelease rules, possibility sets),
 * rubygems-order.ts (sort_dependencies), rubygems-activate.ts (the state: narrow, activate, missing),
 * rubygems-solve.ts (the search and its backtracking), rubygems-graph.ts (the graph).
 */
import { parseGemVersion } from '../versions/rubygems.ts';
import { newGraph } from './graph.ts';
import { GemIndex, type Candidate, type Req, toReq } from './rubygems-candidates.ts';
import { buildRubygemsGraph } from './rubygems-graph.ts';
import { DependencyOrder } from './rubygems-order.ts';
import { RubygemsResolveError, solveRubygems } from './rubygems-solve.ts';
import type { Client, Graph } from './types.ts';

export { RUBY_PLATFORM } from './rubygems-candidates.ts';
export const DEFAULT_RUBY_VERSION = '3.1.2';

export interface RubygemsOptions {
  /** The Ruby the lock is made on (required_ruby_version); default Debian bookworm's 3.1.2. */
  rubyVersion?: string;
  maxSteps?: number;
}

function failedGraph(rootName: string, rootVersion: string, error: string): Graph {
  const g = newGraph(rootName, rootVersion);
  g.error = error;
  return g;
}

/** Strict first (Bundler); when no solution exists, again with unmet requirements as node errors (deps.dev's convention). */
async function solveStrictThenLenient(
  index: GemIndex,
  order: DependencyOrder,
  root: { req: Req; cands: Candidate[] },
  maxSteps: number,
) {
  try {
    return await solveRubygems({ index, order, root, lenient: false, maxSteps });
  } catch (strict) {
    if (!(strict instanceof RubygemsResolveError)) throw strict;
    try {
      return await solveRubygems({ index, order, root, lenient: true, maxSteps });
    } catch (lenient) {
      if (!(lenient instanceof RubygemsResolveError)) throw lenient;
      return strict.message;
    }
  }
}

export async function resolveRubygems(
  client: Client,
  rootName: string,
  rootVersion: string,
  opts: RubygemsOptions = {},
): Promise<Graph> {
  const index = new GemIndex(client, parseGemVersion(opts.rubyVersion ?? DEFAULT_RUBY_VERSION)!);
  const order = new DependencyOrder(index, rootName, rootVersion);
  const rootReq = toReq('', { name: rootName, requirement: `= ${rootVersion}`, attrs: {} });
  const rootCands = await index.rootCandidates(rootName, rootVersion);
  if (!rootCands) return failedGraph(rootName, rootVersion, `${rootName}@${rootVersion} not found`);
  const state = await solveStrictThenLenient(index, order, { req: rootReq, cands: rootCands }, opts.maxSteps ?? 20_000);
  if (typeof state === 'string') return failedGraph(rootName, rootVersion, state);
  return buildRubygemsGraph(rootName, rootVersion, state);
}
