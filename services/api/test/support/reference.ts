import type { RefTick } from './ticks.js';

/**
 * What the API should answer, computed straight from the ticks with none of the library's code:
 * the test's own account of each read.
 */

export interface RefPoint {
  t: number;
  n: number | null;
  sum: number | null;
  min: number;
  max: number;
  open: number;
  close: number;
  avg: number;
}

const byEventTime = (a: RefTick, b: RefTick) => a.ts - b.ts || a.offset - b.offset;

/** The ticks of one series carrying `field`, in [from, to), earliest first. */
export function ticksOf(
  ticks: readonly RefTick[],
  series: string,
  field: string,
  fromMs: number,
  toMs: number,
): RefTick[] {
  return ticks
    .filter((t) => t.series === series && field in t.fields && t.ts >= fromMs && t.ts < toMs)
    .sort(byEventTime);
}

function groupBy<T>(items: readonly T[], key: (item: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const item of items) {
    const k = key(item);
    groups.set(k, [...(groups.get(k) ?? []), item]);
  }
  return new Map([...groups.entries()].sort(([a], [b]) => a - b));
}

/** Points of `stepMs` width from every tick (widths of a minute or more: exact counts). */
export function refPoints(ticks: readonly RefTick[], field: string, stepMs: number): RefPoint[] {
  return [...groupBy(ticks, (t) => Math.floor(t.ts / stepMs) * stepMs)].map(([t, group]) => {
    const values = group.map((tick) => tick.fields[field]!);
    const sum = values.reduce((a, b) => a + b, 0);
    return {
      t,
      n: values.length,
      sum,
      min: Math.min(...values),
      max: Math.max(...values),
      open: values[0]!,
      close: values[values.length - 1]!,
      avg: sum / values.length,
    };
  });
}

/**
 * Points of `stepMs` width from second-level data: minute buckets keep the count and sum of each
 * second, so counts, sums and averages are exact, and min, max, open and close are those of the
 * per-second means.
 */
export function refSecondPoints(
  ticks: readonly RefTick[],
  field: string,
  stepMs: number,
): RefPoint[] {
  const seconds = [...groupBy(ticks, (t) => Math.floor(t.ts / 1000) * 1000)].map(([t, group]) => {
    const sum = group.reduce((total, tick) => total + tick.fields[field]!, 0);
    return { t, n: group.length, sum, mean: sum / group.length };
  });
  return [...groupBy(seconds, (s) => Math.floor(s.t / stepMs) * stepMs)].map(([t, group]) => {
    const means = group.map((s) => s.mean);
    const n = group.reduce((total, s) => total + s.n, 0);
    const sum = group.reduce((total, s) => total + s.sum, 0);
    return {
      t,
      n,
      sum,
      min: Math.min(...means),
      max: Math.max(...means),
      open: means[0]!,
      close: means[means.length - 1]!,
      avg: sum / n,
    };
  });
}

export function refWindow(ticks: readonly RefTick[], field: string) {
  const values = ticks.map((t) => t.fields[field]!);
  const first = ticks[0];
  const last = ticks[ticks.length - 1];
  const sum = values.reduce((a, b) => a + b, 0);
  return {
    n: values.length,
    sum,
    avg: values.length > 0 ? sum / values.length : null,
    min: values.length > 0 ? Math.min(...values) : null,
    max: values.length > 0 ? Math.max(...values) : null,
    first: first ? { t: first.ts, v: first.fields[field]! } : null,
    last: last ? { t: last.ts, v: last.fields[field]! } : null,
  };
}

/** Runs of `stepMs` slots in [from, to) without a point. */
export function refGaps(
  points: readonly { t: number }[],
  fromMs: number,
  toMs: number,
  stepMs: number,
) {
  const have = new Set(points.map((p) => p.t));
  const gaps: { from: number; to: number }[] = [];
  for (let t = fromMs; t < toMs; t += stepMs) {
    if (have.has(t)) continue;
    const open = gaps[gaps.length - 1];
    if (open && open.to === t) open.to = t + stepMs;
    else gaps.push({ from: t, to: t + stepMs });
  }
  return gaps;
}
