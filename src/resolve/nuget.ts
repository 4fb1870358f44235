/**
 * NuGet resolver: a project targeting one framework (default `net8.0`) with a PackageReference to the
 * root at exactly its version, restored as NuGet's PackageReference restore does
 * (learn.microsoft.com "NuGet Package Dependency Resolution"):
 *  - each package's dependencies are those of its dependency group nearest the target framework
 *    (nuget-frameworks.ts); no compatible group means no dependencies;
 *  - lowest applicable version: a range picks the lowest version it admits (prereleases only when a
 *    bound names one); a floating version (`1.*`, `1.2.*`, `*`, `1.0.0-beta*`, `1.*-*`) picks the highest
 *    version matching its prefix;
 *  - direct dependency wins: a dependency of a package is not followed when the package id is already a
 *    dependency of one of its ancestors (the nearer declaration wins, even when lower: NU1605); its edge
 *    goes to the version the graph holds;
 *  - cousin dependencies: when several remaining nodes name one id, the highest of their versions wins
 *    (each being the lowest applicable of its range: the highest of the lower bounds), and the losing
 *    nodes' subtrees are dropped; repeated until stable; a losing range that does not admit the winner is
 *    the version conflict NU1107 (a node error on the declaring package);
 *  - a dependency back to an ancestor is a cycle (NU1108): a graph error; a range no version meets a
 *    node error (NU1101/NU1102).
 * Ids are case-insensitive (the client answers lower-cased ids). Client vocabulary: dependencies carry
 * `framework` (their group's target framework; a dependency with an empty name only declares its group).
 */
import {
  compareNuget,
  nugetRangeContains,
  parseNugetRange,
  parseNugetVersion,
  type NugetVersion,
} from '../versions/nuget.ts';
import { normalizeNugetId } from '../versions/names/index.ts';
import { addEdge, addError, addNode, newGraph } from './graph.ts';
import { nearestFramework } from './nuget-frameworks.ts';
import type { Client, Dependency, Graph } from './types.ts';
import { has } from './types.ts';

export const DEFAULT_NUGET_FRAMEWORK = 'net8.0';

export interface NugetOptions {
  framework?: string;
  maxNodes?: number;
}

interface Node {
  id: string;
  version: string;
  v: NugetVersion;
  parent: Node | null;
  depth: number;
  deps: Dependency[];
  children: Node[];
  range: string;
  eclipsed: { id: string; range: string }[];
}

