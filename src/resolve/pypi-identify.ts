/**
 * pip's identifiers for the PyPI resolver: `name` for the project, `name[e1,e2]` (extras sorted,
 * lower-cased) for a requirement asking extras, pinned on its own. A pin of `name[e]` at v requires
 * the project itself at exactly v: an "explicit" requirement, marked by the EXPLICIT attr (which
 * holds v). Pins and parents are keyed `identifier\0version`.
 */
import type { Dependency } from './types.ts';

export const EXPLICIT = '\u0000explicit';

export const isExplicit = (d: Dependency): boolean => d.attrs[EXPLICIT] !== undefined;

/** Marks the base half of a requirement with extras and a specifier, as pip >= 23.3 splits it (no edge of its own). */
export const WITHOUT_EXTRAS = '\u0000without-extras';

/**
 * pip >= 23.3's requirements for one dependency: `a[x]>=1` is `a>=1` (SpecifierWithoutExtrasRequirement)
 * and then `a[x]>=1`; a bare `a[x]` stays one requirement.
 */
export function splitExtras(d: Dependency): Dependency[] {
  if (isExplicit(d) || extrasOf(d).length === 0 || d.requirement.trim() === '') return [d];
  const { enableddependencies: _, ...attrs } = d.attrs;
  return [{ name: d.name, requirement: d.requirement, attrs: { ...attrs, [WITHOUT_EXTRAS]: '1' } }, d];
}

export function extrasOf(d: Dependency): string[] {
  const asked = (d.attrs.enableddependencies ?? '').split(',').map((e) => e.trim().toLowerCase());
  return [...new Set(asked.filter(Boolean))].sort();
}

/** The identifier a requirement is pinned under (an explicit requirement names the project). */
export function identify(d: Dependency): string {
  const extras = isExplicit(d) ? [] : extrasOf(d);
  return extras.length ? `${d.name}[${extras.join(',')}]` : d.name;
}

export const projectOf = (id: string): string => id.replace(/\[.*$/, '');

/** The explicit requirement a pin of `name[extras]` at `version` puts on `name`. */
export function explicitRequirement(name: string, version: string): Dependency {
  return { name, requirement: `==${version}`, attrs: { [EXPLICIT]: version } };
}

export const pinKey = (id: string, version: string): string => `${id}\u0000${version}`;

export function splitPinKey(k: string): [id: string, version: string] {
  return k.split('\u0000') as [string, string];
}

/** Requirements on one identifier that no candidate satisfies (or no candidates at all). */
export class Conflict extends Error {
  /** the parents of the requirements in conflict (identifier\0version), when a criterion's merge failed */
  parents: string[] = [];
  /** the identifier of those requirements */
  id = '';
  constructor(name: string, reqs: Dependency[], none: boolean) {
    const list = JSON.stringify(reqs.map((r) => r.requirement).join(','));
    super(none ? `no candidates at all for: ${name} ${list}` : `requirements conflict: ${name}: ${list}`);
  }
}
