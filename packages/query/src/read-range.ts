import {
  LEGACY_SECOND_MARKS,
  LEVEL_SPECS,
  SECOND_COUNTS,
  SECOND_SUMS,
  bucketId,
  secondCountsOf,
  slotStart,
  type Level,
} from '@tickertape/buckets';
import type { Db, Document } from 'mongodb';
import {
  bucketPartition,
  isObservedAggregate,
  isObservedMark,
  summaryProjection,
  type StoredBucket,
} from '@tickertape/store';
import {
  beginReads,
  checkBudget,
  checkName,
  checkRange,
  checkSeries,
  type ReaderContext,
} from './limits.js';
import { partitionsInRange } from './partitions-in-range.js';
import {
  findGaps,
  mergePoints,
  pointOfAggregate,
  pointOfMark,
  pointOfSecond,
  type Gap,
  type Point,
} from './points.js';
import { QueryError, QueryErrorCode } from './query-error.js';
import { pointCount, sourceStepMs, type Resolution } from './resolution.js';

export interface RangeQuery {
  series: string;
  field: string;
  fromMs: number;
  toMs: number;
}

export interface RangeResult {
  series: string;
  field: string;
  fromMs: number;
  toMs: number;
  resolution: Resolution;
  /** Points with data only, in time order; intervals without data are in `gaps`, never zeros. */
  points: Point[];
  /** Runs without data inside [from, min(to, now)). */
  gaps: Gap[];
  /** Bucket documents read to answer. */
  examined: number;
  /** The level read, when the range's end is not final yet (points may still change or appear). */
  openLevels: Level[];
}

/** The points one bucket yields for the source, shell padding skipped, clipped to [from, to). */
function pointsOfBucket(
  level: Level,
  detail: 'slot' | 'sub',
  bucket: StoredBucket,
  name: string,
  final: boolean,
  fromMs: number,
  toMs: number,
): Point[] {
  const field = bucket.f?.[name];
  if (!field || !isObservedAggregate(field)) return [];
  const spec = LEVEL_SPECS[level];
  const start = bucket.start.getTime();
  if (detail === 'slot') return [pointOfAggregate(start, field, final)];
  const points: Point[] = [];
  // Compact sub-slots (every minute bucket; an hour bucket the level policy keeps compact): a
  // sum here and a count per field set in `c`. An hour bucket written on both sides of a policy
  // change holds both forms, even for one minute: they add up.
  const sums = spec.sumsKey === undefined ? undefined : field[spec.sumsKey];
  const counts = sums === undefined ? undefined : secondCountsOf(bucket.c, name);
  const full = spec.subKey === SECOND_SUMS ? undefined : field[spec.subKey];
  const legacy = spec.subKey === SECOND_SUMS ? field[LEGACY_SECOND_MARKS] : undefined;
  for (let i = 0; i < spec.subSlots; i++) {
    const t = start + i * spec.subSlotMs;
    if (t + spec.subSlotMs <= fromMs || t >= toMs) continue;
    const here: Point[] = [];
    const aggregate = full?.[String(i)];
    if (isObservedAggregate(aggregate)) here.push(pointOfAggregate(t, aggregate, final));
    const n = counts?.get(i);
    const sum = sums?.[String(i)];
    if (n !== undefined && typeof sum === 'number') here.push(pointOfSecond(t, sum, n, final));
    else {
      // A second written before the compact minute layout has a mark instead.
      const mark = legacy?.[String(i)];
      if (here.length === 0 && isObservedMark(mark)) here.push(pointOfMark(t, mark, final));
    }
    if (here.length === 1) points.push(here[0]!);
    else if (here.length > 1) points.push(...mergePoints(here, spec.subSlotMs));
  }
  return points;
}

/**
 * One series, one field, [from, to), at a resolution: reads the source level's buckets as
 * left-anchored `_id` ranges in each partition collection the range touches, turns them into
 * points, and merges them to the resolution's width.
 */
export async function readRange(
  db: Db,
  ctx: ReaderContext,
  query: RangeQuery,
  resolution: Resolution,
): Promise<RangeResult> {
  const { series, field, fromMs, toMs } = query;
  checkRange(fromMs, toMs);
  checkSeries(series);
  checkName('field', field);
  const { level, detail } = resolution.source;
  if (!ctx.levels.includes(level))
    throw new QueryError(
      QueryErrorCode.UnknownLevel,
      `level ${level} is not among ${ctx.levels.join(', ')}`,
    );
  const points = pointCount(fromMs, toMs, resolution.stepMs);
  if (points > ctx.limits.maxPoints)
    throw new QueryError(
      QueryErrorCode.TooManyPoints,
      `the range holds ${points} points at ${resolution.stepMs} ms; the limit is ${ctx.limits.maxPoints}`,
    );
  const spec = LEVEL_SPECS[level];
  const planned = pointCount(fromMs, toMs, spec.slotMs);
  checkBudget(planned, ctx, `reading ${series} at ${level} level`);

  const scope = await beginReads(db, ctx);
  const { view: finality, session } = scope;
  const path = `f.${field}`;
  const projection: Document =
    detail === 'sub'
      ? {
          start: 1,
          [`${path}.n`]: 1,
          [`${path}.${spec.subKey}`]: 1,
          ...(spec.sumsKey === undefined
            ? {}
            : { [`${path}.${spec.sumsKey}`]: 1, [SECOND_COUNTS]: 1 }),
          ...(spec.subKey === SECOND_SUMS ? { [`${path}.${LEGACY_SECOND_MARKS}`]: 1 } : {}),
        }
      : { start: 1, ...summaryProjection(field) };
  const batches = await Promise.all(
    partitionsInRange(level, fromMs, toMs).map(async (partition) => {
      const lo = slotStart(level, Math.max(fromMs, partition.startMs));
      const hi = slotStart(level, Math.min(toMs, partition.endMs) - 1);
      return bucketPartition(db, partition.name).find(
        { _id: { $gte: bucketId(level, series, lo), $lte: bucketId(level, series, hi) } },
        { projection, sort: { _id: 1 }, limit: planned, ...(session ? { session } : {}) },
      );
    }),
  ).finally(() => scope.end());
  let examined = 0;
  const native: Point[] = [];
  for (const docs of batches) {
    for (const doc of docs) {
      examined += 1;
      native.push(
        ...pointsOfBucket(
          level,
          detail,
          doc,
          field,
          finality.isFinal(level, doc.start.getTime()),
          fromMs,
          toMs,
        ),
      );
    }
  }
  const merged =
    resolution.stepMs === sourceStepMs(resolution.source)
      ? native
      : mergePoints(native, resolution.stepMs);
  return {
    series,
    field,
    fromMs,
    toMs,
    resolution,
    points: merged,
    gaps: findGaps(merged, fromMs, Math.min(toMs, ctx.now()), resolution.stepMs),
    examined,
    // Final when the range's last slot is: a missing bucket there may still be written.
    openLevels: finality.isFinal(level, slotStart(level, toMs - 1)) ? [] : [level],
  };
}
