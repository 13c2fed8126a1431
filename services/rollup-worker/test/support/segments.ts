import { expect } from '@jest/globals';
import { storesOf } from '@tickertape/store';
import type { FoldInput } from '@tickertape/buckets';
import {
  dayOf,
  segmentCollection,
  type SegmentDocument,
  type SegmentPoint,
} from '@tickertape/segments';
import { seriesKey, type Tick } from '@tickertape/tick';
import type { Db } from 'mongodb';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** UTC midnight `days` days before today's: old enough that every tick of a test is in the past. */
export function midnightDaysAgo(days: number): number {
  return (Math.floor(Date.now() / DAY) - days) * DAY;
}

export function tick(
  metric: string,
  tags: Record<string, string>,
  ts: number,
  fields: Record<string, number>,
): Tick {
  return { metric, tags, ts, fields, strings: {}, source: null };
}

/** What the worker hands the writer for a tick at a known Kafka position (for a second writer). */
export function foldInput(t: Tick, kafkaPartition: number, offset: number): FoldInput {
  return {
    seriesKey: seriesKey(t.metric, t.tags),
    metric: t.metric,
    tags: t.tags,
    ts: t.ts,
    fields: t.fields,
    strings: t.strings,
    kafkaPartition,
    offset,
  };
}

function sameFields(a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>) {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.is(a[k], b[k]));
}

/**
 * The points each series must hold, from the ticks in the order they were published (a series
 * lives in one partition, so that is its offset order), by the rules written out here
 * independently of the planner: a tick older than the newest stored point is left out, and so is
 * a tick of a write-on-change metric whose fields all equal the newest stored point's.
 */
export function expectedPoints(
  ticks: readonly Tick[],
  writeOnChange: ReadonlySet<string> = new Set(),
): Map<string, SegmentPoint[]> {
  const out = new Map<string, SegmentPoint[]>();
  for (const t of ticks) {
    const key = seriesKey(t.metric, t.tags);
    const points = out.get(key) ?? [];
    out.set(key, points);
    const newest = points.at(-1);
    if (newest && t.ts < newest.t) continue;
    if (newest && writeOnChange.has(t.metric) && sameFields(newest.v, t.fields)) continue;
    points.push({ t: t.ts, v: { ...t.fields } });
  }
  return out;
}

type StoredSegment = SegmentDocument & { collection: string };

/**
 * Checks every segment's shape — at most `maxPoints` points, all of one UTC day and in its day's
 * collection, start/end/last/n agreeing with the arrays, time order, prevEnd/nextStart chaining
 * to the neighbours, full unless the day or the series ends there — and returns each series'
 * points in order.
 */
export function checkSegments(
  docs: readonly StoredSegment[],
  maxPoints: number,
): Map<string, SegmentPoint[]> {
  const bySeries = new Map<string, StoredSegment[]>();
  for (const doc of docs) bySeries.set(doc.series, [...(bySeries.get(doc.series) ?? []), doc]);
  const out = new Map<string, SegmentPoint[]>();
  for (const [series, segments] of bySeries) {
    // Day collections come oldest first and ids within a day by offset: time order for a series.
    const points: SegmentPoint[] = [];
    for (const [i, doc] of segments.entries()) {
      const where = `${series} segment ${i} (${doc._id})`;
      const { n, t, v } = doc;
      expect({ where, n, times: t.length, values: v.length }).toEqual({
        where,
        n: t.length,
        times: n,
        values: n,
      });
      expect({ where, bounded: n >= 1 && n <= maxPoints }).toEqual({ where, bounded: true });
      expect({ where, start: doc.start, end: doc.end, last: doc.last }).toEqual({
        where,
        start: t[0],
        end: t[n - 1],
        last: { t: t[n - 1], v: v[n - 1] },
      });
      expect({ where, day: doc.day, firstDay: dayOf(doc.start), lastDay: dayOf(doc.end) }).toEqual({
        where,
        day: doc.day,
        firstDay: doc.day,
        lastDay: doc.day,
      });
      expect({ where, collection: doc.collection }).toEqual({
        where,
        collection: segmentCollection(doc.day),
      });
      expect({ where, sorted: t.every((time, j) => j === 0 || time >= t[j - 1]!) }).toEqual({
        where,
        sorted: true,
      });
      const prev = segments[i - 1];
      const next = segments[i + 1];
      expect({ where, prevEnd: doc.prevEnd, nextStart: doc.nextStart }).toEqual({
        where,
        prevEnd: prev ? prev.end : Number.NEGATIVE_INFINITY,
        nextStart: next ? next.start : Number.POSITIVE_INFINITY,
      });
      if (prev) expect(doc.start).toBeGreaterThanOrEqual(prev.end);
      // A segment is closed early only by the end of its day (or is the series' newest).
      if (next && next.day === doc.day) expect({ where, n }).toEqual({ where, n: maxPoints });
      points.push(...t.map((time, j) => ({ t: time, v: v[j]! })));
    }
    out.set(series, points);
  }
  return out;
}

/**
 * Reads [from, to) through `readRawPoints` and compares the points and the outer neighbours
 * with what `expected` (the series' points in order) says they must be.
 */
export async function checkRead(
  db: Db,
  series: string,
  expected: readonly SegmentPoint[],
  fromMs: number,
  toMs: number,
  field?: string,
): Promise<void> {
  const result = await (
    await storesOf(db)
  ).segments.readPoints(
    field === undefined ? { series, fromMs, toMs } : { series, fromMs, toMs, field },
    { maxDocuments: 10_000 },
  );
  // With a field asked for, the series is that field's line: points without it are not on it.
  const line =
    field === undefined
      ? expected
      : expected.flatMap((p) =>
          p.v[field] === undefined ? [] : [{ t: p.t, v: { [field]: p.v[field] } }],
        );
  const before = line.filter((p) => p.t < fromMs).at(-1);
  const after = line.find((p) => p.t >= toMs);
  expect({
    series,
    fromMs,
    toMs,
    points: result.points,
    before: result.before,
    after: result.after,
  }).toEqual({
    series,
    fromMs,
    toMs,
    points: line.filter((p) => p.t >= fromMs && p.t < toMs),
    before: before ?? null,
    after: after ?? null,
  });
}
