import { describe, expect, test } from '@jest/globals';
import { KEEP_EVERYTHING, LEVELS, LevelPolicy } from '../../src/index.js';

describe('LevelPolicy', () => {
  const policy = new LevelPolicy({ minute: ['mms.cpu', 'traffic'], day: ['debug'] });

  test.each([
    ['minute', 'mms.cpu', true],
    ['minute', 'traffic', true],
    ['hour', 'traffic', false],
    ['day', 'debug', true],
    ['minute', 'stock.tick', false],
  ] as const)('%s skips %s: %s', (level, metric, expected) => {
    expect(policy.skips(level, metric)).toBe(expected);
  });

  test('levelsFor keeps the running levels that keep the metric, finest first', () => {
    expect(policy.levelsFor(LEVELS, 'traffic')).toEqual(['hour', 'day']);
    expect(policy.levelsFor(['minute', 'day'], 'debug')).toEqual(['minute']);
    expect(policy.levelsFor(LEVELS, 'stock.tick')).toEqual(['minute', 'hour', 'day']);
  });

  test('with adds and removes, leaving the original as it was', () => {
    const next = policy.with('minute', ['stock.tick'], true).with('minute', ['traffic'], false);
    expect(next.skippedAt('minute')).toEqual(['mms.cpu', 'stock.tick']);
    expect(policy.skippedAt('minute')).toEqual(['mms.cpu', 'traffic']);
    expect(next.with('minute', ['mms.cpu', 'stock.tick'], false).skippedAt('minute')).toEqual([]);
  });

  test('refuses a metric skipped at every level: nothing of it would be stored', () => {
    expect(() => new LevelPolicy({ minute: ['x'], hour: ['x'], day: ['x'] })).toThrow(
      'metric x skips every level',
    );
    expect(() => policy.with('hour', ['traffic'], true).with('day', ['traffic'], true)).toThrow(
      /traffic skips every level/,
    );
  });

  test('the empty policy keeps everything', () => {
    expect(KEEP_EVERYTHING.isEmpty).toBe(true);
    expect(LEVELS.some((level) => KEEP_EVERYTHING.skips(level, 'anything'))).toBe(false);
    expect(policy.isEmpty).toBe(false);
  });
});
