import type { Level } from '@tickertape/buckets';
import { SegmentWriter } from '@tickertape/segments';
import { storesOf, type ShellSeries } from '@tickertape/store';
import { seriesKey } from '@tickertape/tick';
import type { Db } from 'mongodb';
import { SECOND, at, foldInputs, writeTicks, type RefTick } from './ticks.js';

/**
 * What analysts' tools read in the format tests (CSV, Arrow, pandas, pymongo, DuckDB): three
 * `speed` series over 40 minutes around 01:00 on New Year 2026, two with the same tags and one
 * with other tag names and a value holding a comma and quotes (CSV must quote it, pandas must
 * read it back); integer speeds, so sums are exact in any order; a `count` field on some ticks
 * only (empty raw cells); hour shells preallocated before the writes (padding after the data)
 * and one sensor with nothing but a shell.
 */
export const ANALYST_NOW = at('2026-01-01T01:30:00Z');
export const ANALYST_MARKS: Record<Level, number> = {
  minute: at('2026-01-01T01:00:00Z'),
  hour: at('2026-01-01T01:00:00Z'),
  day: at('2026-01-01T00:00:00Z'),
};
export const ANALYST_FROM = at('2026-01-01T00:40:00Z');
export const ANALYST_TO = at('2026-01-01T01:20:00Z');

const TAGS: Record<string, string>[] = [
  { road: 'a1', sensor: 's1' },
  { road: 'a1', sensor: 's2' },
  { road: 'x,"y"', lane: '2' },
];
const SERIES: ShellSeries[] = TAGS.map((tags) => ({
  seriesKey: seriesKey('speed', tags),
  metric: 'speed',
  tags,
  fields: ['speed', 'count'],
}));
/** Preallocated by the scheduler, never written: only padding. */
const SHELL_ONLY: ShellSeries = {
  seriesKey: seriesKey('speed', { road: 'a1', sensor: 's4' }),
  metric: 'speed',
  tags: { road: 'a1', sensor: 's4' },
  fields: ['speed'],
};

export const ANALYST_SERIES = SERIES.map((s) => s.seriesKey);

export function analystTicks(): RefTick[] {
  const ticks: RefTick[] = [];
  SERIES.forEach((series, i) => {
    for (let ts = ANALYST_FROM + i * 1300, k = 0; ts < ANALYST_TO; ts += 7 * SECOND, k += 1)
      ticks.push({
        series: series.seriesKey,
        metric: series.metric,
        tags: { ...series.tags },
        ts,
        offset: 0,
        fields: {
          speed: 20 + ((k * 37 + i * 11) % 80),
          ...(k % 3 === 0 ? { count: 1 + (k % 5) } : {}),
        },
      });
  });
  return ticks.sort((a, b) => a.ts - b.ts).map((tick, offset) => ({ ...tick, offset }));
}

/** Shells, then the ticks through the real writers (every level, the segment store), then finality. */
export async function writeAnalystData(db: Db): Promise<RefTick[]> {
  const ticks = analystTicks();
  const hour = at('2026-01-01T01:00:00Z');
  await (
    await storesOf(db)
  ).rollups.insertShells('hour', [
    ...SERIES.map((series) => ({ series, start: hour, compact: false })),
    { series: SHELL_ONLY, start: hour, compact: false },
  ]);
  await writeTicks(db, ticks);
  const segments = new SegmentWriter((await storesOf(db)).segments, {
    maxPoints: 500,
    writeOnlyOnChange: new Set(),
  });
  await segments.apply(foldInputs(ticks));
  await (await storesOf(db)).rollups.advanceWatermarks(ANALYST_MARKS, ANALYST_NOW);
  return ticks;
}
