import { defaultRange, lastMinutes, TIME_DEFAULTS } from '@tickertape/query';

export interface Range {
  fromMs: number;
  toMs: number;
}

/** `from` and `to` of a range read, defaulted as the CLI's: to now, from an hour before to. */
export function readRange(from: number | undefined, to: number | undefined, nowMs: number): Range {
  return defaultRange(from, to, nowMs);
}

/** Series discovery: `from` defaults to a week before `to`, so quiet series are found too. */
export function seriesRange(
  from: number | undefined,
  to: number | undefined,
  nowMs: number,
): Range {
  return defaultRange(from, to, nowMs, TIME_DEFAULTS.seriesSpanMs);
}

/**
 * `last` (whole minutes up to and including the current one) or from/to, defaulted as every
 * range read's. The schema makes sure `last` comes without from/to.
 */
export function windowRange(
  query: { from?: number; to?: number; last?: number },
  nowMs: number,
): Range {
  if (query.last !== undefined) return lastMinutes(nowMs, query.last);
  return readRange(query.from, query.to, nowMs);
}
