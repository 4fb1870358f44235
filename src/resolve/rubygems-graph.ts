/**
 * The graph of a RubyGems resolution (what Gemfile.lock records): a node per activated gem at the
 * most preferred version left in its possibility set (the root is node 0), an edge per met
 * requirement from its requiring spec to that version, and, in lenient mode, a node error per
 * requirement no version met (on the root when its requirer is the Gemfile).
 */
import { addEdge, addError, addNode, newGraph } from './graph.ts';
import type { State } from './rubygems-activate.ts';
import { type Candidate, gemId } from './rubygems-candidates.ts';
import type { Graph } from './types.ts';

export function buildRubygemsGraph(rootName: string, rootVersion: string, state: State): Graph {
  const g = newGraph(rootName, rootVersion);
  const index = new Map<string, number>();
  for (const [name, [c]] of state.acts as Map<string, [Candidate]>)
    index.set(gemId(c), name === rootName && c.version === rootVersion ? 0 : addNode(g, name, c.version));
  for (const req of state.edges) {
    if (!req.parent) continue;
    const to = state.acts.get(req.name)![0]!;
    addEdge(g, index.get(req.parent)!, index.get(gemId(to))!, req.requirement);
  }
  for (const m of state.missing) addError(g, index.get(m.req.parent) ?? 0, m.req.name, m.req.requirement, m.message);
  return g;
}
