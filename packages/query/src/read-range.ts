import { LEVEL_SPECS, slotStart, type Level } from '@tickertape/buckets';
import type { FieldSlot, RollupStore } from '@tickertape/store';
import {
  beginReads,
  checkBudget,
  checkName,
  checkRange,
  checkSeries,
  type ReaderContext,
} from './limits.js';
import { hasAggregateSubSlots } from './cover.js';
import {
  answerPoint,
  findGaps,
  mergePoints,
  pointOfAggregate,
  pointOfMark,
  pointOfSecond,
  type AnsweredPoint,
  type Gap,
  type Point,
} from './points.js';
import { QueryError, QueryErrorCode } from './query-error.js';
import { pointCount, sourceStepMs, type Resolution } from './resolution.js';
import { checkQuantiles } from './stats.js';

export interface RangeQuery {
  series: string;
  field: string;
  fromMs: number;
  toMs: number;
  /** An IANA zone: steps follow its local calendar (local-range.ts). */
  tz?: string;
  /** φ in [0, 1]: the quantiles of each point's values. */
  quantiles?: readonly number[];
}

/** How a range is read beyond its query: what the level policy and the caller add. */
export interface RangeReadOptions {
  /** The field's weight field (the level policy's), for its weighted average. */
  weight?: string;
  /**
   * Keep each point's merged parts (`parts`: Σx², Σx·w and Σw, sketch bins, with their coverage)
   * beside its stats: for a caller that merges points further (PromQL's range functions).
   */
  keepParts?: boolean;
  /** Read the sketches even without quantiles asked (hour and day slots from their sub-slots). */
  sketches?: boolean;
}

export interface RangeResult {
  series: string;
  field: string;
  fromMs: number;
  toMs: number;
  resolution: Resolution;
  /** The zone whose local steps the points are (each point then has its `end` and `local`). */
  tz?: string;
  /** Points with data only, in time order; intervals without data are in `gaps`, never zeros. */
  points: AnsweredPoint[];
  /** Runs without data inside [from, min(to, now)). */
  gaps: Gap[];
  /** Buckets read to answer. */
  examined: number;
  /** The level read, when the range's end is not final yet (points may still change or appear). */
  openLevels: Level[];
}

/** The points one decoded bucket yields, clipped to [from, to): its totals, or its sub-slots. */
function pointsOfSlot(
  slot: FieldSlot,
  detail: 'slot' | 'sub',
  final: boolean,
  fromMs: number,
  toMs: number,
): Point[] {
  if (detail === 'slot')
    return slot.totals ? [pointOfAggregate(slot.start, slot.totals, final)] : [];
  const { subSlotMs } = LEVEL_SPECS[slot.level];
  const points: Point[] = [];
  // A sub-slot written on both sides of a level-policy change comes twice (full and compact):
  // the two merge into one point.
  let here: Point[] = [];
  let index = -1;
  const flush = () => {
    if (here.length === 1) points.push(here[0]!);
    else if (here.length > 1) points.push(...mergePoints(here, subSlotMs));
    here = [];
  };
  for (const value of slot.subSlots) {
    const t = slot.start + value.index * subSlotMs;
    if (t + subSlotMs <= fromMs || t >= toMs) continue;
    if (value.index !== index) flush();
    index = value.index;
    if (value.kind === 'aggregate') here.push(pointOfAggregate(t, value.aggregate, final));
    else if (value.kind === 'compact') here.push(pointOfSecond(t, value.sum, value.n, final));
    // A second written before the compact minute layout has the last value's mark instead.
    else here.push(pointOfMark(t, value.mark, final));
  }
  flush();
  return points;
}

/**
 * One series, one field, [from, to), at a resolution: reads the source level's buckets over the
 * range (the store's slot reads, at most the planned count), turns them into points, and merges
 * them to the resolution's width.
 */
export async function readRange(
  store: RollupStore,
  ctx: ReaderContext,
  query: RangeQuery,
  resolution: Resolution,
  options: RangeReadOptions = {},
): Promise<RangeResult> {
  const { weight } = options;
  const { series, field, fromMs, toMs } = query;
  checkRange(fromMs, toMs);
  checkSeries(series);
  checkName('field', field);
  const quantiles = checkQuantiles(query.quantiles ?? []);
  const { level } = resolution.source;
  // Hour and day totals keep no sketch (their minutes and hours do): with quantiles, their points
  // are the merge of their sub-slots, read from the same buckets, unclipped (the totals' ticks).
  const fromSubSlots =
    (quantiles.length > 0 || options.sketches === true) &&
    resolution.source.detail === 'slot' &&
    hasAggregateSubSlots(level);
  const detail = fromSubSlots ? 'sub' : resolution.source.detail;
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

  const scope = await beginReads(store, ctx);
  const { view: finality, session } = scope;
  const slots = await store
    .readSlots({ level, series, field, fromMs, toMs, detail, limit: planned }, session)
    .finally(() => scope.end());
  const native = slots.flatMap((slot) =>
    fromSubSlots
      ? mergePoints(
          pointsOfSlot(slot, 'sub', finality.isFinal(level, slot.start), slot.start, Infinity),
          LEVEL_SPECS[level].slotMs,
        )
      : pointsOfSlot(slot, detail, finality.isFinal(level, slot.start), fromMs, toMs),
  );
  const merged =
    resolution.stepMs === sourceStepMs(resolution.source)
      ? native
      : mergePoints(native, resolution.stepMs);
  const asked = { quantiles, ...(weight === undefined ? {} : { weight }) };
  const answered = merged.map((point) => answerPoint(point, asked, options.keepParts === true));
  return {
    series,
    field,
    fromMs,
    toMs,
    resolution,
    points: answered,
    gaps: findGaps(answered, fromMs, Math.min(toMs, ctx.now()), resolution.stepMs),
    examined: slots.length,
    // Final when the range's last slot is: a missing bucket there may still be written.
    openLevels: finality.isFinal(level, slotStart(level, toMs - 1)) ? [] : [level],
  };
}
