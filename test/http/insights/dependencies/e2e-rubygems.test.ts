/**
 * GetDependencies end to end for RubyGems: generated gem universes (hand cases and seeded random ones:
 * prereleases, `x86_64-linux` gems with their own dependencies, linux-only and java-only versions,
 * conflicts) served on loopback both as the rubygems.org JSON API (read through by the insights worker
 * on an emptied schema) and as the compact index (`/versions`, `/info/{name}`), and each root's graph
 * compared with the Gemfile.lock `bundle lock` writes for `gem "root", "= 1.0.0"` (Debian's Bundler
 * 2.3 on Ruby 3.1, x86_64-linux): nodes and edges as sets; Bundler failing = a graph or node error.
 * Skipped, with the reason printed, where Bundler is not installed (`apt-get install ruby bundler`).
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import insights from '../../../../functions/insights.ts';
import { differentialSeeds } from '../../../../tools/universes/differential-seeds.ts';
import { testDb, testEnv, workerClient } from '../../../support/env.ts';
import {
  bundleLock,
  HAS_BUNDLER,
  randomGemUniverse,
  startGemSource,
  type GemUniverse,
} from '../../../../tools/registries/gem-source.ts';
import { emptyInsights, graphSets } from '../../../../tools/universes/graphs.ts';
import { LINUX_ONLY_ORDER } from '../../../unit/resolve/rubygems-cases.ts';

const HAND: { label: string; u: GemUniverse }[] = [
  {
    label: 'platform gem wins and brings its own dependencies',
    u: {
      root: { '1.0.0': { deps: [['nat', '>= 0']] } },
      nat: { '1.0.0': { deps: [['a', '>= 0']] }, '1.1': { deps: [['a', '>= 0']], linux: [['b', '~> 1.0']] } },
      a: { '1.0.0': { deps: [] } },
      b: { '1.0.0': { deps: [] }, '1.5': { deps: [] }, '2.0.0': { deps: [] } },
    },
  },
  {
    label: 'java-only version is skipped, linux-only version is used',
    u: {
      root: {
        '1.0.0': {
          deps: [
            ['j', '>= 0'],
            ['l', '>= 0'],
          ],
        },
      },
      j: { '1.0.0': { deps: [] }, '2.0.0': { java: [] } },
      l: { '1.0.0': { deps: [] }, '2.0.0': { linux: [] } },
    },
  },
  {
    label: 'prereleases only when required or when there is nothing else',
    u: {
      root: {
        '1.0.0': {
          deps: [
            ['p', '>= 1.0'],
            ['q', '~> 2.0.0.a'],
            ['r', '>= 0'],
          ],
        },
      },
      p: { '1.0.0': { deps: [] }, '2.0.0.beta1': { deps: [] } },
      q: { '1.0.0': { deps: [] }, '2.0.0.rc1': { deps: [] } },
      r: { '0.1.0.pre': { deps: [] }, '0.2.0.pre': { deps: [] } },
    },
  },
  {
    label: 'a conflict moves a choice down',
    u: {
      root: {
        '1.0.0': {
          deps: [
            ['a', '>= 0'],
            ['b', '>= 0'],
          ],
        },
      },
      a: { '1.0.0': { deps: [['c', '~> 1.0']] }, '2.0.0': { deps: [['c', '~> 2.0']] } },
      b: { '1.0.0': { deps: [['c', '< 2']] } },
      c: { '1.0.0': { deps: [] }, '1.4': { deps: [] }, '2.0.0': { deps: [] } },
    },
  },
  {
    label: 'shared dependency narrowed by two requirements',
    u: {
      root: {
        '1.0.0': {
          deps: [
            ['a', '>= 0'],
            ['b', '>= 0'],
          ],
        },
      },
      a: { '1.0.0': { deps: [['c', '>= 1.1']] } },
      b: { '1.0.0': { deps: [['c', '!= 2.0.0, < 3']] } },
      c: {
        '1.0.0': { deps: [] },
        '1.1': { deps: [] },
        '2.0.0': { deps: [] },
        '2.1': { deps: [] },
        '3.0.0': { deps: [] },
      },
    },
  },
  { label: 'no version matches', u: { root: { '1.0.0': { deps: [['a', '>= 5']] } }, a: { '1.0.0': { deps: [] } } } },
  {
    // amount constrained counts two spec groups for a linux-only version too, so `rb` is resolved first
    label: 'a linux-only version counts as two spec groups in the resolution order',
    u: LINUX_ONLY_ORDER,
  },
];
const { seeds, withHand } = differentialSeeds(2000, 40);
const UNIVERSES = [
  ...(withHand ? HAND : []),
  ...seeds.map((seed) => ({ label: `random universe ${seed}`, u: randomGemUniverse(seed) })),
];

let source: { url: string; close(): Promise<void> };

describe.runIf(HAS_BUNDLER)('rubygems graphs through the endpoint on a cold service equal bundle lock', () => {
  beforeAll(async () => {
    source = await startGemSource(UNIVERSES.map((x) => x.u));
    const v = spawnSync('bundle', ['--version'], { encoding: 'utf8' }).stdout.trim();
    console.log(`rubygems end to end: ${UNIVERSES.length} universes compared with ${v} lockfiles (x86_64-linux)`);
  });
  afterAll(async () => {
    await source?.close();
    await emptyInsights(testDb());
  });

  test.each(UNIVERSES.map((x, i) => [x.label, i] as const))(
    '%s',
    async (_l, i) => {
      await emptyInsights(testDb());
      const api = workerClient(insights, testEnv({ RUBYGEMS_URL: `${source.url}/u${i}`, OSV_API_URL: source.url }));
      const res = await api.get('/v3/systems/rubygems/packages/root/versions/1.0.0:dependencies');
      const body = (await res.json()) as any;
      const lock = await bundleLock(`${source.url}/u${i}/`, 'root', '1.0.0');
      expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(200);
      const failed = body.error !== '' || body.nodes.some((n: any) => n.errors.length > 0);
      if (!lock.ok) {
        expect(
          failed,
          `bundler failed (${lock.stderr.split('\n').find((l) => l.includes('ould not'))}); ours: ${JSON.stringify(body).slice(0, 300)}`,
        ).toBe(true);
        return;
      }
      expect(failed, JSON.stringify(body).slice(0, 500)).toBe(false);
      expect(graphSets(body)).toEqual({ nodes: lock.nodes, edges: lock.edges });
    },
    180_000,
  );
});

if (!HAS_BUNDLER)
  console.warn('rubygems end to end skipped: `bundle` is not installed (apt-get install -y ruby bundler)');
