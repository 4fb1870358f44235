/**
 * Which seeded universes an end-to-end graph suite (test/http/insights/dependencies/e2e-*.test.ts)
 * runs: by default its fixed CI set (its hand cases and `count` seeds from `first`); under
 * `npm run differential` (tools/differential.ts) DIFFERENTIAL_UNIVERSES and DIFFERENTIAL_SEED choose
 * the seeds instead, and the hand cases are left out.
 */
export function differentialSeeds(first: number, count: number): { seeds: number[]; withHand: boolean } {
  const n = Number(process.env.DIFFERENTIAL_UNIVERSES ?? '');
  if (!Number.isInteger(n) || n <= 0)
    return { seeds: Array.from({ length: count }, (_, i) => first + i), withHand: true };
  const from = Number(process.env.DIFFERENTIAL_SEED ?? first);
  const start = Number.isInteger(from) ? from : first;
  return { seeds: Array.from({ length: n }, (_, i) => start + i), withHand: false };
}
