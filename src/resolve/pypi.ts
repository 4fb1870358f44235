/**
 * PyPI resolver: pip's resolver (resolvelib as vendored by pip; the round/backtrack structure and
 * preference of pip 21.1.3 / resolvelib 0.7, the version deps.dev's util/resolve/pypi ports, with
 * pip's identifiers and candidate rules as current pips have them, checked against real pip in
 * test/unit/resolve/pip-compare.test.ts). Backtracking over "criteria" (requirements per
 * identifier + candidates):
 *  - identifiers: `name`, and `name[e1,e2]` for a requirement asking extras, pinned on its own; a
 *    pin of `name[e]` at v requires `name` at exactly v ("explicit") and v's dependencies with
 *    those extras;
 *  - each round picks the unsatisfied criterion with the smallest preference key (setuptools last,
 *    then explicit < `==` < other specifiers < bare, then direct-dependency order, then
 *    identifier), tries its candidates from the highest version down and pins the first whose
 *    dependencies merge without conflict; when none does, it backtracks (pops pins, marks them
 *    incompatible); `resolvelib: '1.0'` merges every requirement of a candidate on one identifier,
 *    the default '0.7' keeps the last (see PypiOptions);
 *  - candidates (findMatches): packaging's SpecifierSet.filter over the intersection of the
 *    requirements: prereleases only when a clause names one or all requirements are bare and no
 *    final exists; yanked (`blocked`) versions only when all matches are yanked and a clause pins
 *    (PEP 592); versions whose `requirespython` attr (Requires-Python) excludes the environment's
 *    python_full_version never (pip's finder drops them; a root version so excluded is a graph
 *    error);
 *  - dependencies are filtered by PEP 508 markers (pypi-markers.ts) with the identifier's extras,
 *    in `env` (default PYTHON_ENV); the root's dependency order is pip's "user requested" order;
 *  - the graph keeps pinned projects with a route to the root (pip's _build_result), edges from the
 *    criteria's (requirement, parent) pairs (a `name[e]` parent is the node `name`); failures give a
 *    graph-level error.
 *
 * Parts, named as resolvelib names them: pypi-identify.ts (identifiers, explicit requirements),
 * pypi-provider.ts (find_matches, get_dependencies), pypi-preference.ts (get_preference),
 * pypi-resolution.ts (the state stack: merge, pin, backtrack), pypi-graph.ts (_build_result).
 */
import { newGraph } from './graph.ts';
import { pinKey } from './pypi-identify.ts';
import { buildPypiGraph } from './pypi-graph.ts';
import { PYTHON_ENV, type PythonEnv } from './pypi-markers.ts';
import { userRequestedOrder } from './pypi-preference.ts';
import { PypiProvider } from './pypi-provider.ts';
import { Resolution } from './pypi-resolution.ts';
import type { Client, Graph } from './types.ts';

export interface PypiOptions {
  maxRounds?: number;
  /** Marker environment; python_full_version also decides `requirespython`. Default PYTHON_ENV. */
  env?: PythonEnv;
  /**
   * How a candidate's requirements on one identifier combine. '0.7' (default; resolvelib 0.7 in
   * pip 21.1.3, which deps.dev's vectors record): each replaces the previous one, the last counts.
   * '1.0' (resolvelib 1.0.1 with pip 23.2's preference, as `pip install root==v` runs on this
   * machine): all count, and the rounds, preference and backjumping are pip 23.2's (see Resolution).
   */
  resolvelib?: '0.7' | '1.0';
}

function failedGraph(rootName: string, rootVersion: string, error: string): Graph {
  const g = newGraph(rootName, rootVersion);
  g.error = error;
  return g;
}

/** A root version whose Requires-Python excludes the environment cannot be installed at all. */
async function rootPythonError(client: Client, provider: PypiProvider, name: string, version: string) {
  const info = (await client.versions(name)).find((v) => v.version === version);
  if (!info || provider.pythonFits(info.attrs.requirespython)) return undefined;
  return `${name} ${version} requires Python ${info.attrs.requirespython}, not ${provider.python}`;
}

export async function resolvePypi(
  client: Client,
  rootName: string,
  rootVersion: string,
  opts: PypiOptions = {},
): Promise<Graph> {
  const root = { name: rootName, version: rootVersion };
  const provider = new PypiProvider(client, root, opts.env ?? PYTHON_ENV, opts.resolvelib === '1.0');
  const rootError = await rootPythonError(client, provider, rootName, rootVersion);
  if (rootError) return failedGraph(rootName, rootVersion, rootError);
  const rootDeps = await provider.dependencies(rootName, rootVersion, new Set());
  const resolution = new Resolution(provider, userRequestedOrder(rootDeps), opts.resolvelib === '1.0', rootName);
  const outcome = await resolution.resolve(rootDeps, pinKey(rootName, rootVersion), opts.maxRounds ?? 200_000);
  if ('error' in outcome) return failedGraph(rootName, rootVersion, outcome.error);
  return buildPypiGraph(rootName, rootVersion, outcome.state);
}
