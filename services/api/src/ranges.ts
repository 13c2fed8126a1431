import { lastMinutes } from '@tickertape/query';

export const DAY_MS = 86_400_000;
/** Series discovery without a range looks at the last week: recent enough to be cheap. */
export const SERIES_DEFAULT_SPAN_MS = 7 * DAY_MS;

export interface Range {
  fromMs: number;
  toMs: number;
}

/** `to` defaults to now and `from` to a week before it. */
export function seriesRange(
  from: number | undefined,
  to: number | undefined,
  nowMs: number,
): Range {
  const toMs = to ?? nowMs;
  return { fromMs: from ?? toMs - SERIES_DEFAULT_SPAN_MS, toMs };
}

/**
 * `last` (whole minutes up to and including the current one) or from/to with `to` defaulting to
 * now. The schema makes sure exactly one form is given; with neither, the empty range [now, now)
 * lets the reader refuse it like any other bad range.
 */
export function windowRange(
  query: { from?: number; to?: number; last?: number },
  nowMs: number,
): Range {
  if (query.last !== undefined) return lastMinutes(nowMs, query.last);
  const toMs = query.to ?? nowMs;
  return { fromMs: query.from ?? toMs, toMs };
}
