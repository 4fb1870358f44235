import { describe, expect, test } from 'vitest';
import { resolveCargo } from '../../../src/resolve/cargo.ts';
import { canon } from '../../../src/resolve/graph.ts';
import type { Graph } from '../../../src/resolve/types.ts';
import { CARGO_CASES } from './cargo-cases.ts';
import { HAS_CARGO, cargoLock, randomUniverse } from '../../../tools/registries/cargo-registry.ts';
import { cargoClient, type CargoUniverse } from '../../../tools/universes/cargo-universe.ts';

// Real cargo (`cargo generate-lockfile --offline` over a local registry) as the oracle, run only
// where cargo is installed. Our graph with `platform: null` (every target) must have exactly the
// packages and package-to-package edges of Cargo.lock; when cargo fails, ours must report a graph
// error or a node error (deps.dev's convention keeps a graph with node errors where cargo aborts).
const SEEDS = Array.from({ length: 24 }, (_, i) => 1000 + i);
// The step-budget case is not a universe; `not a req` is a requirement cargo cannot read at all.
const HAND = CARGO_CASES.filter((c) => !c.name.startsWith('a requirement nothing satisfies'));

function ours(g: Graph): { nodes: string[]; edges: string[]; failed: boolean } {
  const c = canon(g);
  const id = (i: number) => `${c.nodes[i]!.name}@${c.nodes[i]!.version}`;
  return {
    nodes: c.nodes.map((_, i) => id(i)).sort(),
    edges: [...new Set(c.edges.map((e) => `${id(e.from)} -> ${id(e.to)}`))].sort(),
    failed: c.error !== '' || c.nodes.some((n) => n.errors.length > 0),
  };
}

async function compare(u: CargoUniverse) {
  const [lock, got] = await Promise.all([
    cargoLock(u, 'root', '1.0.0'),
    resolveCargo(cargoClient(u), 'root', '1.0.0', { platform: null }),
  ]);
  const o = ours(got);
  if (!lock.ok)
    return {
      cargo: 'failed',
      ours: o.failed ? 'failed' : o,
      why: lock.stderr.split('\n').find((l) => l.startsWith('error')),
    };
  return {
    cargo: { nodes: lock.nodes, edges: lock.edges },
    ours: o.failed ? `failed: ${got.error}` : { nodes: o.nodes, edges: o.edges },
  };
}

describe.runIf(HAS_CARGO)('cargo resolver against cargo generate-lockfile', () => {
  test.concurrent.each(HAND.map((c) => [c.name, c] as const))('hand universe: %s', async (_n, c) => {
    const r = await compare(c.u);
    expect(r.ours, JSON.stringify(r)).toEqual(r.cargo === 'failed' ? 'failed' : r.cargo);
  });
  test.concurrent.each(SEEDS)('random universe %i', async (seed) => {
    const r = await compare(randomUniverse(seed));
    expect(r.ours, JSON.stringify(r)).toEqual(r.cargo === 'failed' ? 'failed' : r.cargo);
  });
});
