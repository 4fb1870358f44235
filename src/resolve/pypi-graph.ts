/**
 * The graph of a finished PyPI resolution (pip's _build_result): the pinned projects (not extras
 * identifiers) that have a route to the root through pinned parents, and an edge per distinct
 * (parent, child, requirement, attrs) of the criteria whose parent is the version pinned in the end
 * (resolvelib finds a parent among the final pins by identity: what an earlier pin of a re-pinned
 * project asked for stays in the criteria but draws no edge), a `name[e]` parent standing for the
 * node `name`; explicit requirements and the base halves of split ones (WITHOUT_EXTRAS) make no edge.
 */
import { addEdge, addNode, newGraph } from './graph.ts';
import { isExplicit, pinKey, projectOf, splitPinKey, WITHOUT_EXTRAS } from './pypi-identify.ts';
import type { State } from './pypi-resolution.ts';
import type { Graph } from './types.ts';

/** Whether a pin reaches the root through parents that are themselves pinned (memoised, cycle-safe). */
function routesToRoot(s: State, rootKey: string): (pin: string) => boolean {
  const connected = new Map<string, boolean>([[rootKey, true]]);
  const routes = (pin: string): boolean => {
    const known = connected.get(pin);
    if (known !== undefined) return known;
    connected.set(pin, false);
    const crit = s.criteria.get(splitPinKey(pin)[0]);
    if (!crit) return false;
    for (const parent of crit.parents) {
      if (connected.get(parent)) {
        connected.set(pin, true);
        return true;
      }
      const [pn, pv] = splitPinKey(parent);
      if (s.mapping.get(pn) !== pv) continue;
      if (routes(parent)) {
        connected.set(pin, true);
        return true;
      }
    }
    return false;
  };
  return routes;
}

export function buildPypiGraph(rootName: string, rootVersion: string, s: State): Graph {
  const rootKey = pinKey(rootName, rootVersion);
  const routes = routesToRoot(s, rootKey);
  const g = newGraph(rootName, rootVersion);
  const ids = new Map<string, number>([[rootName, 0]]);
  for (const [n, v] of s.mapping) {
    if (projectOf(n) !== n || !routes(pinKey(n, v))) continue;
    if (!ids.has(n)) ids.set(n, addNode(g, n, v));
  }
  const seen = new Set<string>();
  for (const crit of s.criteria.values()) {
    const to = ids.get(crit.project);
    if (to === undefined) continue;
    crit.reqs.forEach((r, i) => {
      const [parentId, parentVersion] = splitPinKey(crit.parents[i]!);
      if (crit.parents[i] !== rootKey && s.mapping.get(parentId) !== parentVersion) return;
      const from = ids.get(projectOf(parentId));
      const k = JSON.stringify([from, to, r.requirement, r.attrs]);
      if (from === undefined || isExplicit(r) || r.attrs[WITHOUT_EXTRAS] || seen.has(k)) return;
      seen.add(k);
      addEdge(g, from, to, r.requirement, { ...r.attrs });
    });
  }
  return g;
}
