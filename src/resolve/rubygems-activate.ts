/**
 * The state of the RubyGems resolution and its moves (Molinillo's activated graph):
 *  - an activation is a possibility set: the versions of the gem still possible, most preferred
 *    first; the graph shows its first one;
 *  - narrow: a requirement on an activated gem keeps the versions of the set it admits (an edge);
 *    when none is left it is a conflict;
 *  - activate: a possibility set chosen for a requirement joins, and the first candidate's
 *    dependencies join the open requirements, which are re-sorted (rubygems-order.ts);
 *  - missing (lenient mode): a requirement no version meets is recorded as a node error.
 * States are persistent (each move returns a copy), so backtracking is returning to an older one.
 */
import { type Candidate, type GemIndex, gemId, meets, type Req, toReq } from './rubygems-candidates.ts';
import type { DependencyOrder } from './rubygems-order.ts';

export interface State {
  acts: Map<string, Candidate[]>; // the activated possibility set (candidates with equal dependencies), most preferred first
  open: Req[];
  edges: Req[]; // requirements met by an activation, in the order they were met
  missing: { req: Req; message: string }[];
}

export const startState = (root: Req): State => ({ acts: new Map(), open: [root], edges: [], missing: [] });

/** The activated set narrowed to the versions `req` admits; null when none is left. */
export function narrow(s: State, req: Req, act: Candidate[]): State | null {
  const narrowed = req.cons ? act.filter((x) => meets(req.cons!, x.v)) : [];
  if (!narrowed.length) return null;
  return {
    ...s,
    acts: new Map(s.acts).set(req.name, narrowed),
    open: s.open.slice(1),
    edges: [...s.edges, req],
  };
}

export const incompatible = (req: Req): string =>
  `could not find compatible versions for gem "${req.name}": ${req.parent || 'Gemfile'} requires ${req.requirement}`;

export const notFound = (req: Req): string =>
  `could not find gem '${req.name} (${req.requirement})', which is required by ${req.parent.replace('\u0000', ' ') || 'the Gemfile'}`;

/** Lenient mode: `req` (the first open one) has no version at all and becomes a node error. */
export function missing(s: State, req: Req): State {
  const message: string = req.cons
    ? `no version of ${req.name} matches ${JSON.stringify(req.requirement)}`
    : `invalid requirement ${JSON.stringify(req.requirement)}`;
  return { ...s, open: s.open.slice(1), missing: [...s.missing, { req, message }] };
}

/** `set` activated for `req` (already taken off `s.open`); its first candidate's dependencies are opened. */
export async function activate(
  index: GemIndex,
  order: DependencyOrder,
  s: State,
  req: Req,
  set: Candidate[],
): Promise<State> {
  const cand = set[0]!;
  const acts = new Map(s.acts).set(cand.name, set);
  const id = gemId(cand);
  const deps = (await index.depsOf(cand)).map((d) => toReq(id, d));
  await index.client.prefetch?.(deps.map((d) => d.name));
  const open = deps.length ? await order.sort(acts, [...s.open, ...deps]) : s.open;
  return { ...s, acts, open, edges: [...s.edges, req] };
}
