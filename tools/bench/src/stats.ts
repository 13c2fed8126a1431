/** Nearest-rank percentile (p in 0..100) of the samples; NaN for none. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export interface Timing {
  runs: number;
  p50Ms: number;
  p99Ms: number;
}

export function timing(samplesMs: readonly number[]): Timing {
  return {
    runs: samplesMs.length,
    p50Ms: percentile(samplesMs, 50),
    p99Ms: percentile(samplesMs, 99),
  };
}

/**
 * Runs `read` `runs` times — or, with a budget, as many of those as fit in it, at least
 * `minRuns` — and returns the last answer with the latency of each run.
 */
export async function repeat<T>(
  read: () => Promise<T>,
  runs: number,
  budget?: { ms: number; minRuns: number },
): Promise<{ answer: T; samplesMs: number[] }> {
  const samplesMs: number[] = [];
  const started = performance.now();
  let answer: T | undefined;
  for (let i = 0; i < runs; i++) {
    if (budget && i >= budget.minRuns && performance.now() - started > budget.ms) break;
    const t0 = performance.now();
    answer = await read();
    samplesMs.push(performance.now() - t0);
  }
  if (answer === undefined) throw new RangeError('repeat needs at least one run');
  return { answer, samplesMs };
}
