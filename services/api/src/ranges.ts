import { lastMinutes, parseTimeArgument, TIME_DEFAULTS } from '@tickertape/query';

export interface Range {
  fromMs: number;
  toMs: number;
}

/** A default of TIME_DEFAULTS (`-1h`, `now`) at `nowMs`: the CLI's defaults, read alike. */
const defaultAt = (text: string, nowMs: number) => parseTimeArgument(text, { nowMs });

/** `from` and `to` of a range read, each defaulted as the CLI defaults `--from` and `--to`. */
export function readRange(from: number | undefined, to: number | undefined, nowMs: number): Range {
  return {
    fromMs: from ?? defaultAt(TIME_DEFAULTS.from, nowMs),
    toMs: to ?? defaultAt(TIME_DEFAULTS.to, nowMs),
  };
}

/** Series discovery: `from` defaults to a week back (`-7d`), so quiet series are found too. */
export function seriesRange(
  from: number | undefined,
  to: number | undefined,
  nowMs: number,
): Range {
  return {
    fromMs: from ?? defaultAt(TIME_DEFAULTS.seriesFrom, nowMs),
    toMs: to ?? defaultAt(TIME_DEFAULTS.to, nowMs),
  };
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
