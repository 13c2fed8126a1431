import { InvalidArgumentError } from 'commander';

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
 * `--tag key=value`, repeatable: each use adds one tag (split at the first `=`, so values may
 * hold one). The same key twice with different values would match nothing: refused.
 */
export function tagArgument(
  text: string,
  previous: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const at = text.indexOf('=');
  if (at <= 0) throw new InvalidArgumentError('must be key=value');
  const key = text.slice(0, at);
  const value = text.slice(at + 1);
  const earlier = previous[key];
  if (earlier !== undefined && earlier !== value)
    throw new InvalidArgumentError(`${key} is already ${JSON.stringify(earlier)}`);
  return { ...previous, [key]: value };
}
