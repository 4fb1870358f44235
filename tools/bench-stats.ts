/** Latency statistics shared by the benchmarks. */

/** The p-th percentile of ascending samples by the nearest-rank method (p in (0, 100]). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
