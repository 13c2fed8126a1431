import type { WidthPoint } from './samples.js';

/**
 * Prometheus' stdvar_over_time over raw samples, with its operations (promql/functions.go since
 * 2.40: Welford's running mean and sum of squared deviations, each summed with Neumaier's
 * compensation). Used when every tick of a window is known by itself, so the answer is the one a
 * Prometheus server holding the ticks computes.
 */
export function prometheusVariance(values: readonly number[]): number {
  let count = 0;
  let mean = 0;
  let cMean = 0;
  let aux = 0;
  let cAux = 0;
  for (const v of values) {
    count += 1;
    const delta = v - (mean + cMean);
    [mean, cMean] = neumaierAdd(delta / count, mean, cMean);
    [aux, cAux] = neumaierAdd(delta * (v - (mean + cMean)), aux, cAux);
  }
  return (aux + cAux) / count;
}

function neumaierAdd(inc: number, sum: number, c: number): [number, number] {
  const t = sum + inc;
  return [t, Math.abs(sum) >= Math.abs(inc) ? c + (sum - t + inc) : c + (inc - t + sum)];
}

/**
 * The population variance of the ticks of `points[lo, hi)` (points with ticks only), from each
 * interval's n, Σx and Σx²: within an interval M2ᵢ = Σx²ᵢ − (Σxᵢ)²/nᵢ, then Chan's merge across
 * intervals, M2 = Σ M2ᵢ + Σ nᵢ·(x̄ᵢ − x̄)². The cancellation of raw power sums stays inside one
 * interval (relative error ≈ ε·x̄ᵢ²/varᵢ, docs/data-layout.md); the spread between intervals comes
 * from their means, well conditioned. An interval of one tick is that tick (M2ᵢ = 0), so a window
 * of single ticks is exact whatever the buckets keep. `undefined` when an interval of several
 * ticks keeps no Σx²: its spread is unknown, and we do not guess it.
 */
export function windowVariance(points: readonly WidthPoint[]): number | undefined {
  if (points.every((p) => p.n === 1)) return prometheusVariance(points.map((p) => p.sum));
  let n = 0;
  let sum = 0;
  for (const p of points) {
    if (p.n > 1 && p.sq === undefined) return undefined;
    n += p.n;
    sum += p.sum;
  }
  const mean = sum / n;
  let m2 = 0;
  for (const p of points) {
    const pointMean = p.sum / p.n;
    // Rounding can leave a constant interval's Σx² − (Σx)²/n a hair below zero.
    if (p.n > 1) m2 += Math.max(0, p.sq! - p.sum * pointMean);
    m2 += p.n * (pointMean - mean) ** 2;
  }
  return m2 / n;
}
