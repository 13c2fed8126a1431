import { cut } from '@tickertape/errors';
import { DEFAULT_TICK_LIMITS, MAX_TICK_TS, MIN_TICK_TS, type TickLimits } from './limits.js';
import { TickRejectedError } from './rejection.js';
import type { Tick } from './tick.js';

type Plain = Record<string, unknown>;

const MAX_NAME_LENGTH = 64;

/**
 * Why `name` may not be a field, string-field or tag name, or undefined when it may. Names become
 * MongoDB paths (`f.<name>.sum`) and object keys: a dot would nest, a leading `$` is an
 * operator, a NUL ends a C string in the server, and `__proto__` does not survive a plain object
 * (assigning it sets the prototype; other Object.prototype names such as `constructor` are
 * ordinary own keys and pass). Length counts UTF-16 code units, as JavaScript does.
 */
export function nameProblem(name: string): string | undefined {
  if (name.length === 0) return 'is empty';
  if (name.length > MAX_NAME_LENGTH) return `is longer than ${MAX_NAME_LENGTH} characters`;
  if (name.includes('.')) return 'contains "."';
  if (name.startsWith('$')) return 'starts with "$"';
  if (name.includes('\u0000')) return 'contains a NUL character';
  if (name === '__proto__') return 'is a reserved name';
  return undefined;
}

/** Whether `name` may be a field, string-field or tag name (readers check query names the same way). */
export function isSafeName(name: string): boolean {
  return nameProblem(name) === undefined;
}

function isPlain(value: unknown): value is Plain {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The keys of a map whose values all have `kind`; anything else is a shape Avro would never
 * produce. The keys are listed once here and reused by every later check, which allocates
 * nothing more per tick.
 */
function keysOf(value: unknown, kind: 'string' | 'number', name: string): string[] {
  if (!isPlain(value)) throw new TickRejectedError('DECODE_ERROR', `${name} is not a map`);
  const keys = Object.keys(value);
  for (const key of keys) {
    if (typeof value[key] !== kind) {
      throw new TickRejectedError('DECODE_ERROR', `${name}.${key} is not a ${kind}`);
    }
  }
  return keys;
}

function checkNames(where: string, names: readonly string[]): void {
  for (const name of names) {
    const problem = nameProblem(name);
    if (problem !== undefined) {
      throw new TickRejectedError(
        'INVALID_NAME',
        `${where} name ${JSON.stringify(cut(name))} ${problem}`,
      );
    }
  }
}

/**
 * Checks a decoded (or hand-built) tick and returns it as a plain Tick, `strings` defaulting to
 * `{}` and `source` to `null`. Pure: the size and wire-header checks happen before decoding
 * (`readFrameHeader`). The first failing check decides the reason, in this order: shape
 * (DECODE_ERROR), MISSING_METRIC, TIMESTAMP_OUT_OF_RANGE, TOO_MANY_TAGS, NO_FIELDS,
 * TOO_MANY_FIELDS, INVALID_NAME, INVALID_VALUE.
 */
export function validateTick(raw: unknown, limits: TickLimits = DEFAULT_TICK_LIMITS): Tick {
  if (!isPlain(raw)) throw new TickRejectedError('DECODE_ERROR', 'not a record');
  const { metric, ts, source } = raw;
  if (metric !== undefined && metric !== null && typeof metric !== 'string') {
    throw new TickRejectedError('DECODE_ERROR', 'metric is not a string');
  }
  if (typeof ts !== 'number') throw new TickRejectedError('DECODE_ERROR', 'ts is not a number');
  if (source !== undefined && source !== null && typeof source !== 'string') {
    throw new TickRejectedError('DECODE_ERROR', 'source is not a string');
  }
  const tagNames = keysOf(raw.tags, 'string', 'tags');
  const fieldNames = keysOf(raw.fields, 'number', 'fields');
  const stringNames = raw.strings === undefined ? [] : keysOf(raw.strings, 'string', 'strings');
  const tags = raw.tags as Record<string, string>;
  const fields = raw.fields as Record<string, number>;
  const strings = raw.strings === undefined ? {} : (raw.strings as Record<string, string>);

  if (typeof metric !== 'string' || metric.trim() === '') {
    throw new TickRejectedError('MISSING_METRIC', 'metric is empty');
  }
  if (!Number.isInteger(ts) || ts < MIN_TICK_TS || ts > MAX_TICK_TS) {
    throw new TickRejectedError(
      'TIMESTAMP_OUT_OF_RANGE',
      `ts ${ts} is not an integer ms time in 1970-01-01..2100-01-01 UTC`,
    );
  }
  if (tagNames.length > limits.maxTags) {
    throw new TickRejectedError(
      'TOO_MANY_TAGS',
      `${tagNames.length} tags, at most ${limits.maxTags}`,
    );
  }
  if (fieldNames.length === 0) throw new TickRejectedError('NO_FIELDS', 'no numeric field');
  const fieldCount = fieldNames.length + stringNames.length;
  if (fieldCount > limits.maxFields) {
    throw new TickRejectedError(
      'TOO_MANY_FIELDS',
      `${fieldCount} fields, at most ${limits.maxFields}`,
    );
  }
  checkNames('tags', tagNames);
  checkNames('fields', fieldNames);
  checkNames('strings', stringNames);
  for (const name of fieldNames) {
    const value = fields[name]!;
    // NaN and ±Infinity poison sums, min and max for the whole bucket, at every level.
    if (!Number.isFinite(value)) {
      throw new TickRejectedError('INVALID_VALUE', `fields.${name} is ${value}`);
    }
  }
  return { metric, tags, ts, fields, strings, source: source ?? null };
}
