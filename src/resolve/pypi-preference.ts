/**
 * pip's get_preference (pip 21.1.3; Pip23Preference below is pip 23.2's): which unsatisfied identifier the PyPI resolver pins next. The
 * key orders setuptools last, then by how the identifier is asked for (explicit < `==` < other
 * specifier < bare, as the first non-bare requirement decides), then by the root's "user requested"
 * order, then by identifier.
 */
import { parseSpecifierSet } from '../versions/pypi.ts';
import { isExplicit } from './pypi-identify.ts';
import type { Dependency } from './types.ts';

export type PreferenceKey = [setuptoolsLast: number, rating: number, requestedAt: number, id: string];

const UNREQUESTED = 2 ** 31 - 1;

function rating(reqs: Dependency[]): number {
  if (reqs.some(isExplicit)) return 0;
  for (const r of reqs) {
    if (r.requirement.includes('==')) return 1;
    if (r.requirement !== '') return 2;
  }
  return 3;
}

export function preference(id: string, reqs: Dependency[], userRequested: Map<string, number>): PreferenceKey {
  return [id.toLowerCase() === 'setuptools' ? 1 : 0, rating(reqs), userRequested.get(id) ?? UNREQUESTED, id];
}

export function prefers(a: PreferenceKey, b: PreferenceKey): boolean {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return a[3] < b[3];
}

/** The root's requirements in pip's "user requested" order: each project at its first position. */
export function userRequestedOrder(rootDeps: Dependency[]): Map<string, number> {
  const order = new Map<string, number>();
  rootDeps.forEach((d, i) => {
    if (!order.has(d.name)) order.set(d.name, i);
  });
  return order;
}

/** A requirement that made a pin fail (resolvelib's RequirementInformation): its identifier and its parent's. */
export interface Cause {
  id: string;
  /** the parent pin's identifier */
  parent: string;
}

/** The operators of a requirement's specifier (none for a bare or unreadable one). */
function operators(r: Dependency): string[] {
  if (isExplicit(r)) return [];
  const set = parseSpecifierSet(r.requirement);
  return typeof set === 'string' ? [] : set.specs.map((s) => s.op);
}

/**
 * pip 23.2's get_preference (PipProvider; `pip install root==v`, so only the root is user
 * requested): the key (not direct, not pinned, not a backtrack cause, inferred depth, requested
 * order, not unfree, identifier), smallest first. "direct" is true whenever the identifier has any
 * requirement at all (pip 23.2 tests the tuple of candidate lookups against None); the depth of an
 * identifier is one more than the least known depth of its requirements' parents (the root's is 1)
 * and is remembered per identifier across rounds and backtracking, as pip's _known_depths.
 */
export class Pip23Preference {
  private readonly depths = new Map<string, number>();
  private readonly root: string;

  constructor(root: string) {
    this.root = root;
    this.depths.set(root, 1);
  }

  key(id: string, reqs: Dependency[], parents: string[], causes: Cause[]): (number | string)[] {
    const ops = reqs.flatMap(operators);
    const pinned = ops.some((op) => op.startsWith('=='));
    const cause = causes.some((c) => c.id === id || c.parent === id);
    let depth = Number.POSITIVE_INFINITY;
    if (id === this.root) depth = 1;
    else if (parents.length > 0) depth = Math.min(...parents.map((p) => this.depths.get(p) ?? Infinity)) + 1;
    this.depths.set(id, depth);
    const requested = id === this.root ? 0 : Number.POSITIVE_INFINITY;
    return [reqs.length > 0 ? 0 : 1, pinned ? 0 : 1, cause ? 0 : 1, depth, requested, ops.length > 0 ? 0 : 1, id];
  }
}

/** Tuple order as Python compares them (numbers, then the identifier). */
export function keyBefore(a: (number | string)[], b: (number | string)[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return false;
}
