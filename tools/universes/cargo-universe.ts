/**
 * Compact in-memory Cargo universes for tests: `{crate: {version: {deps, features, yanked, links}}}`
 * with dependencies as `[name, requirement, attrs?]` (attrs in the resolver vocabulary of
 * src/resolve/cargo.ts), and a name-based rendering of graphs for exact comparisons.
 */
import { MemoryClient } from '../../src/resolve/memory-client.ts';
import { canon } from '../../src/resolve/graph.ts';
import type { Attrs, Graph } from '../../src/resolve/types.ts';

export type CargoDepSpec = readonly [name: string, requirement: string, attrs?: Attrs];
export interface CargoVersionSpec {
  deps?: readonly CargoDepSpec[];
  features?: Readonly<Record<string, readonly string[]>>;
  yanked?: boolean;
  links?: string;
}
export type CargoUniverse = Readonly<Record<string, Readonly<Record<string, CargoVersionSpec>>>>;

export function cargoClient(u: CargoUniverse): MemoryClient {
  const c = new MemoryClient();
  for (const [name, versions] of Object.entries(u)) {
    for (const [version, spec] of Object.entries(versions)) {
      const attrs: Attrs = {};
      if (spec.yanked) attrs.blocked = '';
      if (spec.links) attrs.links = spec.links;
      if (spec.features) attrs.features = JSON.stringify(spec.features);
      c.addVersion(
        { name, version, attrs },
        (spec.deps ?? []).map(([n, r, a]) => ({ name: n, requirement: r, attrs: a ?? {} })),
      );
    }
  }
  return c;
}

/** `name@version -> name@version requirement [attrs]` per edge, then node errors and the graph error. */
export function describeGraph(g: Graph): string[] {
  const c = canon(g);
  const id = (i: number) => `${c.nodes[i]!.name}@${c.nodes[i]!.version}`;
  const out = c.edges.map((e) => {
    const a = Object.keys(e.attrs)
      .sort()
      .map((k) => (e.attrs[k] ? `${k}=${e.attrs[k]}` : k))
      .join(' ');
    return `${id(e.from)} -> ${id(e.to)} ${e.requirement}${a ? ` [${a}]` : ''}`;
  });
  for (const [i, n] of c.nodes.entries()) {
    for (const e of n.errors) out.push(`${id(i)} ERROR ${e.name}@${e.requirement}: ${e.message}`);
  }
  if (c.nodes.length === 1 && c.edges.length === 0 && !c.error) out.push(`only ${id(0)}`);
  if (c.error) out.push(`error ${c.error}`);
  return out;
}
