/**
 * GetDependencies end to end for Cargo: generated universes (the hand cases and seeded random ones of
 * the unit suite, target filters dropped so both sides see the same unconditional dependencies) served
 * as a crates.io sparse index on loopback, the insights worker on an emptied schema reading every crate
 * through, and each root's graph compared with `cargo generate-lockfile --offline` over the same
 * universe (packages and package-to-package edges; cargo failing = a graph or node error). Runs where
 * cargo is installed.
 *
 * The endpoint serves the graph cargo builds for x86_64-unknown-linux-gnu (resolver 2), where `dep?/feat`
 * does not enable `dep`; Cargo.lock also lists such weakly named optional dependencies. So a universe
 * with a weak feature must give a graph inside Cargo.lock's, every other one exactly Cargo.lock's.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import insights from '../../../../functions/insights.ts';
import { differentialSeeds } from '../../../../tools/universes/differential-seeds.ts';
import { testDb, testEnv, workerClient } from '../../../support/env.ts';
import { emptyInsights, graphSets } from '../../../../tools/universes/graphs.ts';
import { startRegistry, type RegistryServer } from '../../../../tools/registries/registry-server.ts';
import { CARGO_CASES } from '../../../unit/resolve/cargo-cases.ts';
import {
  HAS_CARGO,
  cargoLock,
  indexLine,
  indexPath,
  randomUniverse,
} from '../../../../tools/registries/cargo-registry.ts';
import type { CargoUniverse } from '../../../../tools/universes/cargo-universe.ts';

const unconditional = (u: CargoUniverse): CargoUniverse =>
  Object.fromEntries(
    Object.entries(u).map(([n, vs]) => [
      n,
      Object.fromEntries(
        Object.entries(vs).map(([v, s]) => [
          v,
          {
            ...s,
            deps: (s.deps ?? []).map(([d, r, a = {}]) => {
              const { environment: _drop, ...rest } = a;
              return [d, r, rest] as const;
            }),
          },
        ]),
      ),
    ]),
  );

const HAND = CARGO_CASES.filter((c) => !c.name.startsWith('a requirement nothing satisfies') && !c.opts);
// several renamed dependencies on one crate, of different majors (one of them optional and enabled by a
// default feature, one shared with a dependency whose range spans two majors)
const RENAMED: CargoUniverse[] = [
  {
    root: {
      '1.0.0': {
        deps: [
          ['lib', '^1.0', { knownas: 'lib1' }],
          ['lib', '^2.0', { knownas: 'lib2' }],
          ['lib', '^0.3', { knownas: 'lib03' }],
        ],
        features: {},
      },
    },
    lib: { '0.3.1': {}, '0.3.5': {}, '1.0.0': {}, '1.4.0': {}, '2.0.0': {}, '2.1.0': {}, '3.0.0': {} },
  },
  {
    root: {
      '1.0.0': {
        deps: [
          ['lib', '^2.0', { knownas: 'newlib' }],
          ['lib', '^1.0', { knownas: 'oldlib', opt: '' }],
          ['mid', '*'],
        ],
        features: { default: ['oldlib'] },
      },
    },
    lib: { '1.0.0': {}, '1.4.0': {}, '2.0.0': {}, '2.1.0': {} },
    mid: { '1.0.0': { deps: [['lib', '>=1.0, <3', { knownas: 'l' }]] } },
  },
];
// beside the fixed seeds, two the differential found: an optional dependency named only weakly
// (`c8_r?/fast`) whose requirement matches no version fails cargo's resolution (9062, 9105)
const { seeds: fixedSeeds, withHand } = differentialSeeds(1000, 24);
const seeds = withHand ? [...fixedSeeds, 9062, 9105] : fixedSeeds;
const UNIVERSES = [
  ...(withHand ? HAND.map((c) => ({ label: `hand: ${c.name}`, u: unconditional(c.u) })) : []),
  ...(withHand ? RENAMED.map((u, i) => ({ label: `renamed majors ${i + 1}`, u })) : []),
  ...seeds.map((seed) => ({ label: `random universe ${seed}`, u: unconditional(randomUniverse(seed)) })),
];
// universe i is served under /u<i>/ (its own index); the schema is emptied before each universe
const LINES = new Map<string, string>();
UNIVERSES.forEach(({ u }, i) => {
  for (const [name, versions] of Object.entries(u)) {
    LINES.set(
      `/u${i}/${indexPath(name)}`,
      `${Object.entries(versions)
        .map(([v, s]) => indexLine(name, v, s))
        .join('\n')}\n`,
    );
  }
});

let registry: RegistryServer;

describe.runIf(HAS_CARGO)('cargo graphs through the endpoint on a cold service equal cargo generate-lockfile', () => {
  beforeAll(async () => {
    registry = await startRegistry((p) =>
      p.endsWith('/config.json') ? { dl: 'http://127.0.0.1:1/crates' } : LINES.get(p),
    );
    const weak = UNIVERSES.filter(({ u }) => JSON.stringify(u).includes('?/')).length;
    console.log(
      `cargo end to end: ${UNIVERSES.length} universes (${weak} with weak features: inside Cargo.lock) compared with ${spawnSync('cargo', ['--version'], { encoding: 'utf8' }).stdout.trim()}`,
    );
  });
  afterAll(async () => {
    await registry?.close();
    await emptyInsights(testDb()); // generated crates: leave no trace for other suites
  });

  test.each(UNIVERSES.map((x, i) => [x.label, i] as const))('%s', async (_l, i) => {
    const { u } = UNIVERSES[i]!;
    const weak = Object.values(u).some((vs) =>
      Object.values(vs).some((v) =>
        Object.values(v.features ?? {})
          .flat()
          .some((f) => f.includes('?/')),
      ),
    );
    await emptyInsights(testDb());
    const api = workerClient(
      insights,
      testEnv({ CRATES_INDEX_URL: `${registry.url}/u${i}`, CRATES_API_URL: registry.url, OSV_API_URL: registry.url }),
    );
    const res = await api.get('/v3/systems/cargo/packages/root/versions/1.0.0:dependencies');
    const body = (await res.json()) as any;
    const lock = await cargoLock(u, 'root', '1.0.0');
    if (!u.root?.['1.0.0']) {
      expect([res.status, lock.ok]).toEqual([404, false]);
      return;
    }
    expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(200);
    const failed = body.error !== '' || body.nodes.some((n: any) => n.errors.length > 0);
    if (!lock.ok) {
      expect(
        failed,
        `cargo failed (${lock.stderr.split('\n').find((l) => l.startsWith('error'))}); ours: ${JSON.stringify(body).slice(0, 300)}`,
      ).toBe(true);
      return;
    }
    expect(failed, JSON.stringify(body).slice(0, 500)).toBe(false);
    const got = graphSets(body);
    if (!weak) {
      expect(got).toEqual({ nodes: lock.nodes, edges: lock.edges });
      return;
    }
    expect(got.nodes.filter((n) => !lock.nodes.includes(n))).toEqual([]);
    expect(got.edges.filter((e) => !lock.edges.includes(e))).toEqual([]);
  });
});
