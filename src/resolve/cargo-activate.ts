/**
 * The state of the Cargo resolution and its two moves (cargo's core/resolver):
 *  - activate: a (crate, version) joins with the union of the features requested of it. It fails
 *    when its semver slot holds another version, its `links` value is taken, or a requested feature
 *    is missing; re-activating only adds features, and when they grow, its dependencies (those the
 *    features enable, `dep?/feat` enabling `dep` as the dependency resolver does) are queued again
 *    as a new frame, sorted by candidate count;
 *  - popMostConstrained: the next dependency is the first one of the frame whose first dependency
 *    has the fewest candidates, the oldest frame on ties (RemainingDeps::pop_most_constrained).
 * States are persistent (each move returns a copy), so backtracking is returning to an older one.
 */
import { activeDecls, featureClosure, type CargoDecl, type FeatureClosure } from './cargo-features.ts';
import { pkgId, slotOf, type CargoRegistry, type Pkg } from './cargo-registry.ts';

export interface Pending {
  parent: string;
  decl: CargoDecl;
  features: string[];
  cands: Pkg[];
}
interface Frame {
  readonly deps: readonly Pending[];
  readonly pos: number;
  readonly time: number;
}
interface Act {
  readonly pkg: Pkg;
  readonly requested: ReadonlySet<string>;
}

export interface State {
  acts: Map<string, Act>; // slot -> activation
  links: Map<string, string>; // links value -> package id
  frames: Frame[];
  time: number;
  decisions: Map<string, string>; // parentSlot \0 decl index -> child slot
  missing: Map<string, string>; // parentSlot \0 decl index -> message (lenient mode)
}

export function emptyState(): State {
  return { acts: new Map(), links: new Map(), frames: [], time: 0, decisions: new Map(), missing: new Map() };
}

/** The key of a declaration of an activated package: `parentSlot\0index`. */
export const declKey = (parentSlot: string, decl: CargoDecl): string => `${parentSlot}\u0000${decl.index}`;

/** Another version in the slot, or the `links` value held by another package. */
function conflicts(s: State, pkg: Pkg): boolean {
  const prev = s.acts.get(slotOf(pkg));
  if (prev && prev.pkg !== pkg) return true;
  return pkg.links !== '' && (s.links.get(pkg.links) ?? pkgId(pkg)) !== pkgId(pkg);
}

/** The dependencies the requested features enable, with their candidates, fewest candidates first. */
async function pendingDependencies(registry: CargoRegistry, pkg: Pkg, decls: CargoDecl[], fc: FeatureClosure) {
  const active = activeDecls(decls, fc, () => true);
  await registry.client.prefetch?.(active.map((a) => a.decl.name));
  const deps: Pending[] = [];
  for (const a of active) {
    deps.push({ parent: slotOf(pkg), decl: a.decl, features: a.features, cands: await registry.candidatesOf(a.decl) });
  }
  return deps.sort((x, y) => x.cands.length - y.cands.length);
}

/** Activates pkg in a copy of s (null on conflict), recording the decision of `parentKey`. */
export async function activate(
  registry: CargoRegistry,
  s: State,
  pkg: Pkg,
  requested: readonly string[],
  parentKey: string | null,
): Promise<State | null> {
  if (conflicts(s, pkg)) return null;
  const slot = slotOf(pkg);
  const prev = s.acts.get(slot);
  const req = new Set([...(prev?.requested ?? []), ...requested]);
  const n: State = { ...s, decisions: new Map(s.decisions) };
  if (parentKey) n.decisions.set(parentKey, slot);
  if (prev && req.size === prev.requested.size) return n;
  const decls = await registry.declsOf(pkg);
  const fc = featureClosure(pkg.features, decls, req, true);
  if (fc.missing.length) return null;
  n.acts = new Map(s.acts).set(slot, { pkg, requested: req });
  if (pkg.links) n.links = new Map(s.links).set(pkg.links, pkgId(pkg));
  const deps = await pendingDependencies(registry, pkg, decls, fc);
  if (deps.length) {
    n.frames = [...s.frames, { deps, pos: 0, time: s.time }];
    n.time = s.time + 1;
  }
  return n;
}

const constraint = (f: Frame): number => f.deps[f.pos]!.cands.length;

/** The most constrained pending dependency and the state without it, or null when nothing is pending. */
export function popMostConstrained(s: State): [State, Pending] | null {
  let best = -1;
  for (let i = 0; i < s.frames.length; i++) {
    const f = s.frames[i]!;
    const b = s.frames[best];
    if (!b || constraint(f) < constraint(b) || (constraint(f) === constraint(b) && f.time < b.time)) best = i;
  }
  if (best < 0) return null;
  const f = s.frames[best]!;
  const frames = [...s.frames];
  if (f.pos + 1 < f.deps.length) frames[best] = { ...f, pos: f.pos + 1 };
  else frames.splice(best, 1);
  return [{ ...s, frames }, f.deps[f.pos]!];
}
