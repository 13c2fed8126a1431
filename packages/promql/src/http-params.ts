import { cut } from './cut.js';
import { parseDurationMs } from './duration.js';
import { PromQLError, PromQLErrorCode } from './promql-error.js';

/** Prometheus' own cap on a range query's points per series. */
export const MAX_POINTS_PER_SERIES = 11_000;

/** An instant as the Prometheus HTTP API takes it: RFC 3339 or Unix seconds (fractions allowed). */
export function parseTime(text: string, what: string): number {
  const trimmed = text.trim();
  if (/^[-+]?\d+(\.\d+)?$/.test(trimmed)) {
    const ms = Math.round(Number(trimmed) * 1000);
    if (Number.isSafeInteger(ms)) return ms;
  }
  if (/^\d{4}-\d{2}-\d{2}T/.test(trimmed)) {
    const ms = Date.parse(trimmed);
    if (Number.isFinite(ms)) return ms;
  }
  throw new PromQLError(
    PromQLErrorCode.BadParameter,
    `invalid parameter ${JSON.stringify(what)}: cannot parse ${JSON.stringify(cut(text))} to a valid timestamp`,
  );
}

/** The evaluation times of a range query: start, start + step, … up to end. */
export function rangeTimes(
  startMs: number,
  endMs: number,
  stepText: string,
): { times: number[]; stepMs: number } {
  if (endMs < startMs)
    throw new PromQLError(
      PromQLErrorCode.BadParameter,
      'invalid parameter "end": end timestamp must not be before start time',
    );
  const stepMs = parseDurationMs(stepText, 'step');
  if (stepMs <= 0)
    throw new PromQLError(
      PromQLErrorCode.BadParameter,
      'invalid parameter "step": zero or negative query resolution step widths are not accepted. Try a positive integer',
    );
  const count = Math.floor((endMs - startMs) / stepMs) + 1;
  if (count > MAX_POINTS_PER_SERIES)
    throw new PromQLError(
      PromQLErrorCode.BadParameter,
      'exceeded maximum resolution of 11,000 points per timeseries. Try decreasing the query resolution (?step=XX)',
    );
  return { times: Array.from({ length: count }, (_, i) => startMs + i * stepMs), stepMs };
}
