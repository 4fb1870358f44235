/**
 * GetDependencies end to end for npm on seeded random universes (tools/universes/npm-random.ts: peers on
 * the root and on ancestors, diamonds that allow dedupe, optional peers), compared with npm itself
 * (tools/registries/npm-oracle.ts: `npm install --package-lock-only` of `root@1.0.0` in an empty
 * project, served by the same loopback registry). The insights worker reads every packument through
 * on an emptied schema; the answer must hold exactly the packages and package-to-package edges of
 * npm's lockfile, and carry an error exactly where npm fails. `npm run differential -- --system npm`
 * runs it on other seeds (tools/universes/differential-seeds.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import insights from '../../../../functions/insights.ts';
import { testDb, testEnv, workerClient } from '../../../support/env.ts';
import { emptyInsights, graphSets } from '../../../../tools/universes/graphs.ts';
import { npmRoute, startRegistry, type RegistryServer } from '../../../../tools/registries/registry-server.ts';
import { lockMissing, lockSets, npmInstallLock, type NpmAnswer } from '../../../../tools/registries/npm-oracle.ts';
import { randomNpmUniverse } from '../../../../tools/universes/npm-random.ts';
import { differentialSeeds, toolFailure } from '../../../../tools/universes/differential-seeds.ts';

// beside the fixed seeds, the ones the differential found (test/unit/resolve/npm-installed.test.ts):
// 4013 (a root dependency nested in the root's folder), 4041 (an overridden set member kept), 4388
// (pruneDedupable's second pass), 30136, 30301, 30443 (a replacement prunes the peer sets it leaves unmet),
// 30163 (a nesting loop ends in a link to the folder above), 50156, 50493 (a copy's own set does not hold
// it in place), 50178 (a replacement prunes the replacing copy itself), 70200, 70446 (a peer edge replaces
// a member of the set being loaded)
const { seeds, withHand } = differentialSeeds(3000, 12);
const UNIVERSES = (
  withHand ? [...seeds, 4013, 4041, 4388, 30136, 30163, 30301, 30443, 50156, 50178, 50493, 70200, 70446] : seeds
).map(randomNpmUniverse);
const PACKUMENTS = Object.assign({}, ...UNIVERSES.map((u) => u.packuments));
const answers = new Map<number, NpmAnswer>();
let registry: RegistryServer;

beforeAll(async () => {
  registry = await startRegistry(npmRoute(PACKUMENTS));
  const queue = [...UNIVERSES];
  const worker = async () => {
    for (let u = queue.shift(); u; u = queue.shift())
      answers.set(u.seed, await npmInstallLock(registry.url, u.root, u.version));
  };
  await Promise.all([worker(), worker(), worker()]);
  const failed = [...answers.values()].filter((a) => !a.ok).length;
  console.log(`npm random universes: ${UNIVERSES.length} resolved by npm (${failed} where npm fails)`);
}, 900_000);
afterAll(async () => {
  await registry?.close();
  await emptyInsights(testDb());
});

describe('npm graphs of random universes through the endpoint equal what npm installs', () => {
  test.each(UNIVERSES.map((u) => [`random universe ${u.seed}`, u] as const))(
    '%s',
    async (_l, u) => {
      await emptyInsights(testDb());
      const api = workerClient(
        insights,
        testEnv({ NPM_REGISTRY_URL: registry.url, INSIGHTS_NPM_TARBALLS: 'off', OSV_API_URL: registry.url }),
      );
      const res = await api.get(`/v3/systems/npm/packages/${u.root}/versions/${u.version}:dependencies`);
      const text = await res.text();
      expect(res.status, text.slice(0, 300)).toBe(200);
      const body = JSON.parse(text);
      const failed = body.error !== '' || body.nodes.some((n: { errors: string[] }) => n.errors.length > 0);
      const want = answers.get(u.seed)!;
      const universe = JSON.stringify(u.packuments);
      const label = `random universe ${u.seed}`;
      if (!want.ok && want.crashed && toolFailure(label, `npm crashed: ${want.error}`)) return;
      if (!want.ok) {
        expect(failed, `npm fails (${want.error}); ours: ${text.slice(0, 300)}\n${universe}`).toBe(true);
        return;
      }
      const lock = await lockSets(u.packuments, want.lock);
      if (JSON.stringify(graphSets(body)) !== JSON.stringify(lock)) {
        const missing = await lockMissing(u.packuments, want.lock, u.root);
        if (missing.length > 0 && toolFailure(label, `npm's lockfile misses ${missing.join(', ')}`)) return;
      }
      expect(graphSets(body), universe).toEqual(lock);
    },
    120_000,
  );
});
