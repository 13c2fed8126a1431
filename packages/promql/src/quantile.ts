import {
  addToBins,
  binsCount,
  mergeBins,
  quantilesOfBins,
  type SketchBins,
} from '@tickertape/buckets';
import type { WidthPoint } from './samples.js';

/**
 * Prometheus' quantile of samples (promql/quantile.go): the value at rank φ·(n − 1), linear
 * between its two neighbours; φ < 0 is −Inf, φ > 1 is +Inf, NaN is NaN (NaN samples sort first).
 */
export function prometheusQuantile(phi: number, values: readonly number[]): number {
  const out = outOfRange(phi);
  if (out !== undefined) return out;
  const sorted = [...values].sort((a, b) => (Number.isNaN(a) ? -1 : Number.isNaN(b) ? 1 : a - b));
  const { lower, upper, weight } = ranks(phi, sorted.length);
  return interpolate(sorted[lower]!, sorted[upper]!, weight);
}

/**
 * quantile_over_time over `points` (points with ticks only). Exact, by Prometheus' rule, when
 * every point is one tick (its sum is its value). Otherwise from the merge of the points'
 * sketches, with each one-tick point added as its value: the values at the two ranks Prometheus
 * interpolates between are each within α (SKETCH_ALPHA) of the true ones, and exact at the ends
 * (rank 0 is the window's min, rank n − 1 its max). `undefined` when a point of several ticks has
 * no sketch counting all of them (kept before its metric was sketched, or where the policy keeps
 * none): the window's quantile is unknown, and we do not guess it.
 */
export function windowQuantile(phi: number, points: readonly WidthPoint[]): number | undefined {
  const out = outOfRange(phi);
  if (out !== undefined) return out;
  if (points.every((p) => p.n === 1))
    return prometheusQuantile(
      phi,
      points.map((p) => p.sum),
    );
  const bins: SketchBins = {};
  let n = 0;
  let min = Infinity;
  let max = -Infinity;
  for (const p of points) {
    if (p.n === 1) addToBins(bins, p.sum);
    else if (p.q !== undefined && binsCount(p.q) === p.n) mergeBins(bins, p.q);
    else return undefined;
    n += p.n;
    min = Math.min(min, p.min);
    max = Math.max(max, p.max);
  }
  const { lower, upper, weight } = ranks(phi, n);
  // quantilesOfBins answers rank ⌊φ'·(n − 1)⌋: aim at the middle of the rank, safe from rounding.
  const aim = (rank: number) => (rank >= n - 1 ? 1 : (rank + 0.5) / (n - 1));
  const [low, high] = quantilesOfBins(bins, [aim(lower), aim(upper)]);
  const clamp = (v: number) => Math.min(max, Math.max(min, v));
  const at = (rank: number, sketched: number | undefined) =>
    rank === 0 ? min : rank === n - 1 ? max : clamp(sketched!);
  return interpolate(at(lower, low), at(upper, high), weight);
}

function outOfRange(phi: number): number | undefined {
  if (Number.isNaN(phi)) return NaN;
  if (phi < 0) return -Infinity;
  if (phi > 1) return Infinity;
  return undefined;
}

function ranks(phi: number, n: number): { lower: number; upper: number; weight: number } {
  const rank = phi * (n - 1);
  const lower = Math.max(0, Math.floor(rank));
  return { lower, upper: Math.min(n - 1, lower + 1), weight: rank - Math.floor(rank) };
}

const interpolate = (lower: number, upper: number, weight: number) =>
  lower * (1 - weight) + upper * weight;
