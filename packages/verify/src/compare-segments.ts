import type { SegmentDocument } from '@tickertape/segments';
import type { ExpectedPoint } from './reference-segments.js';
import type { Difference } from './truth.js';

const DAY_MS = 86_400_000;

function pointId(series: string, t: number): string {
  return `${series}@${Number.isFinite(t) ? new Date(t).toISOString() : String(t)}`;
}

function pointKey(point: ExpectedPoint): string {
  const names = Object.keys(point.v).sort();
  return `${point.t}|${JSON.stringify(names.map((name) => [name, point.v[name]]))}`;
}

export interface SegmentCheck {
  /** SEGMENT_MAX_POINTS of the workers. */
  maxPoints: number;
  /** Only some days are checked: the series may go on before and after them. */
  partial: boolean;
}

/** What each segment claims about itself and its neighbours, checked against its own points. */
function structure(
  series: string,
  segments: readonly SegmentDocument[],
  options: SegmentCheck,
): Difference[] {
  const differences: Difference[] = [];
  const wrong = (id: string, path: string, expected: unknown, actual: unknown) => {
    if (expected !== actual)
      differences.push({ store: 'segments', kind: 'wrong', id, path, expected, actual });
  };
  segments.forEach((segment, i) => {
    const id = segment._id;
    wrong(id, 'series', series, segment.series);
    wrong(id, 'n', segment.t.length, segment.n);
    wrong(id, 'v.length', segment.t.length, segment.v.length);
    if (segment.n > options.maxPoints)
      wrong(id, 'n (at most SEGMENT_MAX_POINTS)', options.maxPoints, segment.n);
    wrong(id, 'start', segment.t[0], segment.start);
    wrong(id, 'end', segment.t[segment.t.length - 1], segment.end);
    const days = new Set(segment.t.map((t) => Math.floor(t / DAY_MS)));
    if (days.size > 1) wrong(id, 'day (points cross a UTC midnight)', 1, days.size);
    const previous = segments[i - 1];
    const next = segments[i + 1];
    // Outside a partial range, the neighbours of the first and last segment are not read.
    if (previous || !options.partial)
      wrong(id, 'prevEnd', previous ? previous.end : Number.NEGATIVE_INFINITY, segment.prevEnd);
    if (next || !options.partial)
      wrong(id, 'nextStart', next ? next.start : Number.POSITIVE_INFINITY, segment.nextStart);
  });
  return differences;
}

/**
 * Compares one chain's stored segments — one series from one Kafka partition, in `_id` order:
 * day, first offset, the order they were written in — with the points it should hold. Points are
 * matched by time and values: a point the store lacks is `missing`, one it should not have is
 * `extra`, one whose time matches but whose values differ is `wrong`; points out of time order
 * are `wrong` at `order`.
 */
export function compareSeriesSegments(
  series: string,
  expected: readonly ExpectedPoint[],
  segments: readonly SegmentDocument[],
  options: SegmentCheck,
): Difference[] {
  const differences = structure(series, segments, options);
  const actual: ExpectedPoint[] = segments.flatMap((segment) =>
    segment.t.map((t, i) => ({ t, v: segment.v[i] ?? {} })),
  );
  for (let i = 1; i < actual.length; i++) {
    if (actual[i]!.t < actual[i - 1]!.t) {
      differences.push({
        store: 'segments',
        kind: 'wrong',
        id: pointId(series, actual[i]!.t),
        path: 'order',
        expected: `at or after ${actual[i - 1]!.t}`,
        actual: actual[i]!.t,
      });
    }
  }
  const unmatched = new Map<string, ExpectedPoint[]>();
  for (const point of actual) {
    const key = pointKey(point);
    const same = unmatched.get(key);
    if (same) same.push(point);
    else unmatched.set(key, [point]);
  }
  const missing: ExpectedPoint[] = [];
  for (const point of expected) {
    const same = unmatched.get(pointKey(point));
    if (same && same.length > 0) same.pop();
    else missing.push(point);
  }
  const extra = [...unmatched.values()].flat();
  const extraAt = new Map<number, ExpectedPoint[]>();
  for (const point of extra) {
    const sameTime = extraAt.get(point.t);
    if (sameTime) sameTime.push(point);
    else extraAt.set(point.t, [point]);
  }
  for (const point of missing) {
    const sameTime = extraAt.get(point.t);
    const replaced = sameTime?.shift();
    differences.push(
      replaced
        ? {
            store: 'segments',
            kind: 'wrong',
            id: pointId(series, point.t),
            path: 'v',
            expected: point.v,
            actual: replaced.v,
          }
        : { store: 'segments', kind: 'missing', id: pointId(series, point.t), expected: point.v },
    );
  }
  for (const points of extraAt.values()) {
    for (const point of points) {
      differences.push({
        store: 'segments',
        kind: 'extra',
        id: pointId(series, point.t),
        actual: point.v,
      });
    }
  }
  return differences;
}
