import { PromQLError, PromQLErrorCode } from './promql-error.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The widths buckets keep exact totals for, coarsest first: a day, an hour, a minute, a second. */
export const NATIVE_WIDTHS_MS: readonly number[] = [DAY, HOUR, MINUTE, SECOND];

/**
 * The width of the points a range `[rangeMs]` is summed from: the coarsest native width that
 * divides the range and the offset (so each window is whole points) and is no wider than the
 * step (or a minute, when the step is finer), so consecutive steps still see different windows.
 * Evaluation times are rounded down to it: this is the "slot aligned" in our one deviation from
 * Prometheus, a range at `t` covers [t−d, t) in whole widths.
 */
export function chooseWidth(
  rangeMs: number,
  offsetMs: number,
  stepMs: number | undefined,
  available: readonly number[],
): number {
  const widest = Math.max(stepMs ?? Infinity, MINUTE);
  const width = NATIVE_WIDTHS_MS.find(
    (w) => available.includes(w) && w <= widest && rangeMs % w === 0 && offsetMs % w === 0,
  );
  if (width === undefined)
    throw new PromQLError(
      PromQLErrorCode.BadParameter,
      `ranges and offsets must be whole seconds that the running levels can sum (got ${rangeMs} ms, offset ${offsetMs} ms)`,
    );
  return width;
}

/** `t` rounded down to a multiple of `widthMs` (floor, also for times before 1970). */
export function alignDown(t: number, widthMs: number): number {
  return Math.floor(t / widthMs) * widthMs;
}
