import { cut } from './cut.js';
import { parseDurationMs } from './duration.js';
import { PromQLError, PromQLErrorCode } from './promql-error.js';

/** Prometheus' own cap on a range query's points per series. */
export const MAX_POINTS_PER_SERIES = 11_000;

/**
 * The instants a query may name: years 0000 to 9999. Past them JavaScript's dates are invalid
 * (`Invalid time value`, a 500 for `time=1e20` in issue 37), and no rollup lives there.
 */
export const MIN_INSTANT_MS = Date.parse('0000-01-01T00:00:00Z');
export const MAX_INSTANT_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** An instant as the Prometheus HTTP API takes it: RFC 3339 or Unix seconds (fractions, exponents). */
export function parseTime(text: string, what: string): number {
  const trimmed = text.trim();
  let ms = NaN;
  if (/^[-+]?(\d+(\.\d*)?|\.\d+)(e[-+]?\d+)?$/i.test(trimmed))
    ms = Math.round(Number(trimmed) * 1000);
  else if (/^\d{4}-\d{2}-\d{2}T/.test(trimmed)) ms = Date.parse(trimmed);
  if (Number.isFinite(ms) && ms >= MIN_INSTANT_MS && ms <= MAX_INSTANT_MS) return ms;
  throw new PromQLError(
    PromQLErrorCode.BadParameter,
    `invalid parameter ${JSON.stringify(what)}: cannot parse ${JSON.stringify(cut(text))} to a valid timestamp${
      Number.isFinite(ms) ? ' (years 0000 to 9999)' : ''
    }`,
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
