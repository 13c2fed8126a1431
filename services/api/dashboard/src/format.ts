// How the page writes times, durations and numbers. Every time on the page is UTC.

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** A chart step: "1 s", "5 min", "1 h", "1 d", or milliseconds when it is none of those. */
export function formatStep(ms: number): string {
  if (ms % DAY === 0) return `${ms / DAY} d`;
  if (ms % HOUR === 0) return `${ms / HOUR} h`;
  if (ms % MINUTE === 0) return `${ms / MINUTE} min`;
  if (ms % SECOND === 0) return `${ms / SECOND} s`;
  return `${ms} ms`;
}

/** A duration for people: "850 ms", "42 s", "5 min 3 s", "2 h 10 min", "3 d 4 h". */
export function formatDuration(ms: number): string {
  const abs = Math.abs(ms);
  const sign = ms < 0 ? '−' : '';
  if (abs < SECOND) return `${sign}${Math.round(abs)} ms`;
  if (abs < MINUTE) return `${sign}${Math.round(abs / SECOND)} s`;
  const two = (big: number, small: number, a: string, b: string) => {
    const whole = Math.floor(abs / big);
    const rest = Math.floor((abs % big) / small);
    return `${sign}${whole} ${a}${rest > 0 ? ` ${rest} ${b}` : ''}`;
  };
  if (abs < HOUR) return two(MINUTE, SECOND, 'min', 's');
  if (abs < DAY) return two(HOUR, MINUTE, 'h', 'min');
  return two(DAY, HOUR, 'd', 'h');
}

/** "2026-11-21 12:10:05": an instant in UTC, as every time on the page. */
export function formatTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** "2026-11-21 12:10:05.250": a raw tick's time, to the millisecond. */
export function formatRawTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 23).replace('T', ' ');
}

/** Fewer decimals the larger the value: 4 below 1, none from 1000. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  const digits = abs >= 1000 ? 0 : abs >= 100 ? 1 : abs >= 1 ? 2 : 4;
  return value.toLocaleString('en-US', { maximumFractionDigits: digits });
}

/** Records the level's consumer group has not committed; null when the API cannot tell now. */
export function formatLag(lag: number | null): string {
  if (lag === null) return 'unknown';
  return `${lag.toLocaleString('en-US')} record${lag === 1 ? '' : 's'}`;
}

/** "3 documents", "1 document". */
export function formatExamined(examined: number): string {
  return `${examined} document${examined === 1 ? '' : 's'}`;
}

/** "YYYY-MM-DDTHH:MM:SS" for a datetime-local input, in UTC. */
export function toInputValue(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

/** A datetime-local value read as UTC (seconds optional); NaN when empty or invalid. */
export function fromInputValue(value: string): number {
  if (!value) return NaN;
  return Date.parse(value.length === 16 ? `${value}:00Z` : `${value}Z`);
}
