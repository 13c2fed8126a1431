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

/**
 * Two reads run in turns, `runs` times each, the one going first swapped every round (a, b, b, a,
 * a, b …), so that whatever else slows the machine for a while slows both alike, and neither
 * always runs right after the other (whose garbage the next one may pay to collect): what a
 * ratio of their latencies needs on a shared machine.
 */
export async function repeatPaired<A, B>(
  a: () => Promise<A>,
  b: () => Promise<B>,
  runs: number,
  warmUp = 0,
): Promise<[{ answer: A; samplesMs: number[] }, { answer: B; samplesMs: number[] }]> {
  if (runs < 1) throw new RangeError('repeatPaired needs at least one run');
  // Untimed: the first runs of a read pay for compiling its code and loading its buckets into the
  // server's cache, once per process — a steady reader (the API) never sees that again.
  for (let i = 0; i < warmUp; i++) {
    await a();
    await b();
  }
  const first = { samplesMs: [] as number[] } as { answer: A; samplesMs: number[] };
  const second = { samplesMs: [] as number[] } as { answer: B; samplesMs: number[] };
  const runA = async () => {
    const t0 = performance.now();
    first.answer = await a();
    first.samplesMs.push(performance.now() - t0);
  };
  const runB = async () => {
    const t0 = performance.now();
    second.answer = await b();
    second.samplesMs.push(performance.now() - t0);
  };
  for (let i = 0; i < runs; i++) {
    if (i % 2 === 0) {
      await runA();
      await runB();
    } else {
      await runB();
      await runA();
    }
  }
  return [first, second];
}
