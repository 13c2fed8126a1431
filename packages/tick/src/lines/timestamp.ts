import { BadLineError } from './input-error.js';

/** A date, or a date and time with its zone: a zoneless time would be read in local time. */
const ISO_8601 =
  /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:?\d{2}))?$/;

/** An ISO-8601 date, or date and time with a zone, as epoch ms; `undefined` for anything else. */
export function parseIsoInstant(text: string): number | undefined {
  if (!ISO_8601.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * Event time from input: whole milliseconds since the epoch (a number, or digits in text), or
 * an ISO-8601 time with a zone (`2026-11-21T08:00:00Z`). A number is always milliseconds, as in
 * the tick itself; seconds are not guessed at.
 */
export function parseTimestamp(value: unknown, where = 'ts'): number {
  if (value === undefined || value === '') throw new BadLineError(`no ${where}`);
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) {
      throw new BadLineError(`${where} ${value} is not whole milliseconds`);
    }
    return value;
  }
  if (typeof value === 'string') {
    const text = value.trim();
    if (/^-?\d{1,16}$/.test(text)) return Number(text);
    const ms = parseIsoInstant(text);
    if (ms !== undefined) return ms;
  }
  throw new BadLineError(
    `${where} ${JSON.stringify(value)} is neither milliseconds since the epoch nor an ISO-8601 time with a zone`,
  );
}
