import { InvalidArgumentError } from 'commander';

const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};
const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/;

/**
 * Whole milliseconds of `500ms`, `30s`, `2m`, `1.5h`, `7d`, or `undefined` if the text is not
 * one. A bare number is read in `bareUnit`, and refused without one: in a relative time such as
 * `-5` nobody can tell seconds from minutes.
 */
export function durationMs(text: string, bareUnit?: 's' | 'm'): number | undefined {
  const match = DURATION.exec(text.trim());
  const unit = match?.[2] ?? bareUnit;
  if (!match || unit === undefined) return undefined;
  return Math.round(Number(match[1]) * UNIT_MS[unit]!);
}

/** `500ms`, `30s`, `2m`, `1.5h`, `1d`; a bare number is seconds. Whole milliseconds. */
export function parseDuration(text: string): number {
  const ms = durationMs(text, 's');
  if (ms === undefined)
    throw new InvalidArgumentError('must be a duration such as 500ms, 30s, 2m or 1h');
  if (ms <= 0) throw new InvalidArgumentError('must be longer than 0');
  return ms;
}

/** `1.2 s`, `850 ms`, `2 m 05 s`: for summaries; the history engine's refusals say it alike. */
export { formatDuration } from '@tickertape/history';
