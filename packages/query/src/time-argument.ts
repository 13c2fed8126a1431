import { cut } from '@tickertape/errors';
import { QueryError, QueryErrorCode } from './query-error.js';
import { checkTimeZone, wallToInstant, zoneRules } from './time-zone.js';

/*
 * The one reading of a time a person types, for every read of the CLI and of our API routes
 * (docs/querying.md, "Times and tags"). Two parsers used to disagree: `-1h` worked in the CLI and
 * was a 400 on the API, a time without an offset was refused by one and UTC in the other (issue
 * 38). The Prometheus-compatible routes keep Prometheus' own syntax and do not come here.
 */

/** The accepted forms, as every refusal states them. */
export const TIME_FORMS =
  'RFC 3339 with an offset (2026-11-21T08:00:00Z, 2026-11-21T09:00+01:00); a date or time ' +
  'without one (2026-11-21, 2026-11-21T08:00), read in tz when given, else UTC; epoch ' +
  'milliseconds (1795255200000); now; or relative to now: -15m, now-1h30m, now+5m ' +
  '(units ms, s, m, h, d, w)';

const HOUR_MS = 3_600_000;

/**
 * Where unset times fall, one table for the CLI's flags and the API's parameters: `to` is now,
 * `from` a span before `to` (`-1h` when `to` is now), so `to` alone still names a range.
 */
export const TIME_DEFAULTS = {
  to: 'now',
  /** `from` of every range read (points, candles, raw, window): an hour before `to`. */
  spanMs: HOUR_MS,
  /** `from` of series discovery: a week before `to`, so a first look finds quiet series. */
  seriesSpanMs: 7 * 24 * HOUR_MS,
} as const;

/** A range's unset ends as TIME_DEFAULTS sets them: `to` now, `from` `spanMs` before `to`. */
export function defaultRange(
  fromMs: number | undefined,
  toMs: number | undefined,
  nowMs: number,
  spanMs: number = TIME_DEFAULTS.spanMs,
): { fromMs: number; toMs: number } {
  const to = toMs ?? nowMs;
  return { fromMs: fromMs ?? to - spanMs, toMs: to };
}

/**
 * The first and last instants read: years 0000 to 9999, what RFC 3339 can write. Past them
 * JavaScript's dates are invalid (±8.64e15 ms), and `to=9999999999999999` was a 500 in the
 * reader (issue 37): a refusal here keeps every later step within range.
 */
export const MIN_INSTANT_MS = -62_167_219_200_000;
export const MAX_INSTANT_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

export interface TimeArgumentOptions {
  /** The clock relative times are read from: one reading serves a request's `from` and `to`. */
  nowMs: number;
  /** IANA zone a time without an offset is read in (checked; an unknown zone is refused). */
  tz?: string | undefined;
  /** The parameter or flag, to name it in a refusal (`--to`); the API's issues name it anyway. */
  name?: string;
}

const RFC_3339 =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?([Zz]|[+-]\d{2}:?\d{2})?)?$/;
const EPOCH_MS = /^\d{1,16}$/;
// Units are lowercase only: `M` reads as months to some and minutes to others.
const SPAN = String.raw`(?:\d+(?:\.\d+)?(?:ms|s|m|h|d|w))+`;
const RELATIVE = new RegExp(String.raw`^(?:[Nn][Oo][Ww])?([+-])(${SPAN})$`);
const WHOLE_SPAN = new RegExp(`^${SPAN}$`);
const SPAN_PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/g;
const UNIT_MS: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/**
 * `text` as epoch ms, or a QueryError (`QUERY_INVALID_TIME`: the API's 400, the CLI's exit 2)
 * naming the parameter and the accepted forms. Not trimmed: the API's pattern says exactly what
 * it takes (the CLI trims its flags). A bare number is milliseconds, as in the ticks
 * themselves; unix seconds are not guessed at (ten digits of seconds and thirteen of ms both
 * look like a time).
 */
export function parseTimeArgument(text: string, options: TimeArgumentOptions): number {
  return checkedTime(readTime(text, options.nowMs, options.tz), text, options.name);
}

