/**
 * pip's get_preference (pip 21.1.3): which unsatisfied identifier the PyPI resolver pins next. The
 * key orders setuptools last, then by how the identifier is asked for (explicit < `==` < other
 * specifier < bare, as the first non-bare requirement decides), then by the root's "user requested"
 * order, then by identifier.
 */
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
