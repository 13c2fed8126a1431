import { ceilTo, floorTo, type Level } from '@tickertape/buckets';
import type { FieldSlot, RollupStore } from '@tickertape/store';
import { coverUnitMs, planCover, type CoverPiece } from './cover.js';
import {
  beginReads,
  checkBudget,
  checkName,
  checkRange,
  checkSeries,
  type ReaderContext,
} from './limits.js';
import { localSteps, onUtcGrid, stepGaps, type LocalStep } from './local-steps.js';
import type { AnsweredPoint } from './points.js';
import { checkQuantiles } from './stats.js';
import { QueryError, QueryErrorCode } from './query-error.js';
import {
  readRange,
  type RangeQuery,
  type RangeReadOptions,
  type RangeResult,
} from './read-range.js';
import { pointCount, type Resolution } from './resolution.js';
import { localIso, zoneRules, type ZoneRules } from './time-zone.js';
import { finalSlot, sumPieces, type WindowRow } from './window.js';

/** A point of a local step: its UTC end and its local start beside its UTC start `t`. */
function localPoint<P extends { t: number }>(point: P, end: number, rules: ZoneRules): P {
  return { ...point, end, local: localIso(point.t, rules.offsetAt(point.t)) };
}

/**
 * One series, one field, [from, to), in steps of the zone's local calendar (`localSteps`). Where
 * the local steps are the UTC ones (Los Angeles' hours, Kolkata's 30 minutes) it is the UTC read
 * with each point's end and local time added. Otherwise (local days, Kolkata's hours) each step
 * is a UTC range summed as a window is: whole buckets inside it, sub-slot runs at its edges, from
 * finer levels where the coarser ones do not align (Kolkata's midnight is 18:30 UTC: an hour
 * bucket's minutes). Each bucket is read once for all the steps it serves.
 */
export async function readLocalRange(
  store: RollupStore,
  ctx: ReaderContext,
  query: RangeQuery & { tz: string },
  resolution: Resolution,
  options: RangeReadOptions = {},
): Promise<RangeResult> {
  const { weight } = options;
  const { tz, ...utcQuery } = query;
  const { series, field, fromMs, toMs } = utcQuery;
  checkRange(fromMs, toMs);
  checkSeries(series);
  checkName('field', field);
  const quantiles = checkQuantiles(query.quantiles ?? []);
  const rules = zoneRules(tz);
  const { stepMs } = resolution;
  // Checked before the steps are made: a local step is never shorter than half its width.
  if (pointCount(fromMs, toMs, stepMs) > ctx.limits.maxPoints)
    throw new QueryError(
      QueryErrorCode.TooManyPoints,
      `the range holds about ${pointCount(fromMs, toMs, stepMs)} points at ${stepMs} ms; the limit is ${ctx.limits.maxPoints}`,
    );
  const steps = localSteps(fromMs, toMs, stepMs, rules);
  if (onUtcGrid(steps, stepMs)) {
    const utc = await readRange(store, ctx, utcQuery, resolution, options);
    return {
      ...utc,
      tz,
      points: utc.points.map((point) => localPoint(point, point.t + stepMs, rules)),
    };
  }
  const unit = coverUnitMs(ctx.levels);
  const spans = steps.map((step) => {
    for (const edge of [step.start, step.end])
      if (edge % unit !== 0 && edge > fromMs && edge < toMs)
        throw new QueryError(
          QueryErrorCode.NoResolution,
          `${tz}'s steps of ${stepMs} ms start at ${new Date(edge).toISOString()}, between the ${unit} ms parts the running levels keep`,
        );
    const from = floorTo(Math.max(step.start, fromMs), unit);
    const to = ceilTo(Math.min(step.end, toMs), unit);
    return { step, from, to, pieces: planCover(from, to, ctx.levels) };
  });
  const buckets = new Map<string, CoverPiece>();
  for (const { pieces } of spans)
    for (const piece of pieces)
      buckets.set(bucketKey(piece), { level: piece.level, start: piece.start });
  checkBudget(buckets.size, ctx, `reading ${series} in ${tz} steps`);

  const scope = await beginReads(store, ctx);
  try {
    const { view, session } = scope;
    const read = new Map<string, FieldSlot | undefined>();
    await Promise.all(
      [...buckets].map(async ([key, bucket]) => {
        const readPart = (keys: readonly string[]) =>
          store.readPart({ part: bucket, series: keys, field, whole: true }, session);
        const docs =
          ctx.cache && view.isFinal(bucket.level, bucket.start)
            ? await ctx.cache.read(
                finalSlot(bucket, field, view),
                { series: [series] },
                (missing) => readPart(missing ?? [series]),
              )
            : await readPart([series]);
        read.set(
          key,
          docs.find((slot) => slot.series === series),
        );
      }),
    );
    const openLevels = new Set<Level>();
    const points: AnsweredPoint[] = [];
    for (const { step, from, to, pieces } of spans) {
      // Each step is a window of one series: summed as a window is, by the window's own code.
      const docs = pieces.map((piece) => {
        const slot = read.get(bucketKey(piece));
        return slot ? [slot] : [];
      });
      const summed = sumPieces({ field, fromMs: from, toMs: to, pieces }, docs, [series], view, {
        quantiles,
        ...(weight === undefined ? {} : { weightOf: () => weight }),
      });
      for (const level of summed.openLevels) openLevels.add(level);
      const row = summed.rows[0];
      if (row && row.n > 0) points.push(localPoint(pointOfRow(step.start, row), step.end, rules));
    }
    return {
      series,
      field,
      fromMs,
      toMs,
      resolution,
      tz,
      points,
      gaps: stepGaps(steps, startsOf(points), fromMs, Math.min(toMs, ctx.now())),
      examined: [...read.values()].filter((slot) => slot !== undefined).length,
      openLevels: [...openLevels],
    };
  } finally {
    await scope.end();
  }
}

