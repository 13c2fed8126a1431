import { isBadQuery, parseLastArgument, parseTimeArgument, TIME_FORMS } from '@tickertape/query';
import { InvalidArgumentError } from 'commander';

/** What `--from`/`--to` accept: the API's forms (docs/querying.md, "Times and tags"). */
export const TIME_HELP = TIME_FORMS;

/**
 * An instant typed by a person, as epoch ms, read as the API reads `from`/`to`. `nowMs` is
 * passed in so that `--from -1h --to now` read one clock, and tests can fix it; `tz` is the zone
 * a time without an offset is read in (else UTC). A time that does not parse is refused as a
 * QueryError (exit 2) naming the flag, like the ranges the reader refuses.
 */
export function parseInstant(text: string, nowMs: number, option = 'time', tz?: string): number {
  return parseTimeArgument(text.trim(), { nowMs, name: option, tz });
}

/**
 * `--last 10m`: a window length in whole minutes, as the API reads `last=`. A commander argument
 * parser: a malformed length is a usage error (exit 2), like any other option.
 */
export function parseLastMinutes(text: string): number {
  try {
    return parseLastArgument(text.trim());
  } catch (err) {
    if (isBadQuery(err)) throw new InvalidArgumentError(err.message);
    throw err;
  }
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
