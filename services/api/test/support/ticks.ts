import { LEVELS, type FoldInput, type Level } from '@tickertape/buckets';
import { storesOf } from '@tickertape/store';
import { testDatabase } from '@tickertape/store/testing';
import { seriesKey } from '@tickertape/tick';
import { prng, type TestStack } from '@tickertape/testing';
import type { Db } from 'mongodb';

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const at = (iso: string) => Date.parse(iso);

/** One tick as the reference computations see it: what the fold gets, flattened. */
export interface RefTick {
  series: string;
  metric: string;
  tags: Record<string, string>;
  ts: number;
  offset: number;
  fields: Record<string, number>;
}

export interface Dataset {
  ticks: RefTick[];
  sensors: string[];
  stock: string;
  /** [from, to) of the hole in the first sensor's data, minute-aligned. */
  hole: { from: number; to: number };
  start: number;
  end: number;
}

/**
 * Three speed sensors and one stock across midnight of New Year 2026, so reads stitch minute
 * (daily), hour (monthly) and day (yearly) partitions. Values are integers (speed, count) or
 * quarters (price): exact in binary, so sums agree whatever order the layers add them in. Ticks
 * land every 1-9 s, several in one second now and then, with a 10-minute hole in sensor 1.
 */
export function dataset(seed = 7): Dataset {
  const rand = prng(seed);
  const start = at('2025-12-31T22:40:00Z');
  const end = at('2026-01-01T01:20:00Z');
  const hole = { from: at('2025-12-31T23:10:00Z'), to: at('2025-12-31T23:20:00Z') };
  const sensors = ['s1', 's2', 's3'];
  const raw: Omit<RefTick, 'offset'>[] = [];
  for (const sensor of sensors) {
    const tags = { sensor, road: 'a1' };
    for (let ts = start; ts < end; ts += 1 + Math.floor(rand() * 9 * SECOND)) {
      if (sensor === 's1' && ts >= hole.from && ts < hole.to) continue;
      raw.push({
        series: seriesKey('speed', tags),
        metric: 'speed',
        tags,
        ts,
        fields: { speed: 20 + Math.floor(rand() * 100), count: 1 + Math.floor(rand() * 5) },
      });
    }
  }
  const stockTags = { symbol: 'ACME' };
  let price = 100;
  for (let ts = start; ts < end; ts += 1 + Math.floor(rand() * 4 * SECOND)) {
    price += (Math.floor(rand() * 9) - 4) * 0.25;
    raw.push({
      series: seriesKey('price', stockTags),
      metric: 'price',
      tags: stockTags,
      ts,
      fields: { price },
    });
  }
  // Offsets follow arrival, which is event order here except for shuffled neighbours: a tick may
  // arrive after a later one, as real producers do.
  raw.sort((a, b) => a.ts - b.ts);
  for (let i = 0; i + 1 < raw.length; i += 17) [raw[i], raw[i + 1]] = [raw[i + 1]!, raw[i]!];
  const ticks = raw.map((tick, offset) => ({ ...tick, offset }));
  return {
    ticks,
    sensors: sensors.map((sensor) => seriesKey('speed', { sensor, road: 'a1' })),
    stock: seriesKey('price', stockTags),
    hole,
    start,
    end,
  };
}

export function foldInputs(ticks: readonly RefTick[]): FoldInput[] {
  return ticks.map((tick) => ({
    seriesKey: tick.series,
    metric: tick.metric,
    tags: tick.tags,
    ts: tick.ts,
    fields: tick.fields,
    strings: {},
    kafkaPartition: 0,
    offset: tick.offset,
  }));
}

/** Through the real write path at every level, in flushes as a worker would make them. */
export async function writeTicks(db: Db, ticks: readonly RefTick[]): Promise<void> {
  const inputs = foldInputs(ticks);
  for (const level of LEVELS) {
    const writer = (await storesOf(db)).rollups.writer(level);
    for (let i = 0; i < inputs.length; i += 2000) await writer.apply(inputs.slice(i, i + 2000));
  }
}

/** The read tests' clock: an hour and a quarter into 2026, the dataset's ticks behind it. */
export const NOW = at('2026-01-01T01:15:30Z');
/** Watermarks at NOW: minutes final to 00:30, hours and days to midnight; later slots open. */
export const MARKS: Readonly<Record<Level, number>> = {
  minute: at('2026-01-01T00:30:00Z'),
  hour: at('2026-01-01T00:00:00Z'),
  day: at('2026-01-01T00:00:00Z'),
};

/**
 * A database of the test's own holding `ticks` at every level, watermarks at MARKS (advanced at
 * NOW): what the read routes' tests serve.
 */
export async function storedTicks(
  stack: TestStack,
  ticks: readonly RefTick[],
): Promise<{ db: Db; stores: Awaited<ReturnType<typeof storesOf>> }> {
  const db = testDatabase(stack);
  await writeTicks(db, ticks);
  const stores = await storesOf(db);
  await stores.rollups.advanceWatermarks(MARKS, NOW);
  return { db, stores };
}
