/**
 * resolvelib's Resolution for the PyPI resolver: a stack of states (pins + criteria), each round
 * pinning the most preferred unsatisfied identifier, backtracking when no candidate of it merges.
 *  - merge: a requirement joins its identifier's criterion, whose candidates are recomputed (a
 *    Conflict when none remain);
 *  - attemptToPin: candidates from the highest down; the first whose dependencies all merge is
 *    pinned (re-pinning moves it last in the mapping, as a Python dict does after a delete);
 *  - backtrack: drop the last pin's state, mark that pin incompatible (with the incompatibilities
 *    the broken state knew) and retry, until a state survives or the stack is exhausted.
 * With `modern` (resolvelib 1.0.1 and pip 23.2's preference, as `pip install` on this machine) three
 * things change: the preference (Pip23Preference, with the causes of the last backtrack); a pin is
 * satisfying when it meets every requirement of its identifier (not when it is among the
 * candidates); after a pin, the requirements asked by pins it made unsatisfying are dropped from all
 * criteria (_remove_information_from_criteria), and a failed pin backjumps: states are dropped down
 * to the last pin whose dependencies name one of the conflict's identifiers or parents, that pin is
 * marked incompatible and the candidates are found again under the known incompatibilities.
 */
import { Conflict, EXPLICIT, extrasOf, identify, isExplicit, projectOf, splitPinKey } from './pypi-identify.ts';
import { type Cause, keyBefore, Pip23Preference, prefers, preference, type PreferenceKey } from './pypi-preference.ts';
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
  /** the requirements of the last failed pin (modern only) */
  causes: Cause[];
}

/** The outcome of a resolution: the final state, or the error the graph reports. */
export type Outcome = { state: State } | { error: string };

const impossible = (causes: Conflict[]): string =>
  `resolution impossible:\n${causes.map((c) => `${c.message}\n`).join('')}`;

export class Resolution {
  private readonly states: State[] = [{ mapping: new Map(), criteria: new Map(), causes: [] }];
  private readonly provider: PypiProvider;
  private readonly userRequested: Map<string, number>;
  /** resolvelib 1.x merges a candidate's requirements on one identifier cumulatively; 0.7 keeps the last. */
  private readonly cumulative: boolean;
  /** pip 23.2's preference, when modern */
  private readonly pip23: Pip23Preference | null;

  constructor(provider: PypiProvider, userRequested: Map<string, number>, modern: boolean, root: string) {
    this.provider = provider;
    this.userRequested = userRequested;
    this.cumulative = modern;
    this.pip23 = modern ? new Pip23Preference(root) : null;
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
      if (this.pip23) {
        const done = await this.modernRound();
        if (done) return done;
        continue;
      }
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
    this.states.push({ mapping: new Map(s.mapping), criteria: new Map(s.criteria), causes: [...s.causes] });
  }

  /** One round of resolvelib 1.0.1's resolve loop; the outcome when the resolution ends. */
  private async modernRound(): Promise<Outcome | null> {
    const unsatisfied: string[] = [];
    for (const id of this.state().criteria.keys()) if (!(await this.pinSatisfies(id))) unsatisfied.push(id);
    if (unsatisfied.length === 0) return { state: this.state() };
    const satisfiedBefore = [...this.state().criteria.keys()].filter((id) => !unsatisfied.includes(id));
    let best = unsatisfied[0]!;
    let bestKey: (number | string)[] | null = null;
    for (const id of unsatisfied) {
      const crit = this.state().criteria.get(id)!;
      const parents = crit.parents.map((p) => splitPinKey(p)[0]);
      const k = this.pip23!.key(id, crit.reqs, parents, this.state().causes);
      if (!bestKey || keyBefore(k, bestKey)) [best, bestKey] = [id, k];
    }
    const failures = await this.attemptToPin(best);
    if (failures.length > 0) {
      const causes = failures.flatMap((c) => c.parents.map((p) => ({ id: c.id, parent: splitPinKey(p)[0] })));
      if (!(await this.backjump(causes))) return { error: impossible(failures) };
      this.state().causes = causes;
      return null;
    }
    const newly = new Set<string>();
    for (const id of satisfiedBefore) if (!(await this.pinSatisfies(id))) newly.add(id);
    this.removeInformation(newly);
    this.pushNewState();
    return null;
  }

  /** resolvelib's _is_current_pin_satisfying: the identifier is pinned at a version every requirement contains. */
  private async pinSatisfies(id: string): Promise<boolean> {
    const s = this.state();
    const pin = s.mapping.get(id);
    if (pin === undefined) return false;
    for (const r of s.criteria.get(id)!.reqs) {
      if (isExplicit(r) ? r.attrs[EXPLICIT] !== pin : !(await this.provider.contains(r, pin))) return false;
    }
    return true;
  }

  /** Drops, from every criterion, the requirements whose parent is a pin of one of `ids`. */
  private removeInformation(ids: Set<string>): void {
    if (ids.size === 0) return;
    const criteria = this.state().criteria;
    for (const [id, crit] of criteria) {
      const keep = crit.parents.map((p) => !ids.has(splitPinKey(p)[0]));
      if (keep.every(Boolean)) continue;
      const reqs = crit.reqs.filter((_, i) => keep[i]);
      criteria.set(id, { ...crit, reqs, parents: crit.parents.filter((_, i) => keep[i]) });
    }
  }

  /** resolvelib 1.0.1's _backjump: false when no state is left to go back to. */
  private async backjump(causes: Cause[]): Promise<boolean> {
    const incompatibleDeps = new Set(causes.flatMap((c) => [c.id, c.parent]));
    while (this.states.length >= 3) {
      this.states.pop();
      let broken: State;
      let pin: [string, string];
      for (;;) {
        const popped = this.states.pop();
        const last = popped ? [...popped.mapping].at(-1) : undefined;
        if (!popped || !last) return false;
        [broken, pin] = [popped, last];
        const crit = popped.criteria.get(last[0])!;
        const deps = await this.provider.dependencies(crit.project, last[1], crit.extras);
        if (deps.some((d) => incompatibleDeps.has(identify(d)))) break;
      }
      const incompatibilities: [string, Set<string>][] = [...broken.criteria].map(([n, c]) => [n, c.incompat]);
      incompatibilities.push([pin[0], new Set([pin[1]])]);
      this.pushNewState();
      if (await this.patchCriteria(incompatibilities)) return true;
    }
    return false;
  }

  /** _patch_criteria: each identifier's candidates found again with the incompatibilities added; false when one has none. */
  private async patchCriteria(incompatibilities: [string, Set<string>][]): Promise<boolean> {
    const criteria = this.state().criteria;
    for (const [id, inc] of incompatibilities) {
      const crit = criteria.get(id);
      if (inc.size === 0 || !crit) continue;
      const incompat = new Set([...inc, ...crit.incompat]);
      const project = projectOf(id);
      const projectReqs = id === project ? [] : (criteria.get(project)?.reqs ?? []);
      try {
        const candidates = await this.provider.findMatches(id, projectReqs, crit.reqs, incompat);
        criteria.set(id, { ...crit, incompat, candidates });
      } catch (e) {
        if (e instanceof Conflict) return false;
        throw e;
      }
    }
    return true;
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
    const parents = [...(crit?.parents ?? []), parent];
    let candidates: string[];
    try {
      candidates = await this.provider.findMatches(id, projectReqs, reqs, incompat);
    } catch (e) {
      if (e instanceof Conflict) [e.id, e.parents] = [id, parents];
      throw e;
    }
    const extras = new Set(isExplicit(d) ? [] : extrasOf(d));
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
