/**
 * GetDependencies end to end for PyPI: generated universes (the hand cases and seeded random ones of the
 * unit suite) served as PyPI's JSON API on loopback (tools/registries/pypi-json.ts), the insights worker on
 * an emptied schema reading every project through, RESOLVE_PYTHON_VERSION set to the interpreter pip
 * runs on, and each root's graph compared with `pip install --dry-run --report` over the same universe
 * as a simple index (tools/registries/pip-index.ts): the same name@version set, and a graph error
 * (or node errors) exactly where pip fails. Runs where `python3 -m pip` works.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import insights from '../../../../functions/insights.ts';
import { testDb, testEnv, workerClient } from '../../../support/env.ts';
import { emptyInsights, graphSets } from '../../../../tools/universes/graphs.ts';
import { pypiJsonRoute } from '../../../../tools/registries/pypi-json.ts';
import { startRegistry, type RegistryServer } from '../../../../tools/registries/registry-server.ts';
import { PIP_CASES, randomPipUniverse } from '../../../../tools/universes/pip-cases.ts';
import { differentialSeeds, toolFailure } from '../../../../tools/universes/differential-seeds.ts';
import {
  HAS_PIP,
  pipEnvironment,
  pipInstallReport,
  pipVersion,
  type PipUniverse,
} from '../../../../tools/registries/pip-index.ts';

const { seeds, withHand } = differentialSeeds(5000, 40);
const UNIVERSES: { label: string; u: PipUniverse }[] = [
  ...(withHand ? PIP_CASES.map((c) => ({ label: `hand: ${c.name}`, u: c.u })) : []),
  ...seeds.map((seed) => ({ label: `random universe ${seed}`, u: randomPipUniverse(seed) })),
];
// pip before 23.3 fails on these where pip 24.2 (and the service) resolve (see pip-compare.test.ts)
const OLD_PIP_FAILS = new Set(['hand: an extras identifier is held to the version its project is pinned at']);
const PIP_MM = HAS_PIP ? /^pip (\d+)\.(\d+)/.exec(pipVersion()) : null;
const OLD_PIP = PIP_MM !== null && Number(PIP_MM[1]) * 100 + Number(PIP_MM[2]) < 2303;
let registry: RegistryServer;
let current: PipUniverse = {};
let python = '';

describe.runIf(HAS_PIP)(
  'pypi graphs through the endpoint on a cold service equal pip install --dry-run --report',
  () => {
    beforeAll(async () => {
      python = pipEnvironment().python_full_version!;
      registry = await startRegistry((p) => (p === '/v1/query' ? {} : pypiJsonRoute(current)(p)));
      console.log(
        `pypi end to end: ${UNIVERSES.length} universes compared with ${pipVersion()}, RESOLVE_PYTHON_VERSION=${python}`,
      );
    });
    afterAll(async () => {
      await registry?.close();
      await emptyInsights(testDb()); // generated projects: leave no trace for other suites
    });

    test.each(UNIVERSES.map((x, i) => [x.label, i] as const))('%s', async (_l, i) => {
      const { u } = UNIVERSES[i]!;
      current = u;
      await emptyInsights(testDb());
      const api = workerClient(
        insights,
        testEnv({ PYPI_URL: registry.url, OSV_API_URL: registry.url, RESOLVE_PYTHON_VERSION: python }),
      );
      const [res, pip] = await Promise.all([
        api.get('/v3/systems/pypi/packages/root/versions/1.0.0:dependencies'),
        pipInstallReport(u, ['root==1.0.0']),
      ]);
      const body = (await res.json()) as any;
      if (!u.root?.['1.0.0']) {
        expect([res.status, pip.ok]).toEqual([404, false]);
        return;
      }
      expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(200);
      const failed = body.error !== '' || body.nodes.some((n: any) => n.errors.length > 0);
      if (OLD_PIP && OLD_PIP_FAILS.has(UNIVERSES[i]!.label)) {
        expect([pip.ok, failed], 'pip < 23.3 fails, the service resolves as pip 24 does').toEqual([false, false]);
        return;
      }
      // pip's resolver recursing past Python's limit is pip failing, not an answer about the universe
      if (!pip.ok && /RecursionError/.test(pip.stderr) && toolFailure(UNIVERSES[i]!.label, 'pip: RecursionError'))
        return;
      if (!pip.ok) {
        expect(
          failed,
          `pip failed: ${pip.stderr.split('\n').filter(Boolean).slice(-2).join(' ')}; ours: ${JSON.stringify(body).slice(0, 400)}`,
        ).toBe(true);
        return;
      }
      expect(failed, JSON.stringify(body).slice(0, 500)).toBe(false);
      expect(graphSets(body).nodes).toEqual(pip.installs.map((x) => x.toLowerCase()).sort());
    });
  },
);