/**
 * `text` as epoch ms when it names a fixed instant, for a reader that holds no clock: `now` and
 * relative times are refused as parseTimeArgument refuses any text it cannot read. The API's
 * query schema reads times this way, after the routes' hook has read the relative ones on the
 * request's one clock reading, so nothing reads "now" twice for one request.
 */
export function parseAbsoluteTime(
  text: string,
  options: Omit<TimeArgumentOptions, 'nowMs'> = {},
): number {
  return checkedTime(readTime(text, undefined, options.tz), text, options.name);
}

function checkedTime(ms: number | undefined, text: string, name: string | undefined): number {
  if (ms !== undefined && ms >= MIN_INSTANT_MS && ms <= MAX_INSTANT_MS) return ms;
  const named = name === undefined ? '' : `${name}: `;
  throw new QueryError(
    QueryErrorCode.InvalidTime,
    `${named}${JSON.stringify(cut(text, 64))} is not a time; give ${TIME_FORMS}`,
  );
}

/** Whether `text` moves with the clock (`now`, `-1h`): its answer is never final. */
export function isClockRelative(text: string): boolean {
  return /^now$/i.test(text) || RELATIVE.test(text);
}

/** `text` as epoch ms; a relative time only when there is a clock to read it from. */
function readTime(
  text: string,
  nowMs: number | undefined,
  tz: string | undefined,
): number | undefined {
  if (isClockRelative(text)) {
    if (nowMs === undefined) return undefined;
    const relative = RELATIVE.exec(text);
    if (!relative) return nowMs;
    const span = spanMs(relative[2]!);
    return relative[1] === '-' ? nowMs - span : nowMs + span;
  }
  if (EPOCH_MS.test(text)) return Number(text);
  return readRfc3339(text, tz);
}

/** `1h30m`, `1.5h`, `250ms`: whole milliseconds. */
function spanMs(text: string): number {
  let ms = 0;
  for (const [, count, unit] of text.matchAll(SPAN_PART)) ms += Number(count) * UNIT_MS[unit!]!;
  return Math.round(ms);
}

/** The accepted forms of a window's length (`last=`, `--last`), as every refusal states them. */
export const LAST_FORMS = 'whole minutes with units, such as 10m, 2h, 1h30m, 7d or 1w';
const MINUTE_MS = 60_000;
/** Ten years: anything longer is a typo, and the read budget would refuse it anyway. */
const MAX_LAST_MINUTES = 10 * 366 * 1440;

/**
 * `last=10m` / `--last 10m`: the window's length in whole minutes (the finest unit a window sums
 * exactly), in the spans relative times use; a QueryError (`QUERY_INVALID_TIME`) otherwise.
 */
export function parseLastArgument(text: string, name?: string): number {
  const ms = WHOLE_SPAN.test(text) ? spanMs(text) : 0;
  if (ms > 0 && ms % MINUTE_MS === 0 && ms / MINUTE_MS <= MAX_LAST_MINUTES) return ms / MINUTE_MS;
  const named = name === undefined ? '' : `${name}: `;
  throw new QueryError(
    QueryErrorCode.InvalidTime,
    `${named}${JSON.stringify(cut(text, 64))} is not a window length; give ${LAST_FORMS}`,
  );
}

function readRfc3339(text: string, tz: string | undefined): number | undefined {
  const match = RFC_3339.exec(text);
  if (!match) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', offset] = match;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0-99 as 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  // Digits past milliseconds are truncated: the store keeps whole milliseconds.
  date.setUTCHours(hour, minute, second, Number(frac.slice(0, 3).padEnd(3, '0')));
  const wall = date.getTime();
  const calendar =
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second;
  if (!calendar) return undefined;
  if (offset !== undefined) {
    const shift = offsetMs(offset);
    return shift === undefined ? undefined : wall - shift;
  }
  return tz === undefined ? wall : wallToInstant(wall, zoneRules(checkTimeZone(tz)));
}

function offsetMs(offset: string): number | undefined {
  if (offset === 'Z' || offset === 'z') return 0;
  const digits = offset.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2));
  if (hours > 23 || minutes > 59) return undefined;
  return (offset.startsWith('-') ? -1 : 1) * (hours * 60 + minutes) * 60_000;
}
