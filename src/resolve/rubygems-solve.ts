/**
 * The search of the RubyGems resolver (Molinillo's resolution loop): take the first open
 * requirement; on an activated gem it narrows the set or conflicts; otherwise its candidates, in
 * possibility sets, are a decision, tried most preferred first. A conflict backtracks
 * chronologically to the latest decision with sets left (Molinillo unwinds to the decision that
 * caused the conflict, which finds the same first solution on the universes tested;
 * docs/resolve.md). A requirement no version meets is a conflict like any other, or in lenient
 * mode a node error. The error of a failed search is its first conflict.
 */
import type { Candidate, GemIndex, Req } from './rubygems-candidates.ts';
import { activate, incompatible, missing, narrow, notFound, startState, type State } from './rubygems-activate.ts';
import type { DependencyOrder } from './rubygems-order.ts';

/** The resolution failed (the message is the graph's error). */
export class RubygemsResolveError extends Error {}

interface Decision {
  s: State; // before the activation, the requirement taken off
  req: Req;
  sets: Candidate[][];
  i: number;
}

export interface SolveInput {
  index: GemIndex;
  order: DependencyOrder;
  root: { req: Req; cands: Candidate[] };
  lenient: boolean;
  maxSteps: number;
}

/** The next state after the first open requirement, a decision to make, or a conflict message. */
async function step(input: SolveInput, s: State, req: Req): Promise<State | Decision | string> {
  const act = s.acts.get(req.name);
  if (act) return narrow(s, req, act) ?? incompatible(req);
  const cands = req === input.root.req ? input.root.cands : await input.index.candidatesFor(req);
  if (cands.length === 0) return input.lenient ? missing(s, req) : notFound(req);
  return { s: { ...s, open: s.open.slice(1) }, req, sets: await input.index.possibilitySets(cands), i: 0 };
}

export async function solveRubygems(input: SolveInput): Promise<State> {
  const decisions: Decision[] = [];
  let s: State | null = startState(input.root.req);
  let steps = 0;
  let lastFailure = '';
  for (;;) {
    if (s) {
      const req = s.open[0];
      if (!req) return s;
      const next = await step(input, s, req);
      if (typeof next === 'string') {
        lastFailure ||= next;
        s = null;
      } else if ('sets' in next) {
        decisions.push(next);
        s = null;
      } else {
        s = next;
        continue;
      }
    }
    const d = decisions.at(-1);
    if (!d) throw new RubygemsResolveError(lastFailure || 'no solution');
    if (d.i >= d.sets.length) {
      decisions.pop();
      continue;
    }
    if (++steps > input.maxSteps)
      throw new RubygemsResolveError(`resolution did not finish within ${input.maxSteps} steps`);
    s = await activate(input.index, input.order, d.s, d.req, d.sets[d.i++]!);
  }
}
