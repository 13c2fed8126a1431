import { InvalidArgumentError } from 'commander';
import type { GroupStart } from '@tickertape/clients';
import { isBadQuery, parseTagArgument } from '@tickertape/query';
import { durationMs } from './duration.js';
import { parseInstant, TIME_HELP } from './format/time.js';

/** commander argument parsers: they throw InvalidArgumentError, which commander reports. */

export function positiveInt(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) {
    throw new InvalidArgumentError('must be a positive integer');
  }
  return value;
}

export function nonNegativeInt(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) {
    throw new InvalidArgumentError('must be zero or a positive integer');
  }
  return value;
}

export function positiveNumber(text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new InvalidArgumentError('must be above 0');
  return value;
}

export function nonNegativeNumber(text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < 0)
    throw new InvalidArgumentError('must be zero or a positive number');
  return value;
}

/** `0` (none), or a duration such as `500ms`, `2s`, `1m`; a bare number is seconds. */
export function intervalArgument(text: string): number {
  if (text.trim() === '0') return 0;
  const ms = durationMs(text, 's');
  if (ms === undefined || ms < 0)
    throw new InvalidArgumentError('must be 0 or a duration such as 500ms, 2s or 1m');
  return ms;
}

export function integer(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new InvalidArgumentError('must be an integer');
  return value;
}

export function offset(text: string): bigint {
  if (!/^\d+$/.test(text)) throw new InvalidArgumentError('must be an offset (0 or more)');
  return BigInt(text);
}

/**
 * `--tag key=value` (or `key:value`, as the API's `tag=` reads it too), repeatable: each use adds
 * one tag. A malformed one, or the same key twice with different values, is a usage error.
 */
export function tagArgument(
  text: string,
  previous: Readonly<Record<string, string>> = {},
): Record<string, string> {
  try {
    return parseTagArgument(text, previous, '--tag');
  } catch (err) {
    if (isBadQuery(err)) throw new InvalidArgumentError(err.message);
    throw err;
  }
}

/** `--from earliest|latest|<time>` of `replay`: where a consumer group starts reading. */
export function groupStartArgument(text: string): GroupStart {
  const trimmed = text.trim();
  if (trimmed === 'earliest' || trimmed === 'latest') return trimmed;
  try {
    return parseInstant(trimmed, Date.now(), '--from');
  } catch {
    throw new InvalidArgumentError(`must be earliest, latest, or a time: ${TIME_HELP}`);
  }
}
