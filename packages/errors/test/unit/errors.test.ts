import { describe, expect, it } from '@jest/globals';
import {
  ConfigError,
  DependencyAuthError,
  DependencyUnreachableError,
  ErrorCode,
  TickertapeError,
  hasCode,
  isRetriable,
  TimeoutError,
  withDeadline,
} from '../../src/index.js';

describe('TickertapeError', () => {
  it('carries code, retriable flag and cause', () => {
    const cause = new Error('socket closed');
    const err = new TickertapeError('WRITE_FAILED', 'bulk write failed', {
      retriable: true,
      cause,
    });
    expect(err.code).toBe('WRITE_FAILED');
    expect(err.retriable).toBe(true);
    expect(err.cause).toBe(cause);
    expect(err).toBeInstanceOf(Error);
  });

  it('is not retriable unless it says so', () => {
    expect(new TickertapeError('X', 'x').retriable).toBe(false);
  });
});

describe('ConfigError', () => {
  it('names every variable at fault in its message', () => {
    const err = new ConfigError([
      { variable: 'MONGODB_URI', message: 'must start with mongodb://' },
      { variable: 'KAFKA_BROKERS', message: 'required' },
    ]);
    expect(err.code).toBe(ErrorCode.ConfigInvalid);
    expect(err.retriable).toBe(false);
    expect(err.variables).toEqual(['MONGODB_URI', 'KAFKA_BROKERS']);
    expect(err.message).toContain('MONGODB_URI: must start with mongodb://');
    expect(err.message).toContain('KAFKA_BROKERS: required');
  });
});

describe('isRetriable', () => {
  it.each([
    ['a retriable TickertapeError', new TickertapeError('X', 'x', { retriable: true }), true],
    ['a fatal TickertapeError', new TickertapeError('X', 'x'), false],
    [
      'an unreachable dependency',
      new DependencyUnreachableError('REDIS_URL', 'redis://h', 'refused'),
      true,
    ],
    [
      'refused credentials, even over a retriable cause',
      new DependencyAuthError(
        'KAFKA_BROKERS',
        'k:9094',
        ['KAFKA_SASL_PASSWORD'],
        Object.assign(new Error('x'), { retriable: true }),
      ),
      false,
    ],
    ['a kafkajs-style retriable error', Object.assign(new Error('x'), { retriable: true }), true],
    [
      'a mongodb-style labelled error',
      Object.assign(new Error('x'), { errorLabels: new Set(['RetryableWriteError']) }),
      true,
    ],
    ['a plain error', new Error('x'), false],
    ['a string', 'x', false],
    [
      'a wrapped retriable cause',
      new Error('outer', { cause: Object.assign(new Error('x'), { retriable: true }) }),
      true,
    ],
  ])('%s → %s', (_label, err, expected) => {
    expect(isRetriable(err)).toBe(expected);
  });

  it('stops at a TickertapeError even if its cause is retriable', () => {
    const inner = new TickertapeError('X', 'x', { retriable: true });
    expect(isRetriable(new TickertapeError('Y', 'y', { cause: inner }))).toBe(false);
  });
});

describe('hasCode', () => {
  it('matches by code, not message', () => {
    const err = new TickertapeError('DLQ_FULL', 'anything');
    expect(hasCode(err, 'DLQ_FULL')).toBe(true);
    expect(hasCode(err, 'OTHER')).toBe(false);
    expect(hasCode(new Error('DLQ_FULL'), 'DLQ_FULL')).toBe(false);
  });
});

describe('withDeadline', () => {
  it('returns the result when work finishes in time', async () => {
    await expect(withDeadline(1000, 'fast work', Promise.resolve(7))).resolves.toBe(7);
  });

  it('rejects with a retriable TimeoutError naming what it waited for', async () => {
    const never = new Promise<never>(() => undefined);
    const err: unknown = await withDeadline(10, 'the broker', never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect(hasCode(err, ErrorCode.Timeout)).toBe(true);
    expect(isRetriable(err)).toBe(true);
    expect((err as Error).message).toContain('the broker');
  });
});
