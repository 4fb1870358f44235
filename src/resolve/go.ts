/**
 * Go: minimal version selection as `go mod graph` computes it (cmd/go/internal/modload readModGraph,
 * Go 1.17 to 1.23) for a main module at `go 1.17` or later whose go.mod requires only the root.
 *
 * The module graph is read from go.mod files (the Client's `requirements`: every `require` line, `// indirect`
 * ones marked `indirect`, each carrying the go directive of the go.mod it came from as `modulego`):
 *  - the root is the main module's only requirement and is loaded "pruned": its requirements join the
 *    graph; when the root's go.mod is at go 1.17 or later (graph pruning) nothing below them is read;
 *  - a module whose go.mod is older (or has no go directive, read as go 1.16) is "unpruned": its
 *    requirements, and the requirements of everything below it, are read transitively;
 *  - selection: the highest version of each module path that any read go.mod requires (semver order,
 *    `+incompatible` being build metadata); every path required anywhere is in the build list, even when
 *    only a version that is not selected requires it (MVS keeps it, as `go list -m all` shows).
 * `exclude` and `replace` apply only in the main module's go.mod (the Go reference: "exclude/replace
 * directives ... in other modules are ignored"), so the root's and its dependencies' are ignored; the
 * synthetic main module has none. Retractions never change selection (`go mod graph` ignores them).
 *
 * Graph: node 0 the root as asked, then one node per other selected module version; an edge from each
 * selected version whose go.mod was read to the selected version of every module it requires, the
 * requirement being the version written in the go.mod (attr `indirect` for `// indirect`). A selected
 * version whose go.mod was not read (below a pruned module) has no edges, as in `go mod graph`.
 * A go.mod that cannot be read (the version does not exist) is a node error on every module that requires
 * it (`go mod graph` fails); when MVS selects a higher version of the root itself, that version is a node
 * of its own.
 */
import { compare } from '../versions/index.ts';
import { addEdge, addError, addNode, newGraph } from './graph.ts';
import type { Client, Dependency, Graph } from './types.ts';

/** A go directive at or above 1.17 enables graph pruning (absent: go 1.16). */
export function prunes(goDirective: string | undefined): boolean {
  const m = /^(\d+)\.(\d+)/.exec(goDirective ?? '');
  if (!m) return false;
  const major = Number(m[1]);
  return major > 1 || (major === 1 && Number(m[2]) >= 17);
}

const key = (path: string, version: string) => `${path}@${version}`;

export async function resolveGo(client: Client, name: string, version: string): Promise<Graph> {
  const reqs = new Map<string, readonly Dependency[] | null>(); // go.mod read, by path@version
  const selected = new Map<string, string>([[name, version]]);
  const select = (path: string, v: string) => {
    const cur = selected.get(path);
    if (cur === undefined || compare('GO', v, cur) > 0) selected.set(path, v);
  };
  const unprunedSeen = new Set<string>();
  // level by level, so a client batches each level's go.mod files
  let level: { path: string; version: string; pruned: boolean }[] = [{ path: name, version, pruned: true }];
  while (level.length > 0) {
    const read = await Promise.all(
      level.map(async (m) => {
        const k = key(m.path, m.version);
        if (!reqs.has(k)) reqs.set(k, await client.requirements(m.path, m.version));
        return { m, deps: reqs.get(k)! };
      }),
    );
    const next: typeof level = [];
    for (const { m, deps } of read) {
      if (!deps) continue;
      for (const d of deps) if (d.requirement !== 'none') select(d.name, d.requirement);
      const unprunedHere = deps.length > 0 && !prunes(deps[0]!.attrs.modulego);
      if (m.pruned && !unprunedHere) continue;
      for (const d of deps) {
        const k = key(d.name, d.requirement);
        if (d.requirement === 'none' || unprunedSeen.has(k)) continue;
        unprunedSeen.add(k);
        next.push({ path: d.name, version: d.requirement, pruned: false });
      }
    }
    level = next;
  }
  return build(name, version, selected, reqs);
}

type Reqs = Map<string, readonly Dependency[] | null>;

function build(name: string, version: string, selected: Map<string, string>, reqs: Reqs): Graph {
  const g = newGraph(name, version);
  const index = new Map<string, number>([[key(name, version), 0]]);
  for (const [path, v] of selected) if (!index.has(key(path, v))) index.set(key(path, v), addNode(g, path, v));
  const rootDeps = reqs.get(key(name, version));
  if (rootDeps === null) g.error = `${name}@${version}: go.mod not found`;
  const failed = [...reqs].filter(([, d]) => d === null).map(([k]) => k);
  for (const [k, from] of index) {
    const deps = reqs.get(k);
    if (!deps) continue;
    for (const d of deps) {
      if (d.requirement === 'none') continue;
      const to = index.get(key(d.name, selected.get(d.name)!))!;
      addEdge(g, from, to, d.requirement, d.attrs.indirect !== undefined ? { indirect: '' } : {});
    }
  }
  // a go.mod that could not be read breaks `go mod graph`: every module requiring it reports it
  for (const bad of failed) {
    for (const [k, deps] of reqs) {
      const from = index.get(k);
      if (!deps || from === undefined) continue;
      for (const d of deps) {
        if (key(d.name, d.requirement) === bad) addError(g, from, d.name, d.requirement, `${bad}: go.mod not found`);
      }
    }
    if (!g.error && bad !== key(name, version)) g.error = `${bad}: go.mod not found`;
  }
  return g;
}
