import { LEVELS, type FoldInput } from '@tickertape/buckets';
import { SegmentWriter } from '@tickertape/segments';
import { storesOf } from '@tickertape/store';
import type { Db } from 'mongodb';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

export interface Tick {
  ts: number;
  fields: Record<string, number>;
}

export interface SeededSeries {
  key: string;
  metric: string;
  tags: Record<string, string>;
  ticks: Tick[];
}

export interface DashboardData {
  /** A sensor with ticks every 5 s for the last 50 minutes, except a 10-minute hole. */
  gappy: SeededSeries;
  /** The same sensor shape without a hole. */
  steady: SeededSeries;
  /** Stock ticks (metric `stock.tick`) every 2 s: drawn as candles. */
  stock: SeededSeries;
  /** The hole in `gappy`: [from, to), minute-aligned. */
  hole: { from: number; to: number };
  /** Everything before this instant is final at every level (the watermark written). */
  finalBefore: number;
}

/**
 * Ticks around `nowMs` for the dashboard test. `nowMs` is floored to the minute so the hole
 * and every tick sit on whole seconds and minutes, which makes the expected points exact at
 * any chart width from 1 s to 1 min.
 */
export function dashboardData(nowMs: number, suffix: string): DashboardData {
  const t0 = Math.floor(nowMs / MINUTE) * MINUTE;
  const start = t0 - 50 * MINUTE;
  const end = t0 - 2 * MINUTE;
  const hole = { from: t0 - 35 * MINUTE, to: t0 - 25 * MINUTE };

  const sensor = (name: string, withHole: boolean, phase: number): SeededSeries => {
    const ticks: Tick[] = [];
    for (let ts = start, i = 0; ts <= end; ts += 5 * SECOND, i++) {
      if (withHole && ts >= hole.from && ts < hole.to) continue;
      const speed =
        Math.round((55 + 12 * Math.sin(i / 25 + phase) + 3 * Math.sin(i / 3)) * 10) / 10;
      ticks.push({ ts, fields: { speed, travel_time: Math.round(3600 / speed) } });
    }
    return { key: `speed|sensor=${name}`, metric: 'speed', tags: { sensor: name }, ticks };
  };

  // A deterministic walk: no randomness, so a failure reproduces.
  const stockTicks: Tick[] = [];
  let price = 187.5;
  for (let ts = start, i = 0; ts <= end; ts += 2 * SECOND, i++) {
    price = Math.round((price + Math.sin(i / 7) * 0.35 + Math.cos(i / 31) * 0.2) * 100) / 100;
    stockTicks.push({ ts, fields: { price, volume: 100 + ((i * 37) % 400) } });
  }
  const symbol = `DASH${suffix}`.toUpperCase();
  return {
    gappy: sensor(`gappy-${suffix}`, true, 0),
    steady: sensor(`steady-${suffix}`, false, 1.7),
    stock: {
      key: `stock.tick|exchange=XTST,symbol=${symbol}`,
      metric: 'stock.tick',
      tags: { exchange: 'XTST', symbol },
      ticks: stockTicks,
    },
    hole,
    finalBefore: t0 - 30 * MINUTE,
  };
}

/** The ticks as the workers would fold them: one Kafka partition, offsets in event order. */
export function foldInputs(series: readonly SeededSeries[]): FoldInput[] {
  const all = series.flatMap((s) => s.ticks.map((tick) => ({ series: s, tick })));
  all.sort((a, b) => a.tick.ts - b.tick.ts);
  return all.map(({ series: s, tick }, offset) => ({
    seriesKey: s.key,
    metric: s.metric,
    tags: s.tags,
    ts: tick.ts,
    fields: tick.fields,
    strings: {},
    kafkaPartition: 0,
    offset,
  }));
}

/**
 * Writes the data through the real write path at every level (what the minute, hour and day
 * workers do) and into the segment store (the raw points), then moves the finality watermark
 * so older points are final and newer are not.
 */
export async function writeDashboardData(db: Db, data: DashboardData): Promise<void> {
  const inputs = foldInputs([data.gappy, data.steady, data.stock]);
  for (const level of LEVELS) await (await storesOf(db)).rollups.writer(level).apply(inputs);
  await new SegmentWriter((await storesOf(db)).segments, {
    maxPoints: 100,
    writeOnlyOnChange: new Set(),
  }).apply(inputs);
  await (await storesOf(db)).rollups.advanceWatermarks({ minute: data.finalBefore }, Date.now());
}
