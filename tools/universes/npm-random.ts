/**
 * Seeded random npm universes for the differential comparison with npm itself
 * (test/http/insights/dependencies/e2e-npm-random.test.ts, `npm run differential -- --system npm`):
 * a root `u<seed>-root` (1.0.0, sometimes a newer 2.0.0 beside it) and 3-7 packages `u<seed>-p<i>`
 * with 1-3 versions each. A package depends only on packages after it (diamonds: several dependents
 * of one package with different ranges, so npm may dedupe or nest); peer dependencies go anywhere:
 * on the root (a plugin of the package being installed), on an ancestor, on a sibling, sometimes
 * optional (peerDependenciesMeta). Ranges are formed from published versions (`^v`, `~v`, `>=v`,
 * `*`, `v`, `^a || ^b`), so npm fails only on peer conflicts (ERESOLVE).
 */
import type { Packument, PackumentVersion } from '../../src/resolve/npm-packument.ts';
import { seededRandom } from '../seeded-random.ts';

const POOL = ['1.0.0', '1.1.0', '1.2.0', '2.0.0', '2.1.0', '3.0.0'] as const;

export interface NpmUniverse {
  seed: number;
  root: string;
  version: string;
  packuments: Record<string, Packument>;
}

export function randomNpmUniverse(seed: number): NpmUniverse {
  const rnd = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const root = `u${seed}-root`;
  const n = 3 + Math.floor(rnd() * 5);
  const names = Array.from({ length: n }, (_, i) => `u${seed}-p${i}`);
  const versions = new Map<string, string[]>();
  for (const name of names) {
    const count = 1 + Math.floor(rnd() * 3);
    versions.set(name, [...new Set(Array.from({ length: count }, () => pick(POOL)))].sort());
  }
  versions.set(root, rnd() < 0.4 ? ['1.0.0', '2.0.0'] : ['1.0.0']);
  const range = (target: string): string => {
    const vs = versions.get(target)!;
    const v = pick(vs);
    const major = v.split('.')[0];
    return pick([`^${v}`, `~${v}`, `>=${v}`, '*', v, `^${major}.0.0 || ^${pick(vs).split('.')[0]}.0.0`]);
  };
  const manifest = (name: string, index: number): PackumentVersion => {
    const deps: Record<string, string> = {};
    const peers: Record<string, string> = {};
    const meta: Record<string, { optional: boolean }> = {};
    for (let j = index + 1; j < n; j++) if (rnd() < (index < 0 ? 0.6 : 0.4)) deps[names[j]!] = range(names[j]!);
    if (index >= 0 && rnd() < 0.35) {
      const target = rnd() < 0.4 ? root : pick(names.filter((x) => x !== name && !deps[x]));
      if (target) {
        peers[target] = target === root ? pick(['*', '^1.0.0', '>=1.0.0']) : range(target);
        if (rnd() < 0.25) meta[target] = { optional: true };
      }
    }
    return {
      ...(Object.keys(deps).length ? { dependencies: deps } : {}),
      ...(Object.keys(peers).length ? { peerDependencies: peers } : {}),
      ...(Object.keys(meta).length ? { peerDependenciesMeta: meta } : {}),
    };
  };
  const packuments: Record<string, Packument> = {};
  const add = (name: string, index: number) => {
    const vs = versions.get(name)!;
    const doc: Packument = { name, 'dist-tags': { latest: vs[vs.length - 1]! }, versions: {} };
    for (const v of vs) {
      doc.versions[v] = {
        name,
        version: v,
        ...manifest(name, index),
        dist: { tarball: `http://127.0.0.1:9/${name}/-/${name}-${v}.tgz` },
      } as PackumentVersion;
    }
    packuments[name] = doc;
  };
  add(root, -1);
  for (const [i, name] of names.entries()) add(name, i);
  return { seed, root, version: '1.0.0', packuments };
}
