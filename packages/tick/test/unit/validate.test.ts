import { describe, expect, it } from '@jest/globals';
import {
  DEFAULT_TICK_LIMITS,
  isSafeName,
  isTickRejected,
  MAX_TICK_TS,
  MIN_TICK_TS,
  nameProblem,
  readFrameHeader,
  RegistryRequestError,
  resolveLimits,
  TICK_REJECTION_REASONS,
  TickErrorCode,
  TickRejectedError,
  validateTick,
  type TickRejectionReason,
} from '../../src/index.js';
import { schemaLookupFailure } from '../../src/registry-error.js';

const good = {
  metric: 'traffic.speed',
  tags: { segment: 'A1-north' },
  ts: Date.UTC(2026, 10, 21, 15, 30, 5),
  fields: { speed: 87.5, travelTime: 42 },
  strings: { weather: 'rain' },
};

const many = (n: number, value: (i: number) => string | number) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, value(i)]));

function rejection(work: () => unknown): TickRejectedError {
  try {
    work();
  } catch (err) {
    if (err instanceof TickRejectedError) return err;
    throw err;
  }
  throw new Error('expected a TickRejectedError, nothing was thrown');
}

describe('validateTick', () => {
  it('returns a plain Tick, strings defaulting to {} and source to null', () => {
    const { strings: _strings, ...v1WithoutStrings } = good;
    expect(validateTick(v1WithoutStrings)).toEqual({
      ...v1WithoutStrings,
      strings: {},
      source: null,
    });
    expect(validateTick({ ...good, source: 'loadgen-1' })).toEqual({
      ...good,
      source: 'loadgen-1',
    });
  });

  it.each([
    ['ts at the Unix epoch', { ts: MIN_TICK_TS }],
    ['ts at 2100-01-01T00:00Z', { ts: MAX_TICK_TS }],
    [
      'exactly the field limit, string fields included',
      { fields: many(60, (i) => i), strings: many(4, String) },
    ],
    ['exactly the tag limit', { tags: many(32, String) }],
    ['negative and zero values', { fields: { delta: -3.5, zero: 0, tiny: Number.MIN_VALUE } }],
    ['the largest finite double', { fields: { big: Number.MAX_VALUE } }],
    ['a metric with inner spaces', { metric: ' cpu load ' }],
  ])('accepts %s', (_label, patch) => {
    const tick = { ...good, ...patch };
    expect(validateTick(tick)).toEqual({ ...tick, source: null });
  });

  it.each<[string, TickRejectionReason, Record<string, unknown>]>([
    ['an empty metric', 'MISSING_METRIC', { metric: '' }],
    ['a whitespace metric', 'MISSING_METRIC', { metric: ' \t\n\u00a0' }],
    ['no metric at all', 'MISSING_METRIC', { metric: undefined }],
    ['a NaN field', 'INVALID_VALUE', { fields: { speed: Number.NaN } }],
    ['an Infinity field', 'INVALID_VALUE', { fields: { ok: 1, speed: Number.POSITIVE_INFINITY } }],
    ['a -Infinity field', 'INVALID_VALUE', { fields: { speed: Number.NEGATIVE_INFINITY } }],
    ['65 numeric fields', 'TOO_MANY_FIELDS', { fields: many(65, (i) => i), strings: {} }],
    [
      '61 numeric + 4 string fields',
      'TOO_MANY_FIELDS',
      { fields: many(61, (i) => i), strings: many(4, String) },
    ],
    ['33 tags', 'TOO_MANY_TAGS', { tags: many(33, String) }],
    ['ts before 1970', 'TIMESTAMP_OUT_OF_RANGE', { ts: MIN_TICK_TS - 1 }],
    ['ts after 2100-01-01', 'TIMESTAMP_OUT_OF_RANGE', { ts: MAX_TICK_TS + 1 }],
    ['ts in seconds times 1000 twice', 'TIMESTAMP_OUT_OF_RANGE', { ts: good.ts * 1000 }],
    ['a fractional ts', 'TIMESTAMP_OUT_OF_RANGE', { ts: good.ts + 0.5 }],
    ['a NaN ts', 'TIMESTAMP_OUT_OF_RANGE', { ts: Number.NaN }],
    ['no numeric field', 'NO_FIELDS', { fields: {} }],
    ['only string fields', 'NO_FIELDS', { fields: {}, strings: { weather: 'sun' } }],
    ['a dotted field name', 'INVALID_NAME', { fields: { 'speed.avg': 1 } }],
    ['a $-prefixed field name', 'INVALID_NAME', { fields: { $inc: 1 } }],
    ['an empty field name', 'INVALID_NAME', { fields: { '': 1 } }],
    ['a 65-character field name', 'INVALID_NAME', { fields: { ['x'.repeat(65)]: 1 } }],
    ['a dotted string-field name', 'INVALID_NAME', { strings: { 'a.b': 'x' } }],
    ['a dotted tag key', 'INVALID_NAME', { tags: { 'host.name': 'a' } }],
    ['a string where a field value goes', 'DECODE_ERROR', { fields: { speed: '87' } }],
    ['a number tag value', 'DECODE_ERROR', { tags: { lane: 2 } }],
    ['tags as an array', 'DECODE_ERROR', { tags: ['a'] }],
    ['a numeric metric', 'DECODE_ERROR', { metric: 7 }],
    ['a string ts', 'DECODE_ERROR', { ts: '2026-11-21' }],
    ['a numeric source', 'DECODE_ERROR', { source: 3 }],
  ])('rejects %s as %s', (_label, reason, patch) => {
    const err = rejection(() => validateTick({ ...good, ...patch }));
    expect(err.reason).toBe(reason);
    expect(err.code).toBe(TickErrorCode.Rejected);
    expect(err.retriable).toBe(false);
    expect(err.message.startsWith(`${reason}: `)).toBe(true);
  });

  it.each([null, 'tick', 42, [good]])('rejects %p as DECODE_ERROR', (raw) => {
    expect(rejection(() => validateTick(raw)).reason).toBe('DECODE_ERROR');
  });

  it('reports the first failing check when several fail', () => {
    const everything = { metric: '', ts: -1, tags: many(40, String), fields: {} };
    expect(rejection(() => validateTick(everything)).reason).toBe('MISSING_METRIC');
    expect(rejection(() => validateTick({ ...everything, metric: 'm' })).reason).toBe(
      'TIMESTAMP_OUT_OF_RANGE',
    );
    expect(rejection(() => validateTick({ ...everything, metric: 'm', ts: 0 })).reason).toBe(
      'TOO_MANY_TAGS',
    );
  });

  it('applies the limits it is given', () => {
    const limits = resolveLimits({ maxFields: 2, maxTags: 0 });
    expect(limits).toEqual({ ...DEFAULT_TICK_LIMITS, maxFields: 2, maxTags: 0 });
    expect(rejection(() => validateTick(good, limits)).reason).toBe('TOO_MANY_TAGS');
    expect(rejection(() => validateTick({ ...good, tags: {} }, limits)).reason).toBe(
      'TOO_MANY_FIELDS',
    );
    expect(validateTick({ ...good, tags: {}, strings: {} }, limits).fields).toEqual(good.fields);
  });
});

