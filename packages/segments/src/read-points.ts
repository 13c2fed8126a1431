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
  /**
   * Only this field: points without it are left out, and the neighbours are the nearest points
   * that carry it. All fields when absent.
   */
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
    inRange.map((day) =>
      db.collection<SegmentDocument>(segmentCollection(day)).countDocuments(filter),
    ),
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
  // With a field asked for, a point without it is not a point of that field's line.
  const carries = (p: SegmentPoint) => field === undefined || p.v[field] !== undefined;
  // Start, then id: a burst within one millisecond can span segments that share a time.
  segments.sort((a, b) => a.start - b.start || (a._id < b._id ? -1 : 1));
  const all = segments.flatMap(pointsOf).filter(carries);
  let before = all.filter((p) => p.t < fromMs).at(-1) ?? null;
  let after = all.find((p) => p.t >= toMs) ?? null;

  /**
   * The nearest point carrying the field on one side of `from`: the segment's own points, else
   * its neighbour's — the segment ending at its `prevEnd` (starting at its `nextStart`) with the
   * nearest id, as several segments can end at one millisecond — hop by hop, within the budget.
   */
  const walk = async (
    segment: Segment | undefined,
    side: 'before' | 'after',
  ): Promise<SegmentPoint | null> => {
    let current = segment;
    while (current && examined < limits.maxDocuments) {
      const time = side === 'before' ? current.prevEnd : current.nextStart;
      if (!Number.isFinite(time)) return null;
      const day = dayOf(time);
      if (!days.includes(day)) return null; // dropped by retention
      const range = seriesIdRange(series);
      const filter =
        side === 'before'
          ? { _id: { $gte: range.$gte, $lt: current._id }, end: time }
          : { _id: { $gt: current._id, $lt: range.$lt }, start: time };
      const next: Segment | null = await db
        .collection<SegmentDocument>(segmentCollection(day))
        .find(filter, { projection: projection(field) })
        .sort({ _id: side === 'before' ? -1 : 1 })
        .limit(1)
        .next();
      if (!next) return null;
      examined += 1;
      const points = pointsOf(next).filter(carries);
      const point = side === 'before' ? points.at(-1) : points[0];
      if (point) return point;
      current = next;
    }
    return null;
  };
  if (before === null) {
    let from = segments[0];
    if (!from) {
      // Nothing in the range's days: the newest segment of an earlier day holds the neighbour.
      from = await outermost(db, days, series, firstDay, 'before', projection(field));
      if (from) {
        examined += 1;
        before = pointsOf(from).filter(carries).at(-1) ?? null;
      }
    }
    if (before === null) before = await walk(from, 'before');
  }
  if (after === null) {
    let from = segments.at(-1);
    if (!from) {
      from = await outermost(db, days, series, lastDay, 'after', projection(field));
      if (from) {
        examined += 1;
        after = pointsOf(from).filter(carries)[0] ?? null;
      }
    }
    if (after === null) after = await walk(from, 'after');
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
 * With no segment in the range's days at all: the newest segment of the nearest earlier day, or
 * the oldest of the nearest later day, walking day collections outward (bounded by the days
 * retention keeps).
 */
async function outermost(
  db: Db,
  days: readonly string[],
  series: string,
  edgeDay: string,
  side: 'before' | 'after',
  fields: Document,
): Promise<Segment | undefined> {
  const candidates =
    side === 'before' ? days.filter((d) => d < edgeDay).reverse() : days.filter((d) => d > edgeDay);
  for (const day of candidates) {
    const found = await db
      .collection<SegmentDocument>(segmentCollection(day))
      .find({ _id: seriesIdRange(series) }, { projection: fields })
      .sort({ _id: side === 'before' ? -1 : 1 })
      .limit(1)
      .next();
    if (found) return found;
  }
  return undefined;
}
