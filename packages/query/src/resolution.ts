import { LEVEL_SPECS, NATIVE_WIDTHS, type Level } from '@tickertape/buckets';
import { QueryError, QueryErrorCode } from './query-error.js';

/**
 * Where the points of a resolution come from. A bucket is read either whole (`slot`: one point
 * per bucket, its totals) or by its nested sub-slots (`sub`: 60 seconds of a minute bucket, 60
 * minutes of an hour bucket, 24 hours of a day bucket), so one document yields many points.
 */
export type Detail = 'slot' | 'sub';

export interface Source {
  level: Level;
  detail: Detail;
}

/** Width of one point a source yields. */
export function sourceStepMs(source: Source): number {
  const spec = LEVEL_SPECS[source.level];
  return source.detail === 'sub' ? spec.subSlotMs : spec.slotMs;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Points an automatic-width read (points, candles) draws at most when the caller names none: one
 * default for the CLI's `--max-points` and the API's `maxPoints`, so the same request gives the
 * same answer in both (issue 38). A chart's width in pixels, roughly: the last hour in 5-second
 * points, a day in 2-minute ones. The server's MAX_POINTS caps whatever is asked for.
 */
export const DEFAULT_MAX_POINTS = 1000;

/** Native widths and their sources, best first: derived from the table of levels. */
const NATIVE: readonly { stepMs: number; sources: readonly Source[] }[] = NATIVE_WIDTHS;

/** Chart-friendly widths, each a whole multiple of a native width and aligned to UTC days. */
export const NICE_STEPS_MS: readonly number[] = [
  SECOND,
  2 * SECOND,
  5 * SECOND,
  10 * SECOND,
  15 * SECOND,
  30 * SECOND,
  MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  7 * DAY,
  30 * DAY,
];

export interface Resolution {
  /** Width of each returned point; points start at multiples of it (UTC epoch). */
  stepMs: number;
  /** Where the points are read from before merging to `stepMs`. */
  source: Source;
}

/** Number of `stepMs`-wide points that intersect [from, to). */
export function pointCount(fromMs: number, toMs: number, stepMs: number): number {
  return Math.ceil(toMs / stepMs) - Math.floor(fromMs / stepMs);
}

/** The best available source whose width divides `stepMs`: the coarsest, so the fewest documents. */
export function sourceFor(stepMs: number, levels: readonly Level[]): Source | undefined {
  for (let i = NATIVE.length - 1; i >= 0; i--) {
    const native = NATIVE[i]!;
    if (stepMs % native.stepMs !== 0) continue;
    const source = native.sources.find((s) => levels.includes(s.level));
    if (source) return source;
  }
  return undefined;
}

/**
 * The finest chart width that draws [from, to) in at most `maxPoints` points from the levels
 * that run: a 10-minute range gets seconds, a day gets 5-minute points, a year gets days.
 */
export function chooseResolution(
  fromMs: number,
  toMs: number,
  maxPoints: number,
  levels: readonly Level[],
): Resolution {
  for (const stepMs of NICE_STEPS_MS) {
    if (pointCount(fromMs, toMs, stepMs) > maxPoints) continue;
    const source = sourceFor(stepMs, levels);
    if (source) return { stepMs, source };
  }
  throw new QueryError(
    QueryErrorCode.TooManyPoints,
    `no resolution draws ${new Date(fromMs).toISOString()} to ${new Date(toMs).toISOString()} in ${maxPoints} points or fewer; narrow the range or ask for more points`,
  );
}

/** The resolution of an explicit level read: one point per bucket, or one per sub-slot. */
export function levelResolution(level: Level, detail: Detail): Resolution {
  const source = { level, detail };
  return { stepMs: sourceStepMs(source), source };
}

/** Slots of `level` intersecting [from, to): the documents a series needs at most. */
export function slotsInRange(level: Level, fromMs: number, toMs: number): number {
  return pointCount(fromMs, toMs, LEVEL_SPECS[level].slotMs);
}
