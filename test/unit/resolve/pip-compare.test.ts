import { beforeAll, describe, expect, test } from 'vitest';
import { resolvePypi } from '../../../src/resolve/pypi.ts';
import type { PythonEnv } from '../../../src/resolve/pypi-markers.ts';
import { PIP_CASES, randomPipUniverse } from '../../../tools/universes/pip-cases.ts';
import {
  HAS_PIP,
  pipClient,
  pipEnvironment,
  pipInstallReport,
  pipVersion,
  prefixUniverse,
  type PipUniverse,
} from '../../../tools/registries/pip-index.ts';

// Real pip (`pip install --dry-run --report` over a local simple index) as the oracle, run only
// where `python3 -m pip` works. The resolver runs in pip's own marker environment (read from pip),
// and its set of name@version must equal the report's `install` list; when pip fails, ours must
// report a graph error. pip costs ~0.7 s a run, so universes are batched: every universe we resolve
// goes into one index (projects prefixed `u<i>-`) and one `pip install u0-root==1.0.0 u1-root==...`
// (halved on failure until the failing ones run alone); universes we fail on run alone; any batch
// answer that differs from ours is confirmed by a run of that universe alone, which then counts.
const SEEDS = Array.from({ length: 40 }, (_, i) => 5000 + i);
const UNIVERSES: { label: string; u: PipUniverse }[] = [
  ...PIP_CASES.map((c) => ({ label: `hand: ${c.name}`, u: c.u })),
  ...SEEDS.map((s) => ({ label: `random universe ${s}`, u: randomPipUniverse(s) })),
];
const CONCURRENCY = 3;
// pip before 23.3 looks up the candidates of `name[extra]` with that identifier's requirements only
// and fails where pip 24.2 (and ours) resolve; such universes run alone there.
const OLD_PIP_FAILS = new Set(['hand: an extras identifier is held to the version its project is pinned at']);
const PIP_VERSION = HAS_PIP ? pipVersion() : '';
const PIP_MM = /^pip (\d+)\.(\d+)/.exec(PIP_VERSION);
const OLD_PIP = PIP_MM !== null && Number(PIP_MM[1]) * 100 + Number(PIP_MM[2]) < 2303;
const knownOld = (i: number) => OLD_PIP && OLD_PIP_FAILS.has(UNIVERSES[i]!.label);

type Answer = string[] | 'failed';

async function ours(u: PipUniverse, env: PythonEnv): Promise<Answer> {
  const g = await resolvePypi(pipClient(u), 'root', '1.0.0', { env, resolvelib: '1.0' });
  if (g.error !== '' || g.nodes.some((n) => n.errors.length > 0)) return 'failed';
  return g.nodes.map((n) => `${n.name}@${n.version}`).sort();
}

async function limited<T>(jobs: (() => Promise<T>)[], n: number): Promise<T[]> {
  const out: T[] = new Array(jobs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < jobs.length) {
        const i = next++;
        out[i] = await jobs[i]!();
      }
    }),
  );
  return out;
}

const mine = new Map<number, Answer>();
const pips = new Map<number, Answer>();
let pipRuns = 0;

/** One pip run over universes `ids` together; on failure halves the batch until the culprits run alone. */
async function oracle(ids: number[]): Promise<void> {
  const u: PipUniverse = Object.assign({}, ...ids.map((i) => prefixUniverse(UNIVERSES[i]!.u, `u${i}-`)));
  pipRuns++;
  const res = await pipInstallReport(
    u,
    ids.map((i) => `u${i}-root==1.0.0`),
  );
  if (res.ok) {
    for (const i of ids) {
      const p = `u${i}-`;
      pips.set(
        i,
        res.installs
          .filter((x) => x.startsWith(p))
          .map((x) => x.slice(p.length))
          .sort(),
      );
    }
    return;
  }
  if (ids.length === 1) {
    pips.set(ids[0]!, 'failed');
    return;
  }
  const half = Math.ceil(ids.length / 2);
  await Promise.all([oracle(ids.slice(0, half)), oracle(ids.slice(half))]);
}

describe.runIf(HAS_PIP)('pypi resolver against pip install --dry-run --report', () => {
  beforeAll(async () => {
    const env = pipEnvironment();
    const all = UNIVERSES.map((_, i) => i);
    for (const i of all) mine.set(i, await ours(UNIVERSES[i]!.u, env));
    const resolved = all.filter((i) => mine.get(i) !== 'failed' && !knownOld(i));
    const failed = all.filter((i) => mine.get(i) === 'failed' || knownOld(i));
    await limited([() => oracle(resolved), ...failed.map((i) => () => oracle([i]))], CONCURRENCY);
    const differ = resolved.filter((i) => JSON.stringify(pips.get(i)) !== JSON.stringify(mine.get(i)));
    await limited(
      differ.map((i) => () => oracle([i])),
      CONCURRENCY,
    );
    if (process.env.PIP_COMPARE_VERBOSE) {
      const failing = [...pips.values()].filter((a) => a === 'failed').length;
      console.info(
        `${PIP_VERSION}: ${UNIVERSES.length} universes, pip resolves ${UNIVERSES.length - failing} and fails ${failing}, ${pipRuns} pip runs`,
      );
    }
  }, 180_000);

  test('universes: hand-written and seeded, both outcomes present, few pip runs', () => {
    expect(UNIVERSES.length).toBe(PIP_CASES.length + SEEDS.length);
    expect(pips.size).toBe(UNIVERSES.length);
    const failing = [...pips.values()].filter((a) => a === 'failed').length;
    expect(failing).toBeGreaterThan(0);
    expect(failing).toBeLessThan(UNIVERSES.length / 2);
    expect(pipRuns, `${pipRuns} pip runs, ${failing} failing`).toBeLessThanOrEqual(25);
  });

  test.each(UNIVERSES.map((x, i) => [x.label, i] as const))('%s', (_label, i) => {
    if (knownOld(i)) {
      expect([pips.get(i), mine.get(i) === 'failed'], 'pip < 23.3 fails, ours resolves as pip 24 does').toEqual([
        'failed',
        false,
      ]);
      return;
    }
    expect(mine.get(i), JSON.stringify(UNIVERSES[i]!.u)).toEqual(pips.get(i));
  });
});
