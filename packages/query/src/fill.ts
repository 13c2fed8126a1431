import { rangeSteps } from './local-range.js';
import type { LocalStep } from './local-steps.js';
import type { AnsweredPoint } from './points.js';
import type { Stats } from './stats.js';
import type { RangeResult } from './read-range.js';
import { localIso, zoneRules } from './time-zone.js';

/**
 * How the steps without data are answered when a caller asks for a filled series (charts,
 * pandas): `null` a point of nulls, `previous` the last point's values carried forward (locf),
 * `linear` the values interpolated in time between the points on each side. Unasked, a missing
 * step stays a gap: no point, never a zero.
 */
export const FILL_MODES = ['null', 'previous', 'linear'] as const;
export type FillMode = (typeof FILL_MODES)[number];

/** Each of a point's values, filled on its own (as pandas' ffill and interpolate do per column). */
type Values = Record<'avg' | 'min' | 'max' | 'open' | 'close', number | null>;

/**
 * A step without data, filled: no observation (`n` and `sum` null, never 0), its values by the
 * mode, and `filled: true`, so no reader takes it for data.
 */
export interface FilledPoint extends Values, Stats {
  t: number;
  end?: number;
  local?: string;
  n: null;
  sum: null;
  /** Final when the next point with data is (finality moves forward in time), or the range is. */
  final: boolean;
  filled: true;
}

export type SteppedPoint = (AnsweredPoint & { filled: false }) | FilledPoint;

/**
 * A filled step's stats: none, its ticks being none — null spread, quantiles and weighted
 * average, each covering 0 ticks, in the shape the points with data have (the same columns).
 */
function noStatsLike(point: AnsweredPoint | undefined): Stats {
  const quantiles = point?.quantiles;
  const weighted = point?.weighted;
  const { sketch, weighted: covered } = point?.coverage ?? {};
  return {
    variance: null,
    stddev: null,
    ...(quantiles === undefined
      ? {}
      : { quantiles: Object.fromEntries(Object.keys(quantiles).map((key) => [key, null])) }),
    ...(weighted === undefined ? {} : { weighted: { by: weighted.by, avg: null } }),
    coverage: {
      spread: 0,
      ...(sketch === undefined ? {} : { sketch: 0 }),
      ...(covered === undefined ? {} : { weighted: 0 }),
    },
  };
}

export interface FilledRangeResult extends Omit<RangeResult, 'points'> {
  fill: FillMode;
  /** The points with data (`filled: false`) and the filled steps, in time order. */
  points: SteppedPoint[];
}

const valuesOf = (point: AnsweredPoint): Values => ({
  avg: point.avg,
  min: point.min,
  max: point.max,
  open: point.open,
  close: point.close,
});

const NULLS: Values = { avg: null, min: null, max: null, open: null, close: null };

/** `a`'s and `b`'s values at `t`, on the line between them. */
function between(a: AnsweredPoint, b: AnsweredPoint, t: number): Values {
  const share = (t - a.t) / (b.t - a.t);
  const at = (x: number, y: number) => x + (y - x) * share;
  return {
    avg: at(a.avg, b.avg),
    min: at(a.min, b.min),
    max: at(a.max, b.max),
    open: at(a.open, b.open),
    close: at(a.close, b.close),
  };
}

/**
 * The points and the `missing` steps filled by `mode`, in time order. `previous` fills no step
 * before the first point and `linear` none outside the first and last (no extrapolation): those
 * stay gaps. Pure: `decorate` adds a step's end and local time when the answer has a zone.
 */
export function fillPoints(
  points: readonly AnsweredPoint[],
  missing: readonly LocalStep[],
  mode: FillMode,
  rangeFinal: boolean,
  decorate: (step: LocalStep) => { end?: number; local?: string } = () => ({}),
): SteppedPoint[] {
  const out = points.map((point): SteppedPoint => ({ ...point, filled: false }));
  const stats = noStatsLike(points[0]);
  let next = 0;
  for (const step of missing) {
    while (next < points.length && points[next]!.t <= step.start) next++;
    const before = next > 0 ? points[next - 1] : undefined;
    const after = points[next];
    let values: Values | undefined;
    if (mode === 'null') values = NULLS;
    else if (mode === 'previous') values = before && valuesOf(before);
    else values = before && after && between(before, after, step.start);
    if (values === undefined) continue;
    out.push({
      t: step.start,
      ...decorate(step),
      n: null,
      sum: null,
      ...values,
      ...stats,
      final: after ? after.final : rangeFinal,
      filled: true,
    });
  }
  return out.sort((a, b) => a.t - b.t);
}

/**
 * A range's answer with its missing steps filled: the steps of its width (local ones with a zone)
 * that start before min(to, now) and hold no point. Its gaps stay as they are: they say where
 * the data is missing, filled or not.
 */
export function fillRange(result: RangeResult, mode: FillMode, nowMs: number): FilledRangeResult {
  const end = Math.min(result.toMs, nowMs);
  const withData = new Set(result.points.map((point) => point.t));
  const missing = rangeSteps(result).filter(
    (step) => !withData.has(step.start) && Math.max(step.start, result.fromMs) < end,
  );
  const rules = result.tz === undefined ? undefined : zoneRules(result.tz);
  const decorate = rules
    ? (step: LocalStep) => ({
        end: step.end,
        local: localIso(step.start, rules.offsetAt(step.start)),
      })
    : undefined;
  return {
    ...result,
    fill: mode,
    points: fillPoints(result.points, missing, mode, result.openLevels.length === 0, decorate),
  };
}