describe('names', () => {
  // Maps built with own properties, as JSON.parse makes them: `{ __proto__: 1 }` written as a
  // literal would set the prototype instead.
  const fieldNamed = (name: string) => Object.fromEntries([[name, 1]]) as Record<string, number>;

  it.each<[string, 'tags' | 'fields' | 'strings', string, string]>([
    ['__proto__, which a plain object cannot hold', 'fields', '__proto__', 'is a reserved name'],
    ['__proto__ as a tag', 'tags', '__proto__', 'is a reserved name'],
    ['a dot', 'fields', 'speed.avg', 'contains "."'],
    ['a leading $', 'strings', '$set', 'starts with "$"'],
    ['nothing', 'fields', '', 'is empty'],
    ['65 characters', 'tags', 'x'.repeat(65), 'is longer than 64 characters'],
    ['a NUL', 'fields', 'a\u0000b', 'contains a NUL character'],
  ])('refuses a name with %s, saying so', (_label, where, name, problem) => {
    const named = Object.fromEntries([[name, where === 'fields' ? 1 : 'v']]);
    const err = rejection(() => validateTick({ ...good, [where]: named }));
    expect(err.reason).toBe('INVALID_NAME');
    expect(err.message).toBe(`INVALID_NAME: ${where} name ${JSON.stringify(name)} ${problem}`);
    expect(isSafeName(name)).toBe(false);
  });

  it.each([
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    '__proto',
    'a$',
    'x'.repeat(64),
    'température',
  ])('accepts %p', (name) => {
    expect(nameProblem(name)).toBeUndefined();
    expect(validateTick({ ...good, fields: fieldNamed(name) }).fields).toEqual(fieldNamed(name));
  });
});

