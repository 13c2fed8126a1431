import { seriesKey } from '@tickertape/tick';
import { prng } from '@tickertape/testing';
import { MINUTE, SECOND, at, type RefTick } from './ticks.js';

/** Ticks for the Prometheus API's tests, and an independent fold of them as PromQL defines it. */

export const PROM_START = at('2026-03-02T09:00:00Z');
export const PROM_END = at('2026-03-02T11:00:00Z');

/**
 * Eight traffic sensors (segment, dir; fields speed and flow) ticking every 1-20 s, several in a
 * second now and then; a stock whose metric name has a dot (`stock.tick` → `stock_tick_price`).
 * Values are integers or quarters: exact in binary.
 */
export function promTicks(seed = 11): RefTick[] {
  const rand = prng(seed);
  const raw: Omit<RefTick, 'offset'>[] = [];
  for (let i = 0; i < 8; i++) {
    const tags = { segment: `I80_mile0${i}`, dir: i % 2 === 0 ? 'E' : 'W' };
    for (let ts = PROM_START + i * 333; ts < PROM_END; ts += 1 + Math.floor(rand() * 20 * SECOND))
      raw.push({
        series: seriesKey('traffic', tags),
        metric: 'traffic',
        tags,
        ts,
        fields: { speed: 20 + Math.floor(rand() * 100), flow: Math.floor(rand() * 8) },
      });
  }
  let price = 100;
  for (let ts = PROM_START; ts < PROM_END; ts += 1 + Math.floor(rand() * 10 * SECOND)) {
    price += (Math.floor(rand() * 9) - 4) * 0.25;
    raw.push({
      series: seriesKey('stock.tick', { symbol: 'ACME' }),
      metric: 'stock.tick',
      tags: { symbol: 'ACME' },
      ts,
      fields: { price },
    });
  }
  raw.sort((a, b) => a.ts - b.ts);
  return raw.map((tick, offset) => ({ ...tick, offset }));
}

export type OverTime = 'count' | 'sum' | 'avg' | 'min' | 'max' | 'last' | 'first';

/** `fn_over_time` of one series' field over [end − range, end), from the raw ticks; null when empty. */
export function refOverTime(
  ticks: readonly RefTick[],
  series: string,
  field: string,
  fn: OverTime,
  end: number,
  rangeMs: number,
): number | null {
  const inside = ticks
    .filter((t) => t.series === series && t.ts >= end - rangeMs && t.ts < end && field in t.fields)
    .sort((a, b) => a.ts - b.ts || a.offset - b.offset);
  if (inside.length === 0) return null;
  const values = inside.map((t) => t.fields[field]!);
  const sum = values.reduce((a, b) => a + b, 0);
  switch (fn) {
    case 'count':
      return values.length;
    case 'sum':
      return sum;
    case 'avg':
      return sum / values.length;
    case 'min':
      return Math.min(...values);
    case 'max':
      return Math.max(...values);
    case 'last':
      return values.at(-1)!;
    case 'first':
      return values[0]!;
  }
}

/** Relative agreement the issue asks for (1e-9), absolute near zero. */
export function agrees(actual: number, expected: number): boolean {
  return Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected));
}

export const minuteTimes = (from: number, to: number, stepMs = MINUTE) =>
  Array.from({ length: Math.floor((to - from) / stepMs) + 1 }, (_, i) => from + i * stepMs);

/** The raw values of one series' field in [end − range, end), in time order. */
function windowValues(
  ticks: readonly RefTick[],
  series: string,
  field: string,
  end: number,
  rangeMs: number,
): number[] {
  return ticks
    .filter((t) => t.series === series && t.ts >= end - rangeMs && t.ts < end && field in t.fields)
    .sort((a, b) => a.ts - b.ts || a.offset - b.offset)
    .map((t) => t.fields[field]!);
}

/**
 * stddev/stdvar (population) and quantile_over_time (rank φ·(n − 1), linear between neighbours)
 * of the raw ticks, by their definitions; null when the window is empty.
 */
export function refSpreadOverTime(
  ticks: readonly RefTick[],
  series: string,
  field: string,
  fn: 'stddev' | 'stdvar' | { quantile: number },
  end: number,
  rangeMs: number,
): number | null {
  const values = windowValues(ticks, series, field, end, rangeMs);
  if (values.length === 0) return null;
  if (typeof fn === 'object') {
    const sorted = [...values].sort((a, b) => a - b);
    const rank = fn.quantile * (sorted.length - 1);
    const lo = Math.floor(rank);
    const hi = Math.min(sorted.length - 1, lo + 1);
    return sorted[lo]! * (1 - (rank - lo)) + sorted[hi]! * (rank - lo);
  }
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance = values.reduce((s, v) => s + (v - mean) ** 2, 0) / values.length;
  return fn === 'stdvar' ? variance : Math.sqrt(variance);
}
