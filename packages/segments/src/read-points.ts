import { TickertapeError } from '@tickertape/errors';
import type { Db, Document } from 'mongodb';
import { listSegmentDays } from './segment-collections.js';
import {
  dayOf,
  segmentCollection,
  seriesIdRange,
  type SegmentDocument,
  type SegmentPoint,
} from './segment-shape.js';

export interface RawPointsQuery {
  series: string;
  fromMs: number;
  toMs: number;
  /** Only this field's values; all fields when absent. */
  field?: string;
}

export interface RawPointsResult {
  series: string;
  fromMs: number;
  toMs: number;
  /** Every stored point with from ≤ t < to, in time order. */
  points: SegmentPoint[];
  /** The nearest stored point before `from` and at or after `to`: what a chart draws its edges to. */
  before: SegmentPoint | null;
  after: SegmentPoint | null;
  /** Segment documents read. */
  examined: number;
}

export interface RawPointsLimits {
  /** Segment documents one read may examine. */
  maxDocuments: number;
}

export const RawPointsErrorCode = { ReadBudgetExceeded: 'QUERY_READ_BUDGET_EXCEEDED' } as const;

type Segment = Pick<SegmentDocument, '_id' | 'start' | 'end' | 'prevEnd' | 'nextStart' | 't' | 'v'>;

function projection(field: string | undefined): Document {
  const base = { start: 1, end: 1, prevEnd: 1, nextStart: 1, t: 1 };
  return field === undefined ? { ...base, v: 1 } : { ...base, [`v.${field}`]: 1 };
}

function pointsOf(segment: Segment): SegmentPoint[] {
  return segment.t.map((t, i) => ({ t, v: segment.v[i] ?? {} }));
}

/**
 * Raw points of one series in [from, to) with their outer neighbours. One query per day
 * collection the range touches returns every segment that holds a point in the range *or the
 * point just outside it* — `prevEnd < to and nextStart ≥ from` (seed 004) — so the neighbours
 * come with the range. Only when a neighbour lies in a day outside the range (the series was
 * silent across midnight) is that one segment fetched, found by its time from `prevEnd`/`nextStart`.
 */
export async function readRawPoints(
  db: Db,
  query: RawPointsQuery,
  limits: RawPointsLimits,
): Promise<RawPointsResult> {
  const { series, fromMs, toMs, field } = query;
  const days = await listSegmentDays(db);
  const firstDay = dayOf(fromMs);
  const lastDay = dayOf(toMs - 1);
  const inRange = days.filter((day) => day >= firstDay && day <= lastDay);
  const filter = {
    _id: seriesIdRange(series),
    prevEnd: { $lt: toMs },
    nextStart: { $gte: fromMs },
  };
  const counts = await Promise.all(
    inRange.map((day) => db.collection<SegmentDocument>(segmentCollection(day)).countDocuments(filter)),
  );
  const planned = counts.reduce((a, b) => a + b, 0);
  if (planned + 2 > limits.maxDocuments)
    throw new TickertapeError(
      RawPointsErrorCode.ReadBudgetExceeded,
      `the range holds ${planned} segments of ${series}; the limit is ${limits.maxDocuments}: narrow the range`,
    );
  const segments: Segment[] = [];
  for (const [i, day] of inRange.entries()) {
    if (counts[i] === 0) continue;
    segments.push(
      ...(await db
        .collection<SegmentDocument>(segmentCollection(day))
        .find(filter, { projection: projection(field) })
        .sort({ _id: 1 })
        .toArray()),
    );
  }
  let examined = segments.length;
  const all = segments.sort((a, b) => a.start - b.start).flatMap(pointsOf);
  let before = all.filter((p) => p.t < fromMs).at(-1) ?? null;
  let after = all.find((p) => p.t >= toMs) ?? null;

  // A neighbour in a day outside the range: the one segment that ends (or starts) at that time.
  const edge = async (time: number, key: 'end' | 'start'): Promise<SegmentPoint | null> => {
    const day = dayOf(time);
    if (!days.includes(day)) return null; // dropped by retention
    const found = await db
      .collection<SegmentDocument>(segmentCollection(day))
      .findOne({ _id: seriesIdRange(series), [key]: time }, { projection: projection(field) });
    if (!found) return null;
    examined += 1;
    const points = pointsOf(found);
    return (key === 'end' ? points.at(-1) : points[0]) ?? null;
  };
  const earliest = segments[0];
  const latest = segments.at(-1);
  if (before === null) {
    const prevEnd = earliest
      ? earliest.prevEnd
      : await neighbourTime(db, days, series, firstDay, 'before');
    if (prevEnd !== undefined && Number.isFinite(prevEnd) && prevEnd < fromMs)
      before = await edge(prevEnd, 'end');
  }
  if (after === null) {
    const nextStart = latest
      ? latest.nextStart
      : await neighbourTime(db, days, series, lastDay, 'after');
    if (nextStart !== undefined && Number.isFinite(nextStart) && nextStart >= toMs)
      after = await edge(nextStart, 'start');
  }
  return {
    series,
    fromMs,
    toMs,
    points: all.filter((p) => p.t >= fromMs && p.t < toMs),
    before,
    after,
    examined,
  };
}

/**
 * With no segment in the range's days at all, the nearest stored time on one side: the newest
 * segment's end before the range, or the oldest segment's start after it, walking day
 * collections outward (bounded by the days retention keeps).
 */
async function neighbourTime(
  db: Db,
  days: readonly string[],
  series: string,
  edgeDay: string,
  side: 'before' | 'after',
): Promise<number | undefined> {
  const candidates =
    side === 'before' ? days.filter((d) => d < edgeDay).reverse() : days.filter((d) => d > edgeDay);
  for (const day of candidates) {
    const found = await db
      .collection<SegmentDocument>(segmentCollection(day))
      .find({ _id: seriesIdRange(series) }, { projection: { start: 1, end: 1 } })
      .sort({ _id: side === 'before' ? -1 : 1 })
      .limit(1)
      .next();
    if (found) return side === 'before' ? found.end : found.start;
  }
  return undefined;
}
