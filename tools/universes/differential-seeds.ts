/**
 * Which seeded universes an end-to-end graph suite (test/http/insights/dependencies/e2e-*.test.ts)
 * runs: by default its fixed CI set (its hand cases and `count` seeds from `first`); under
 * `npm run differential` (tools/differential.ts) DIFFERENTIAL_UNIVERSES and DIFFERENTIAL_SEED choose
 * the seeds instead, and the hand cases are left out.
 */
import { appendFileSync } from 'node:fs';

export function differentialSeeds(first: number, count: number): { seeds: number[]; withHand: boolean } {
  const n = Number(process.env.DIFFERENTIAL_UNIVERSES ?? '');
  if (!Number.isInteger(n) || n <= 0)
    return { seeds: Array.from({ length: count }, (_, i) => first + i), withHand: true };
  const from = Number(process.env.DIFFERENTIAL_SEED ?? first);
  const start = Number.isInteger(from) ? from : first;
  return { seeds: Array.from({ length: n }, (_, i) => start + i), withHand: false };
}

/**
 * Under `npm run differential`, records that the real tool itself failed on a universe (it crashed,
 * hung, or wrote an answer that is not a valid install), so the universe is counted apart, neither
 * equal nor different; true when recorded (the test then ends). Outside the differential it records
 * nothing and the suite compares as usual.
 */
export function toolFailure(label: string, reason: string): boolean {
  const file = process.env.DIFFERENTIAL_TOOL_FAILURES;
  if (!file || !process.env.DIFFERENTIAL_UNIVERSES) return false;
  appendFileSync(file, `${label}\t${reason.replace(/\s+/g, ' ').slice(0, 300)}\n`);
  return true;
}