describe('readFrameHeader', () => {
  const header = (id: number) => {
    const buffer = Buffer.alloc(5);
    buffer.writeInt32BE(id, 1);
    return buffer;
  };

  it('returns the schema id of a Confluent-framed message', () => {
    const message = Buffer.concat([header(17), Buffer.from([2, 0x61])]);
    expect(readFrameHeader(message, DEFAULT_TICK_LIMITS)).toBe(17);
  });

  it('accepts exactly the size limit', () => {
    const message = Buffer.concat([
      header(3),
      Buffer.alloc(DEFAULT_TICK_LIMITS.maxMessageBytes - 5),
    ]);
    expect(readFrameHeader(message, DEFAULT_TICK_LIMITS)).toBe(3);
  });

  it.each<[string, TickRejectionReason, Buffer]>([
    ['one byte over 64 KiB', 'OVERSIZED', Buffer.concat([header(3), Buffer.alloc(64 * 1024 - 4)])],
    // Size is checked first: an oversized message is not looked at further.
    ['oversized and a bad magic byte', 'OVERSIZED', Buffer.alloc(64 * 1024 + 1, 0xff)],
    ['an empty message', 'BAD_MAGIC_BYTE', Buffer.alloc(0)],
    ['magic byte 1', 'BAD_MAGIC_BYTE', Buffer.from([1, 0, 0, 0, 7, 2, 0x61])],
    ['JSON text', 'BAD_MAGIC_BYTE', Buffer.from('{"metric":"cpu"}')],
    ['a header cut short', 'DECODE_ERROR', Buffer.from([0, 0, 0])],
    ['schema id 0', 'UNKNOWN_SCHEMA', header(0)],
    ['a negative schema id', 'UNKNOWN_SCHEMA', header(-5)],
  ])('rejects %s as %s', (_label, reason, message) => {
    expect(rejection(() => readFrameHeader(message, DEFAULT_TICK_LIMITS)).reason).toBe(reason);
  });
});

describe('schemaLookupFailure', () => {
  const withStatus = (status: number) =>
    Object.assign(new Error(`status ${status}`), { name: 'ResponseError', status });

  it('makes a 404 an UNKNOWN_SCHEMA rejection', () => {
    const cause = withStatus(404);
    const err = schemaLookupFailure(999_999, cause);
    expect(isTickRejected(err, 'UNKNOWN_SCHEMA')).toBe(true);
    expect(err.cause).toBe(cause);
  });

  it('makes a schema the client cannot parse an UNKNOWN_SCHEMA rejection', () => {
    const cause = Object.assign(new Error('unknown type: Foo'), {
      name: 'ConfluentSchemaRegistryArgumentError',
    });
    expect(isTickRejected(schemaLookupFailure(4, cause), 'UNKNOWN_SCHEMA')).toBe(true);
  });

  it.each([
    ['a refused connection (the client reports 400)', withStatus(400), true],
    ['a timeout', withStatus(408), true],
    ['a server error', withStatus(503), true],
    ['bad credentials', withStatus(401), false],
    ['an unexpected error', new TypeError('x is undefined'), true],
  ])('makes %s a RegistryRequestError, not a rejection', (_label, cause, retriable) => {
    const err = schemaLookupFailure(4, cause);
    expect(err).toBeInstanceOf(RegistryRequestError);
    expect(isTickRejected(err)).toBe(false);
    expect(err.code).toBe(TickErrorCode.RegistryRequestFailed);
    expect(err.retriable).toBe(retriable);
  });
});

describe('the reason list', () => {
  it('is the closed set of DLQ reason codes', () => {
    expect([...TICK_REJECTION_REASONS].sort()).toEqual(
      [
        'BAD_MAGIC_BYTE',
        'DECODE_ERROR',
        'INVALID_NAME',
        'INVALID_VALUE',
        'MISSING_METRIC',
        'NO_FIELDS',
        'OVERSIZED',
        'TIMESTAMP_OUT_OF_RANGE',
        'TOO_MANY_FIELDS',
        'TOO_MANY_TAGS',
        'UNKNOWN_SCHEMA',
      ].sort(),
    );
  });

  it('isTickRejected matches rejections, and one reason when asked', () => {
    const err = new TickRejectedError('NO_FIELDS', 'no numeric field');
    expect(isTickRejected(err)).toBe(true);
    expect(isTickRejected(err, 'NO_FIELDS')).toBe(true);
    expect(isTickRejected(err, 'OVERSIZED')).toBe(false);
    expect(isTickRejected(new Error('NO_FIELDS'))).toBe(false);
    expect(isTickRejected(undefined)).toBe(false);
  });
});
