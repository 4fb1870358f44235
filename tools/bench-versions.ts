/**
 * Benchmark: src/versions (NPM) against node-semver on the same inputs, in one run.
 * Run: `npm run bench:versions` (node tools/bench-versions.ts, Node 22 type stripping).
 * Inputs: the node-semver range-include/exclude fixtures plus a synthetic registry-like version
 * list; `satisfies` runs every (version, range) pair; `sort` sorts the version list.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as V from '../src/versions/index.ts';

const require = createRequire(import.meta.url);
const semver = require('semver') as typeof import('semver');
const fixtures = new URL('../../shared/conformance/node-semver/', import.meta.url);

function loadRanges(): string[] {
  const out = new Set<string>(['^1.2.3', '~1.2', '>=1.0.0 <2.0.0', '1.x || >=2.5.0', '1.2.3 - 2.3.4', '*', '^0.1.0']);
  for (const f of ['range-include.js', 'range-exclude.js']) {
    try {
      for (const [r] of require(fileURLToPath(new URL(f, fixtures))) as [string][])
        if (semver.validRange(r)) out.add(r);
    } catch {
      // fixtures not present: synthetic ranges only
    }
  }
  return [...out];
}

function versionsList(): string[] {
  const out: string[] = [];
  for (let M = 0; M < 5; M++)
    for (let m = 0; m < 12; m++)
      for (let p = 0; p < 6; p++) {
        out.push(`${M}.${m}.${p}`);
        if (p === 0) out.push(`${M}.${m}.${p}-rc.${m}`, `${M}.${m}.${p}-beta.2`);
      }
  // deterministic shuffle
  let seed = 42;
  for (let i = out.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function bench(_name: string, fn: () => number, minMs = 1500): number {
  fn(); // warm-up
  let ops = 0;
  const start = performance.now();
  let now = start;
  while (now - start < minMs) {
    ops += fn();
    now = performance.now();
  }
  return (ops * 1000) / (now - start);
}

const ranges = loadRanges();
const versions = versionsList();
const sample = versions.filter((_, i) => i % 7 === 0);

let sink = 0;
const satOurs = bench('ours satisfies', () => {
  for (const r of ranges) for (const v of sample) if (V.satisfies('NPM', v, r)) sink++;
  return ranges.length * sample.length;
});
const satTheirs = bench('semver satisfies', () => {
  for (const r of ranges) for (const v of sample) if (semver.satisfies(v, r)) sink++;
  return ranges.length * sample.length;
});
const sortOurs = bench('ours sort', () => {
  sink += V.sort('NPM', versions).length;
  return 1;
});
const sortTheirs = bench('semver sort', () => {
  sink += semver.sort(versions.slice()).length;
  return 1;
});

// Sanity: both libraries agree on these inputs.
let disagree = 0;
for (const r of ranges) for (const v of sample) if (V.satisfies('NPM', v, r) !== semver.satisfies(v, r)) disagree++;
const sortedSame = JSON.stringify(V.sort('NPM', versions)) === JSON.stringify(semver.sort(versions.slice()));

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US').padStart(14);
console.log(
  `inputs: ${ranges.length} ranges x ${sample.length} versions (satisfies), ${versions.length} versions (sort)`,
);
console.log(`                        ours/s     node-semver/s   ratio (ours / node-semver)`);
console.log(`satisfies      ${fmt(satOurs)}  ${fmt(satTheirs)}   ${(satOurs / satTheirs).toFixed(2)}x`);
console.log(`sort (lists)   ${fmt(sortOurs)}  ${fmt(sortTheirs)}   ${(sortOurs / sortTheirs).toFixed(2)}x`);
console.log(`agreement: satisfies disagreements ${disagree}, sort identical ${sortedSame}  (sink ${sink % 10})`);
