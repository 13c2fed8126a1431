import type { FoldInput } from '@tickertape/buckets';
import { seriesKey } from '@tickertape/tick';

/** Deterministic pseudo-random integers (mulberry32), so failures reproduce. */
export function random(seed: number): (below: number) => number {
  let state = seed >>> 0;
  return (below) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return (((x ^ (x >>> 14)) >>> 0) % below) | 0;
  };
}

export const sensorKey = (i: number) =>
  seriesKey('traffic', { sensor: `s${String(i).padStart(2, '0')}`, segment: `I80-${i % 5}` });
export const stockKey = (symbol: string) => seriesKey('stock.tick', { symbol, exchange: 'XNYS' });

export interface Scenario {
  fromMs: number;
  toMs: number;
  ticks: FoldInput[];
  /** A sensor that is silent in [gapFrom, gapTo). */
  gapSensor: number;
  gapFrom: number;
  gapTo: number;
}

/**
 * 50 traffic sensors reporting every 3-12 s (integer speeds, so sums are exact) and two stock
 * symbols several times a second, from 23:40 on New Year's Eve to 00:20: the window crosses an
 * hour, a day, a month and a year, so every level's partition boundary at once. One sensor is
 * silent for 15 minutes around midnight. Offsets rise per Kafka partition, as the workers see them.
 */
export function newYearScenario(): Scenario {
  const fromMs = Date.parse('2026-12-31T23:40:00Z');
  const toMs = Date.parse('2027-01-01T00:20:00Z');
  const gapSensor = 7;
  const gapFrom = Date.parse('2026-12-31T23:50:00Z');
  const gapTo = Date.parse('2027-01-01T00:05:00Z');
  const next = random(20261231);
  const offsets = [0, 0, 0, 0];
  const ticks: FoldInput[] = [];
  // Keyed by series, as producers publish: one series always lands in one Kafka partition.
  const push = (
    key: string,
    metric: string,
    tags: Record<string, string>,
    ts: number,
    fields: Record<string, number>,
  ) => {
    const kafkaPartition = [...key].reduce((h, c) => h + c.charCodeAt(0), 0) % 4;
    ticks.push({
      seriesKey: key,
      metric,
      tags,
      ts,
      fields,
      strings: {},
      kafkaPartition,
      offset: offsets[kafkaPartition]!++,
    });
  };
  for (let i = 0; i < 50; i++) {
    const tags = { sensor: `s${String(i).padStart(2, '0')}`, segment: `I80-${i % 5}` };
    for (let ts = fromMs + next(5000); ts < toMs; ts += 3000 + next(9000)) {
      if (i === gapSensor && ts >= gapFrom && ts < gapTo) continue;
      push(sensorKey(i), 'traffic', tags, ts, {
        speed: 40 + next(40),
        travel_time: 100 + next(50),
      });
    }
  }
  for (const symbol of ['ACME', 'INIT']) {
    let price = 10_000;
    for (let ts = fromMs; ts < toMs; ts += 100 + next(900)) {
      price += next(21) - 10;
      push(stockKey(symbol), 'stock.tick', { symbol, exchange: 'XNYS' }, ts, {
        price,
        volume: 1 + next(100),
      });
    }
  }
  return {
    fromMs,
    toMs,
    ticks: ticks.sort((a, b) => a.kafkaPartition - b.kafkaPartition || a.offset - b.offset),
    gapSensor,
    gapFrom,
    gapTo,
  };
}

export interface Expected {
  n: number;
  sum: number;
  min: number;
  max: number;
  open: number;
  close: number;
}

const before = (a: FoldInput, b: FoldInput) =>
  a.ts < b.ts || (a.ts === b.ts && a.offset < b.offset);

/** The reference fold, written independently of the library: totals of one field over some ticks. */
export function expectedOf(ticks: readonly FoldInput[], field: string): Expected | undefined {
  const with_ = ticks.filter((t) => t.fields[field] !== undefined);
  if (with_.length === 0) return undefined;
  let first = with_[0]!;
  let last = with_[0]!;
  for (const t of with_) {
    if (before(t, first)) first = t;
    if (before(last, t)) last = t;
  }
  const values = with_.map((t) => t.fields[field]!);
  return {
    n: values.length,
    sum: values.reduce((a, b) => a + b, 0),
    min: Math.min(...values),
    max: Math.max(...values),
    open: first.fields[field]!,
    close: last.fields[field]!,
  };
}

/** Reference points: ticks of one series grouped into `stepMs` intervals of [from, to). */
export function expectedPoints(
  ticks: readonly FoldInput[],
  key: string,
  field: string,
  fromMs: number,
  toMs: number,
  stepMs: number,
): (Expected & { t: number })[] {
  const groups = new Map<number, FoldInput[]>();
  for (const tick of ticks) {
    if (tick.seriesKey !== key || tick.ts < fromMs || tick.ts >= toMs) continue;
    const t = Math.floor(tick.ts / stepMs) * stepMs;
    groups.set(t, [...(groups.get(t) ?? []), tick]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a - b)
    .map(([t, group]) => ({ t, ...expectedOf(group, field)! }));
}
