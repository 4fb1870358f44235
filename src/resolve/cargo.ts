/**
 * Cargo resolver: the root crate resolved as a dependency (`root = "=version"`, default features),
 * following cargo's core/resolver (activate_deps_loop) and then the graph cargo builds for
 * x86_64-unknown-linux-gnu.
 *
 * Resolution (what Cargo.lock records; all targets, as the lockfile is platform independent):
 *  - an activation is a (crate, version) with the union of features requested of it; at most one
 *    version per crate and semver-compatibility slot (`1.x.y`, `0.3.y`, `0.0.3`), so several majors
 *    coexist; at most one package per `links` value;
 *  - work is a set of frames (an activation's dependencies, sorted by candidate count); the next
 *    dependency is the first one of the frame whose first dependency has the fewest candidates,
 *    oldest frame on ties (cargo's RemainingDeps::pop_most_constrained);
 *  - candidates: versions matching the requirement (matchesCargo: prereleases only when a
 *    comparator names one), yanked (`blocked`) and `deleted` versions skipped, highest first; a
 *    candidate is skipped when its slot holds another version, its `links` is taken, or it lacks a
 *    requested feature; the first that fits is activated (re-activating an activated version only
 *    adds features, and if they grow its dependencies are queued again); `dep?/feat` enables `dep`
 *    here, as in cargo's dependency resolver (Cargo.lock lists such dependencies);
 *  - a dependency without a usable candidate backtracks chronologically to the latest decision with
 *    candidates left (cargo backjumps over decisions that cannot matter, which finds the same first
 *    solution). If no assignment exists the resolution is redone treating requirements that match
 *    no version at all as node errors (deps.dev's convention); if that still fails, the graph has
 *    a graph-level error.
 * Graph: from the root with default features, only declarations whose target filter matches the
 * platform (cargo-cfg.ts) and whose optional dependency is enabled by the features that reach the
 * package through such declarations (resolver 2: features of other platforms do not unify, and
 * `dep?/feat` does not enable `dep`); each
 * edge goes to the version the resolution chose for that declaration. `platform: null` keeps every
 * target: the graph then equals Cargo.lock. A cycle of normal/build edges is the graph error Cargo's
 * check_cycles reports (the graph is kept).
 *
 * Client vocabulary: version attrs `blocked` (yanked), `deleted`, `features` (JSON
 * `{"feat": ["value", ...]}`, the index's features+features2), `links`; dependency attrs `scope`
 * (`build` | `dev`; `dev` flag also accepted), `opt`, `knownas` (the local name when `package =`
 * renames; the dependency name is the real crate), `features` (comma list), `nodefault`
 * (default-features = false), `environment` (target filter, e.g. `cfg(unix)`).
 *
 * Parts: cargo-registry.ts (versions, declarations, candidates), cargo-activate.ts (activation,
 * frames, most constrained first), cargo-solve.ts (the search and its backtracking),
 * cargo-graph.ts (the platform graph and cycle check), cargo-features.ts, cargo-cfg.ts.
 */
import { LINUX_X86_64, type CargoPlatform } from './cargo-cfg.ts';
import { buildCargoGraph } from './cargo-graph.ts';
import { CargoRegistry, type Pkg } from './cargo-registry.ts';
import { CargoResolveError, solveCargo } from './cargo-solve.ts';
import { newGraph } from './graph.ts';
import type { Client, Graph } from './types.ts';

export interface CargoOptions {
  /** Platform whose target-specific dependencies apply; null keeps all targets (Cargo.lock view). */
  platform?: CargoPlatform | null;
  /** Activation budget before the resolution is abandoned with a graph error. */
  maxSteps?: number;
}

function failedGraph(rootName: string, rootVersion: string, error: string): Graph {
  const g = newGraph(rootName, rootVersion);
  g.error = error;
  return g;
}

/** Strict first; when no assignment exists, again with unmatched requirements as node errors. */
async function solveStrictThenLenient(registry: CargoRegistry, root: Pkg, maxSteps: number) {
  try {
    return await solveCargo(registry, root, { lenient: false, maxSteps });
  } catch (strict) {
    if (!(strict instanceof CargoResolveError)) throw strict;
    try {
      return await solveCargo(registry, root, { lenient: true, maxSteps });
    } catch (lenient) {
      if (!(lenient instanceof CargoResolveError)) throw lenient;
      return lenient.message || strict.message;
    }
  }
}

export async function resolveCargo(
  client: Client,
  rootName: string,
  rootVersion: string,
  opts: CargoOptions = {},
): Promise<Graph> {
  const platform = opts.platform === undefined ? LINUX_X86_64 : opts.platform;
  const registry = new CargoRegistry(client);
  const root = await registry.rootPackage(rootName, rootVersion);
  if (!root) return failedGraph(rootName, rootVersion, `${rootName}@${rootVersion} not found`);
  const state = await solveStrictThenLenient(registry, root, opts.maxSteps ?? 50_000);
  if (typeof state === 'string') return failedGraph(rootName, rootVersion, state);
  return buildCargoGraph(state, root, platform, registry);
}
