import {
  binsCount,
  exactValueKey,
  forEachBin,
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
  const window = new SlidingQuantile();
  for (const p of points) window.enter(p);
  return window.at(phi, points);
}

/**
 * windowQuantile as a window slides over a series: a point's bins are added when it enters and
 * taken out when it leaves, so each step costs the points that moved, not the whole window, and
 * the bins are still exactly the merge of the window's points (counts are whole numbers).
 */
export class SlidingQuantile {
  private readonly bins: SketchBins = {};
  /** Points of several ticks in the window, and those of them without a sketch of all of them. */
  private several = 0;
  private unsketched = 0;

  enter(point: WidthPoint): void {
    this.move(point, 1);
  }

  leave(point: WidthPoint): void {
    this.move(point, -1);
  }

  /** The quantile of the window: `points` are the ones entered and not left, with ticks. */
  at(phi: number, points: readonly WidthPoint[]): number | undefined {
    const out = outOfRange(phi);
    if (out !== undefined) return out;
    if (this.several === 0)
      return prometheusQuantile(
        phi,
        points.map((p) => p.sum),
      );
    if (this.unsketched > 0) return undefined;
    let n = 0;
    let min = Infinity;
    let max = -Infinity;
    for (const p of points) {
      n += p.n;
      min = Math.min(min, p.min);
      max = Math.max(max, p.max);
    }
    const { lower, upper, weight } = ranks(phi, n);
    // quantilesOfBins answers rank ⌊φ'·(n − 1)⌋: aim at the middle of the rank, safe from rounding.
    const aim = (rank: number) => (rank >= n - 1 ? 1 : (rank + 0.5) / (n - 1));
    const [low, high] = quantilesOfBins(this.bins, [aim(lower), aim(upper)]);
    const clamp = (v: number) => Math.min(max, Math.max(min, v));
    const at = (rank: number, sketched: number | undefined) =>
      rank === 0 ? min : rank === n - 1 ? max : clamp(sketched!);
    return interpolate(at(lower, low), at(upper, high), weight);
  }

  private move(point: WidthPoint, sign: 1 | -1): void {
    if (point.n <= 0) return;
    if (point.n === 1) return this.count(exactValueKey(point.sum), sign);
    this.several += sign;
    if (point.q === undefined || binsCount(point.q) !== point.n) {
      this.unsketched += sign;
      return;
    }
    forEachBin(point.q, (key, count) => this.count(key, sign * count));
  }

  /** Emptied bins are dropped: each step's quantile sorts the window's bins, not every bin seen. */
  private count(key: string, count: number): void {
    const left = (this.bins[key] ?? 0) + count;
    if (left === 0) delete this.bins[key];
    else this.bins[key] = left;
  }
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
