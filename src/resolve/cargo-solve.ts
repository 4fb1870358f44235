/**
 * The search of the Cargo resolver (cargo's activate_deps_loop): from the root activated with
 * default features, take the most constrained pending dependency and try its candidates highest
 * first; the first that activates is the decision. A dependency without a usable candidate
 * backtracks chronologically to the latest decision with candidates left (cargo backjumps over
 * decisions that cannot matter, which finds the same first solution). In lenient mode a
 * requirement that matches no version at all is recorded as missing (a node error, deps.dev's
 * convention) instead of failing.
 */
import { activate, declKey, emptyState, popMostConstrained, type Pending, type State } from './cargo-activate.ts';
import type { CargoRegistry, Pkg } from './cargo-registry.ts';

/** The resolution failed (the message is the graph's error). */
export class CargoResolveError extends Error {}

interface Choice {
  s: State;
  dep: Pending;
  i: number;
}

function missingVersion(s: State, dep: Pending): State {
  const message = `no version of ${dep.decl.name} matches ${JSON.stringify(dep.decl.requirement)}`;
  return { ...s, missing: new Map(s.missing).set(declKey(dep.parent, dep.decl), message) };
}

const unsatisfiable = (dep: Pending): string =>
  `failed to select a version for the requirement \`${dep.decl.name} = "${dep.decl.requirement}"\``;

export async function solveCargo(
  registry: CargoRegistry,
  root: Pkg,
  opts: { lenient: boolean; maxSteps: number },
): Promise<State> {
  const start = await activate(registry, emptyState(), root, ['default'], null);
  if (!start) {
    throw new CargoResolveError(`${root.name}@${root.version} cannot be activated (a requested feature is missing)`);
  }
  const choices: Choice[] = [];
  let s: State | null = start;
  let steps = 0;
  let lastFailure = '';
  for (;;) {
    if (s) {
      const next = popMostConstrained(s);
      if (!next) return s;
      const [rest, dep] = next;
      if (dep.cands.length === 0 && opts.lenient) {
        s = missingVersion(rest, dep);
        continue;
      }
      choices.push({ s: rest, dep, i: 0 });
      s = null;
    }
    const c = choices.at(-1);
    if (!c) throw new CargoResolveError(lastFailure);
    if (c.i >= c.dep.cands.length) {
      choices.pop();
      lastFailure ||= unsatisfiable(c.dep);
      continue;
    }
    if (++steps > opts.maxSteps) throw new CargoResolveError(`resolution did not finish within ${opts.maxSteps} steps`);
    const candidate = c.dep.cands[c.i++]!;
    s = await activate(registry, c.s, candidate, c.dep.features, declKey(c.dep.parent, c.dep.decl));
  }
}
