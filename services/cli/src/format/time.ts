import { QueryError, QueryErrorCode } from '@tickertape/query';
import { InvalidArgumentError } from 'commander';
import { durationMs } from '../duration.js';
import { parseIsoInstant } from '@tickertape/tick';

const RELATIVE = /^(?:now)?\s*([+-])\s*(\S+)$/;

export const TIME_HELP =
  'an ISO-8601 time with a zone (2026-11-21T08:00:00Z), a date (2026-11-21, UTC midnight), ' +
  'epoch milliseconds, now, or relative to now: -1h, -90m, -7d, now-15m';

/**
 * An instant typed by a person, as epoch ms: ISO-8601 with a zone or a UTC date, whole epoch
 * milliseconds, `now`, or `now` plus or minus a duration (`-1h`, `now-15m`, `+5m`). `nowMs` is
 * passed in so that `--from -1h --to now` read one clock, and tests can fix it.
 *
 * A time that does not parse is part of a bad range, so it is refused as a QueryError (exit 2)
 * like the ranges the reader refuses.
 */
export function parseInstant(text: string, nowMs: number, option = 'time'): number {
  const trimmed = text.trim().toLowerCase();
  if (trimmed === 'now') return nowMs;
  if (/^\d{1,16}$/.test(trimmed)) return Number(trimmed);
  const relative = RELATIVE.exec(trimmed);
  if (relative) {
    const ms = durationMs(relative[2]!);
    if (ms !== undefined) return relative[1] === '-' ? nowMs - ms : nowMs + ms;
  }
  const iso = parseIsoInstant(text.trim());
  if (iso !== undefined) return iso;
  throw new QueryError(
    QueryErrorCode.InvalidRange,
    `${option} ${JSON.stringify(text)} is not a time: use ${TIME_HELP}`,
  );
}

/**
 * `--last 10m`: a window length in whole minutes (the finest unit a window sums exactly).
 * A commander argument parser: a malformed length is a usage error, like any other option.
 */
export function parseLastMinutes(text: string): number {
  const ms = durationMs(text);
  if (ms === undefined || ms <= 0 || ms % 60_000 !== 0)
    throw new InvalidArgumentError('must be whole minutes with a unit, such as 10m, 2h or 1d');
  return ms / 60_000;
}

/** `2026-11-21T08:05:00Z`: ISO-8601 UTC, milliseconds only when there are some. */
export { isoTime } from '@tickertape/history';

const SPANS: readonly [number, string][] = [
  [86_400_000, 'd'],
  [3_600_000, 'h'],
  [60_000, 'm'],
  [1000, 's'],
];

/** `10s`, `5m`, `1h30m`, `250ms`: a width or a gap, for people. */
export function formatSpan(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  let rest = ms;
  let text = '';
  for (const [unit, suffix] of SPANS) {
    const count = Math.floor(rest / unit);
    if (count > 0) text += `${count}${suffix}`;
    rest -= count * unit;
  }
  return rest > 0 ? `${text}${rest}ms` : text;
}
