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