/** The version a range or floating version picks among `versions`, or null. */
export function pickNuget(range: string, versions: readonly { version: string; v: NugetVersion }[]): string | null {
  const text = range.trim() || '0.0.0';
  const sorted = [...versions].sort((a, b) => compareNuget(a.v, b.v));
  if (text.includes('*') && !/^[[(]/.test(text)) {
    const [rel, pre] = text.split('-', 2) as [string, string?];
    const prefix = rel.replace(/\*$/, '').split('.').filter(Boolean).map(Number);
    const hits = sorted.filter(({ v }) => {
      if (prefix.some((p, i) => v.nums[i] !== p)) return false;
      if (pre === undefined) return v.pre.length === 0;
      if (!rel.endsWith('*') && prefix.length > 0 && v.nums.slice(prefix.length).some((x) => x !== 0)) return false;
      const label = v.pre.join('.').toLowerCase();
      return v.pre.length === 0 || label.startsWith(pre.replace(/\*$/, '').toLowerCase());
    });
    return hits.length ? hits[hits.length - 1]!.version : null;
  }
  const r = parseNugetRange(text);
  if (typeof r === 'string') return null;
  const pre = (r.min?.v.pre.length ?? 0) > 0 || (r.max?.v.pre.length ?? 0) > 0;
  const hit = sorted.find(({ v }) => nugetRangeContains(r, v) && (pre || v.pre.length === 0));
  return hit?.version ?? null;
}

/** Whether `range` admits `v` (a floating version: any version at or above its lowest). */
function admits(range: string, v: NugetVersion): boolean {
  const r = parseNugetRange(range.trim() || '0.0.0');
  return typeof r !== 'string' && nugetRangeContains(r, v, true);
}

/** What a restore reads from the client: the versions of an id and a version's dependencies for the framework. */
interface NugetSource {
  id: (name: string) => string;
  versionsOf: (name: string) => Promise<{ version: string; v: NugetVersion }[]>;
  depsOf: (name: string, version: string) => Promise<Dependency[]>;
  prefetch: (names: string[]) => Promise<void>;
}

function nugetSource(client: Client, framework: string): NugetSource {
  const id = normalizeNugetId;
  return {
    id,
    versionsOf: async (name) =>
      (await client.versions(id(name))).flatMap((x) => {
        const v = parseNugetVersion(x.version);
        return v && !has(x.attrs, 'deleted') ? [{ version: x.version, v }] : [];
      }),
    depsOf: async (name, version) => {
      const all = (await client.requirements(id(name), version)) ?? [];
      const groups = [...new Set(all.map((d) => d.attrs.framework ?? ''))];
      const g = nearestFramework(framework, groups);
      return g === null ? [] : all.filter((d) => (d.attrs.framework ?? '') === g && d.name !== '');
    },
    prefetch: async (names) => {
      await client.prefetch?.(names);
    },
  };
}

export async function resolveNuget(
  client: Client,
  rootName: string,
  rootVersion: string,
  opts: NugetOptions = {},
): Promise<Graph> {
  const src = nugetSource(client, opts.framework ?? DEFAULT_NUGET_FRAMEWORK);
  const g = newGraph(rootName, rootVersion);
  const rootV = parseNugetVersion(rootVersion);
  if (!rootV || !(await src.versionsOf(rootName)).some((x) => x.version === rootVersion)) {
    g.error = `${rootName}@${rootVersion} not found`;
    return g;
  }
  const root: Node = {
    id: src.id(rootName),
    version: rootVersion,
    v: rootV,
    parent: null,
    depth: 0,
    deps: await src.depsOf(rootName, rootVersion),
    children: [],
    range: '',
    eclipsed: [],
  };
  const tree = await walkTree(src, root, opts.maxNodes ?? 20_000);
  if (tree.tooLarge) {
    g.error = tree.tooLarge;
    return g;
  }
  const winners = cousinWinners(root);
  const index = writeGraph(g, root, winners);
  for (const e of tree.errors)
    if (winners.get(e.node.id) === e.node)
      addError(g, index.get(e.node.id)!, src.id(e.dep.name), e.dep.requirement, e.message);
  if (tree.cycle) g.error = tree.cycle;
  return g;
}

interface TreeWalk {
  errors: { node: Node; dep: Dependency; message: string }[];
  cycle: string;
  tooLarge: string;
}

/**
 * The declared tree, breadth-first so the nearer declarations are known before deeper ones are reached:
 * a dependency already declared by an ancestor is not followed (direct dependency wins; its edge is kept
 * in `eclipsed`), one back to an ancestor is a cycle.
 */
async function walkTree(src: NugetSource, root: Node, maxNodes: number): Promise<TreeWalk> {
  const out: TreeWalk = { errors: [], cycle: '', tooLarge: '' };
  let count = 0;
  const queue: Node[] = [root];
  while (queue.length) {
    const n = queue.shift()!;
    await src.prefetch(n.deps.map((d) => d.name));
    for (const d of n.deps) {
      const did = src.id(d.name);
      const seen = eclipsedBy(n, did, d.requirement);
      if (seen === 'cycle') out.cycle ||= `cycle detected: ${did} depends on itself`;
      if (seen) continue;
      const version = pickNuget(d.requirement, await src.versionsOf(did));
      if (version === null) {
        out.errors.push({ node: n, dep: d, message: `no version of ${did} matches ${JSON.stringify(d.requirement)}` });
        continue;
      }
      if (++count > maxNodes) {
        out.tooLarge = `the dependency tree has more than ${maxNodes} nodes`;
        return out;
      }
      const child: Node = {
        id: did,
        version,
        v: parseNugetVersion(version)!,
        parent: n,
        depth: n.depth + 1,
        deps: await src.depsOf(did, version),
        children: [],
        range: d.requirement,
        eclipsed: [],
      };
      n.children.push(child);
      queue.push(child);
    }
  }
  return out;
}

/**
 * Whether `n`'s dependency on `did` is not followed: 'cycle' when `did` is `n` or an ancestor, 'nearer' when
 * an ancestor above `n` declares it (then the edge is kept in `n.eclipsed`, to the version the nearer
 * declaration picks), false otherwise.
 */
function eclipsedBy(n: Node, did: string, range: string): 'cycle' | 'nearer' | false {
  for (let a: Node | null = n; a; a = a.parent) {
    if (a.id === did) return 'cycle';
    if (a !== n && a.deps.some((x) => normalizeNugetId(x.name) === did)) {
      n.eclipsed.push({ id: did, range });
      return 'nearer';
    }
  }
  return false;
}

/** Cousins: the highest version of an id wins; losing nodes drop their subtrees, until stable. */
function cousinWinners(root: Node): Map<string, Node> {
  let winners = new Map<string, Node>();
  for (;;) {
    const live: Node[] = [];
    const walk = (n: Node) => {
      live.push(n);
      for (const c of n.children) if (!winners.size || winners.get(c.id)?.version === c.version) walk(c);
    };
    walk(root);
    const next = new Map<string, Node>([[root.id, root]]);
    for (const n of live) {
      const w = next.get(n.id);
      if (!w || compareNuget(n.v, w.v) > 0) next.set(n.id, n);
    }
    const same = winners.size === next.size && [...next].every(([k, n]) => winners.get(k)?.version === n.version);
    winners = next;
    if (same) return winners;
  }
}

/**
 * The winners as nodes, and an edge per distinct (from, to, range) reached through winners; NU1107 on a
 * losing range. Answers each id's node index.
 */
function writeGraph(g: Graph, root: Node, winners: Map<string, Node>): Map<string, number> {
  const index = new Map<string, number>([[root.id, 0]]);
  for (const [k, n] of winners) if (k !== root.id) index.set(k, addNode(g, n.id, n.version));
  const edges = new Set<string>();
  const visit = (n: Node) => {
    for (const c of n.children) {
      const w = winners.get(c.id);
      if (!w) continue;
      const key = `${n.id} ${c.id} ${c.range}`;
      if (!edges.has(key)) {
        edges.add(key);
        addEdge(g, index.get(n.id)!, index.get(c.id)!, c.range);
        if (w.version !== c.version && !admits(c.range, w.v)) {
          addError(
            g,
            index.get(n.id)!,
            c.id,
            c.range,
            `version conflict detected for ${c.id}: ${w.version} is outside ${c.range} (NU1107)`,
          );
        }
      }
      if (w.version === c.version) visit(c);
    }
    for (const e of n.eclipsed) {
      const key = `${n.id} ${e.id} ${e.range}`;
      if (!winners.has(e.id) || edges.has(key)) continue;
      edges.add(key);
      addEdge(g, index.get(n.id)!, index.get(e.id)!, e.range);
    }
  };
  visit(root);
  return index;
}