const bucketKey = (piece: CoverPiece) => `${piece.level}:${piece.start}`;

/** A step's window row (n > 0) as its point: first and last are the point's open and close. */
function pointOfRow(t: number, row: WindowRow): AnsweredPoint {
  const { variance, stddev, quantiles, weighted, coverage } = row;
  return {
    variance,
    stddev,
    ...(quantiles === undefined ? {} : { quantiles }),
    ...(weighted === undefined ? {} : { weighted }),
    coverage,
    t,
    n: row.n,
    sum: row.sum,
    min: row.min!,
    max: row.max!,
    open: row.first!.v,
    close: row.last!.v,
    avg: row.avg!,
    final: row.final,
  };
}

const startsOf = (points: readonly { t: number }[]) => new Set(points.map((point) => point.t));

/** The steps of a range's answer: its local steps with a zone, else the UTC grid of its width. */
export function rangeSteps(
  result: Pick<RangeResult, 'fromMs' | 'toMs' | 'tz' | 'resolution'>,
): LocalStep[] {
  const { fromMs, toMs, tz } = result;
  const { stepMs } = result.resolution;
  if (tz !== undefined) return localSteps(fromMs, toMs, stepMs, zoneRules(tz));
  const steps: LocalStep[] = [];
  for (let start = floorTo(fromMs, stepMs); start < toMs; start += stepMs)
    steps.push({ start, end: start + stepMs });
  return steps;
}

/**
 * A window's answer with the zone named and its bounds in the zone's wall time: the window
 * summed is the UTC range [fromMs, toMs) either way.
 */
export function windowInZone<T extends { fromMs: number; toMs: number }>(
  result: T,
  tz: string,
): T & { tz: string; local: { from: string; to: string } } {
  const rules = zoneRules(tz);
  return {
    ...result,
    tz,
    local: {
      from: localIso(result.fromMs, rules.offsetAt(result.fromMs)),
      to: localIso(result.toMs, rules.offsetAt(result.toMs)),
    },
  };
}
