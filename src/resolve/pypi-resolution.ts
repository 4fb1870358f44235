/**
 * resolvelib's Resolution for the PyPI resolver: a stack of states (pins + criteria), each round
 * pinning the most preferred unsatisfied identifier, backtracking when no candidate of it merges.
 *  - merge: a requirement joins its identifier's criterion, whose candidates are recomputed (a
 *    Conflict when none remain);
 *  - attemptToPin: candidates from the highest down; the first whose dependencies all merge is
 *    pinned (re-pinning moves it last in the mapping, as a Python dict does after a delete);
 *  - backtrack: drop the last pin's state, mark that pin incompatible (with the incompatibilities
 *    the broken state knew) and retry, until a state survives or the stack is exhausted.
 */
import { Conflict, extrasOf, identify, isExplicit, projectOf } from './pypi-identify.ts';
import { prefers, preference, type PreferenceKey } from './pypi-preference.ts';
import type { PypiProvider } from './pypi-provider.ts';
import type { Dependency } from './types.ts';

export interface Criterion {
  project: string;
  reqs: Dependency[];
  /** "identifier\0version" of the pin that asked for each requirement (parallel to reqs). */
  parents: string[];
  extras: Set<string>;
  incompat: Set<string>;
  /** ascending */
  candidates: string[];
}

export interface State {
  mapping: Map<string, string>;
  criteria: Map<string, Criterion>;
}

/** The outcome of a resolution: the final state, or the error the graph reports. */
export type Outcome = { state: State } | { error: string };

const impossible = (causes: Conflict[]): string =>
  `resolution impossible:\n${causes.map((c) => `${c.message}\n`).join('')}`;

export class Resolution {
  private readonly states: State[] = [{ mapping: new Map(), criteria: new Map() }];
  private readonly provider: PypiProvider;
  private readonly userRequested: Map<string, number>;
  /** resolvelib 1.x merges a candidate's requirements on one identifier cumulatively; 0.7 keeps the last. */
  private readonly cumulative: boolean;

  constructor(provider: PypiProvider, userRequested: Map<string, number>, cumulative: boolean) {
    this.provider = provider;
    this.userRequested = userRequested;
    this.cumulative = cumulative;
  }

  async resolve(rootDeps: Dependency[], rootKey: string, maxRounds: number): Promise<Outcome> {
    try {
      for (const d of rootDeps) await this.merge(this.state().criteria, d, rootKey);
    } catch (e) {
      if (e instanceof Conflict) return { error: impossible([e]) };
      throw e;
    }
    this.pushNewState();
    for (let round = 0; round < maxRounds; round++) {
      const next = this.mostPreferredUnsatisfied();
      if (next === null) return { state: this.state() };
      const causes = await this.attemptToPin(next);
      if (causes.length === 0) this.pushNewState();
      else if (!this.backtrack()) return { error: impossible(causes) };
    }
    return { error: 'resolution aborted after too many iterations' };
  }

  private state(): State {
    return this.states[this.states.length - 1]!;
  }

  private pushNewState(): void {
    const s = this.state();
    this.states.push({ mapping: new Map(s.mapping), criteria: new Map(s.criteria) });
  }

  private satisfied(id: string): boolean {
    const s = this.state();
    const pin = s.mapping.get(id);
    return pin !== undefined && s.criteria.get(id)!.candidates.includes(pin);
  }

  private mostPreferredUnsatisfied(): string | null {
    let best: string | null = null;
    let bestKey: PreferenceKey | null = null;
    for (const [id, crit] of this.state().criteria) {
      if (this.satisfied(id)) continue;
      const k = preference(id, crit.reqs, this.userRequested);
      if (!bestKey || prefers(k, bestKey)) [best, bestKey] = [id, k];
    }
    return best;
  }

  /** Adds d (asked by `parent`) to a working copy of the criteria; one requirement from one parent counts once. */
  private async merge(criteria: Map<string, Criterion>, d: Dependency, parent: string): Promise<void> {
    const id = identify(d);
    const seen = this.cumulative ? criteria : this.state().criteria;
    const crit = seen.get(id);
    const sameAttrs = (o: Dependency) => JSON.stringify(o.attrs) === JSON.stringify(d.attrs);
    const same = (o: Dependency, i: number) =>
      o.requirement === d.requirement && sameAttrs(o) && crit!.parents[i] === parent;
    if (crit?.reqs.some(same)) return;
    const reqs = [...(crit?.reqs ?? []), d];
    const incompat = crit?.incompat ?? new Set<string>();
    const project = projectOf(id);
    const projectReqs = id === project ? [] : (seen.get(project)?.reqs ?? []);
    const candidates = await this.provider.findMatches(id, projectReqs, reqs, incompat);
    const extras = new Set(isExplicit(d) ? [] : extrasOf(d));
    const parents = [...(crit?.parents ?? []), parent];
    criteria.set(id, { project: d.name, reqs, parents, extras, incompat: new Set(incompat), candidates });
  }

  /** Pins the highest candidate whose dependencies merge; the conflicts of those that did not, when none does. */
  private async attemptToPin(id: string): Promise<Conflict[]> {
    const crit = this.state().criteria.get(id)!;
    const causes: Conflict[] = [];
    for (let i = crit.candidates.length - 1; i >= 0; i--) {
      const candidate = crit.candidates[i]!;
      const work = new Map(this.state().criteria);
      try {
        const deps = await this.provider.dependencies(crit.project, candidate, crit.extras);
        for (const d of deps) await this.merge(work, d, `${id}\u0000${candidate}`);
      } catch (e) {
        if (!(e instanceof Conflict)) throw e;
        causes.push(e);
        continue;
      }
      const s = this.state();
      s.mapping.delete(id);
      s.mapping.set(id, candidate);
      s.criteria = work;
      return [];
    }
    return causes;
  }

  private backtrack(): boolean {
    while (this.states.length >= 3) {
      this.states.pop();
      const broken = this.states.pop()!;
      const [id, candidate] = [...broken.mapping.entries()].at(-1)!;
      const incompatibilities: [string, Set<string>][] = [...broken.criteria].map(([n, c]) => [n, c.incompat]);
      incompatibilities.push([id, new Set([candidate])]);
      this.pushNewState();
      if (this.excludeIncompatible(incompatibilities)) return true;
    }
    return false;
  }

  /** Removes the incompatible candidates from the current criteria; false when an identifier is left with none. */
  private excludeIncompatible(incompatibilities: [string, Set<string>][]): boolean {
    const criteria = this.state().criteria;
    for (const [id, inc] of incompatibilities) {
      if (inc.size === 0) continue;
      const crit = criteria.get(id);
      if (!crit) continue;
      const all = new Set([...inc, ...crit.incompat]);
      const candidates = crit.candidates.filter((c) => !all.has(c));
      if (candidates.length === 0) return false;
      criteria.set(id, { ...crit, incompat: all, candidates });
    }
    return true;
  }
}
