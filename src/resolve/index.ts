/**
 * Entry point of the pure resolvers: `resolveGraph(system, client, name, version)` dispatches to
 * the system's resolver, `toDependenciesJson` renders a graph as deps.dev's `Dependencies` message
 * (nodes in canonical order, node 0 SELF, DIRECT when the root has an edge to it, else INDIRECT).
 */
import { resolveCargo, type CargoOptions } from './cargo.ts';
import { canon } from './graph.ts';
import { resolveGo } from './go.ts';
import { resolveMaven, type MavenOptions } from './maven.ts';
import { resolveNpm, type NpmOptions } from './npm.ts';
import { resolvePypi, type PypiOptions } from './pypi.ts';
import { resolveRubygems, type RubygemsOptions } from './rubygems.ts';
import { resolveNuget, type NugetOptions } from './nuget.ts';
import type { Client, Graph, ResolveSystem } from './types.ts';

export type { Client, Dependency, Graph, ResolveSystem, VersionInfo } from './types.ts';
export { MemoryClient } from './memory-client.ts';

export const GRAPH_SYSTEMS: readonly ResolveSystem[] = ['NPM', 'MAVEN', 'PYPI', 'CARGO', 'GO', 'RUBYGEMS', 'NUGET'];

export interface ResolveOptions {
  npm?: NpmOptions;
  cargo?: CargoOptions;
  pypi?: PypiOptions;
  maven?: MavenOptions;
  rubygems?: RubygemsOptions;
  nuget?: NugetOptions;
}

export async function resolveGraph(
  system: ResolveSystem,
  client: Client,
  name: string,
  version: string,
  opts: ResolveOptions = {},
): Promise<Graph> {
  switch (system) {
    case 'NPM':
      return resolveNpm(client, name, version, opts.npm);
    case 'MAVEN':
      return resolveMaven(client, name, version, opts.maven);
    case 'PYPI':
      return resolvePypi(client, name, version, opts.pypi);
    case 'CARGO':
      return resolveCargo(client, name, version, opts.cargo);
    case 'GO':
      return resolveGo(client, name, version);
    case 'RUBYGEMS':
      return resolveRubygems(client, name, version, opts.rubygems);
    case 'NUGET':
      return resolveNuget(client, name, version, opts.nuget);
  }
}

export interface DependenciesJson {
  nodes: {
    versionKey: { system: string; name: string; version: string };
    bundled: boolean;
    relation: 'SELF' | 'DIRECT' | 'INDIRECT';
    errors: string[];
  }[];
  edges: { fromNode: number; toNode: number; requirement: string }[];
  error: string;
}

/** `spell(version, name)` gives the version's spelling in the answer (default: as resolved). */
export function toDependenciesJson(
  system: string,
  graph: Graph,
  spell: (v: string, name: string) => string = (v) => v,
): DependenciesJson {
  const g = canon(graph);
  const direct = new Set(g.edges.filter((e) => e.from === 0).map((e) => e.to));
  const seen = new Set<string>();
  const edges = g.edges.filter((e) => {
    const k = `${e.from} ${e.to} ${e.requirement}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  return {
    nodes: g.nodes.map((n, i) => ({
      versionKey: { system, name: n.name, version: spell(n.version, n.name) },
      bundled: n.bundled,
      relation: i === 0 ? 'SELF' : direct.has(i) ? 'DIRECT' : 'INDIRECT',
      errors: n.errors.map((e) => e.message),
    })),
    edges: edges.map((e) => ({ fromNode: e.from, toNode: e.to, requirement: e.requirement })),
    error: g.error,
  };
}
