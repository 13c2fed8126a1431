/**
 * Instants and durations as the API accepts them in query strings. Pure functions returning
 * `undefined` for anything they do not accept, so the schemas can report the parameter by name.
 */

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * Epoch milliseconds (digits) or ISO-8601 (`2026-11-21`, `2026-11-21T10:00Z`,
 * `2026-11-21T10:00:00.250+01:00`). A time without an offset is UTC: `Date.parse` would read it
 * in the server's zone, and a query's answer must not depend on where the API runs. Calendar
 * dates are checked (Date.parse turns 2026-02-30 into 2 March); digits past milliseconds are
 * truncated.
 */
export function parseInstant(text: string): number | undefined {
  const ms = parsedInstant(text);
  return ms !== undefined && ms <= MAX_INSTANT_MS ? ms : undefined;
}

/**
 * The last instant the API reads: the end of year 9999, the last ISO-8601 can write. Past it
 * JavaScript's dates are invalid (±8.64e15 ms), and `to=9999999999999999` was a 500 in the reader
 * (`Invalid time value`, issue 37); a 400 here keeps every later step within range.
 */
export const MAX_INSTANT_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

function parsedInstant(text: string): number | undefined {
  if (/^\d{1,16}$/.test(text)) return Number(text);
  const match = ISO.exec(text);
  if (!match) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', offset = 'Z'] = match;
  const parts = [y, mo, d, h, mi, s].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const [year, month, day, hour, minute, second] = parts;
  const ms = Number(frac.slice(0, 3).padEnd(3, '0'));
  const local = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  const back = new Date(local);
  if (
    back.getUTCFullYear() !== year ||
    back.getUTCMonth() !== month - 1 ||
    back.getUTCDate() !== day ||
    back.getUTCHours() !== hour ||
    back.getUTCMinutes() !== minute ||
    back.getUTCSeconds() !== second
  )
    return undefined;
  const shift = offsetMs(offset);
  return shift === undefined ? undefined : local - shift;
}

function offsetMs(offset: string): number | undefined {
  if (offset === 'Z') return 0;
  const digits = offset.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2));
  if (hours > 23 || minutes > 59) return undefined;
  return (offset.startsWith('-') ? -1 : 1) * (hours * 60 + minutes) * 60_000;
}

const UNIT_MINUTES = { m: 1, h: 60, d: 1440 } as const;

/**
 * `10m`, `6h`, `7d` → whole minutes, for `last=` (windows are summed in whole minutes). At most
 * ten years: anything longer is a typo, and the reader's budget would refuse it anyway.
 */
export function parseLastMinutes(text: string): number | undefined {
  const match = /^(\d{1,7})([mhd])$/.exec(text);
  if (!match) return undefined;
  const minutes = Number(match[1]) * UNIT_MINUTES[match[2] as keyof typeof UNIT_MINUTES];
  return minutes > 0 && minutes <= 10 * 366 * 1440 ? minutes : undefined;
}
