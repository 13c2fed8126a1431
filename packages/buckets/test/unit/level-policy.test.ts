import { describe, expect, test } from '@jest/globals';
import {
  KEEP_EVERYTHING,
  LEVELS,
  LevelPolicy,
  LevelPolicyError,
  suggestedModes,
} from '../../src/index.js';

describe('LevelPolicy', () => {
  const policy = new LevelPolicy({
    minute: { skip: ['mms.cpu', 'traffic'] },
    hour: { compact: ['mms.cpu'] },
    day: { skip: ['debug'] },
  });

  test.each([
    ['minute', 'mms.cpu', 'skip'],
    ['minute', 'traffic', 'skip'],
    ['hour', 'mms.cpu', 'compact'],
    ['hour', 'traffic', 'full'],
    ['day', 'debug', 'skip'],
    ['minute', 'stock.tick', 'full'],
  ] as const)('%s stores %s: %s', (level, metric, mode) => {
    expect(policy.mode(level, metric)).toBe(mode);
    expect(policy.skips(level, metric)).toBe(mode === 'skip');
    expect(policy.compacts(level, metric)).toBe(mode === 'compact');
  });

  test('levelsFor keeps the running levels that keep the metric, finest first', () => {
    expect(policy.levelsFor(LEVELS, 'traffic')).toEqual(['hour', 'day']);
    expect(policy.levelsFor(LEVELS, 'mms.cpu')).toEqual(['hour', 'day']);
    expect(policy.levelsFor(['minute', 'day'], 'debug')).toEqual(['minute']);
    expect(policy.levelsFor(LEVELS, 'stock.tick')).toEqual(['minute', 'hour', 'day']);
  });

  test('with changes one level, leaving the original as it was', () => {
    const next = policy
      .with('minute', ['stock.tick'], 'skip')
      .with('minute', ['traffic'], 'full')
      .with('hour', ['mms.cpu'], 'skip');
    expect(next.metricsAt('minute', 'skip')).toEqual(['mms.cpu', 'stock.tick']);
    expect(next.metricsAt('hour', 'skip')).toEqual(['mms.cpu']);
    expect(next.metricsAt('hour', 'compact')).toEqual([]);
    expect(policy.metricsAt('minute', 'skip')).toEqual(['mms.cpu', 'traffic']);
    expect(policy.metricsAt('hour', 'compact')).toEqual(['mms.cpu']);
    expect(new LevelPolicy(next.spec()).spec()).toEqual(next.spec());
  });

  test('refuses a metric skipped at every level, and a compact form a level lacks', () => {
    expect(
      () =>
        new LevelPolicy({ minute: { skip: ['x'] }, hour: { skip: ['x'] }, day: { skip: ['x'] } }),
    ).toThrow('metric x skips every level');
    expect(() => policy.with('hour', ['traffic'], 'skip').with('day', ['traffic'], 'skip')).toThrow(
      /traffic skips every level/,
    );
    expect(() => policy.with('minute', ['x'], 'compact')).toThrow(
      'the minute level has no compact form (only hour)',
    );
    expect(() => policy.with('day', ['x'], 'compact')).toThrow('the day level has no compact form');
  });

  test('the empty policy keeps everything in full', () => {
    expect(KEEP_EVERYTHING.isEmpty).toBe(true);
    expect(LEVELS.map((level) => KEEP_EVERYTHING.mode(level, 'anything'))).toEqual([
      'full',
      'full',
      'full',
    ]);
    expect(policy.isEmpty).toBe(false);
  });

  test('sketches and weights hold at every level, survive mode changes, and join the key', () => {
    const extras = policy
      .withMetricChange({ kind: 'sketch', metrics: ['traffic', 'stock.tick'], on: true })
      .withMetricChange({ kind: 'weight', metric: 'stock.tick', field: 'price', by: 'volume' })
      .with('hour', ['traffic'], 'compact');
    expect(extras.sketches('traffic')).toBe(true);
    expect(extras.sketches('mms.cpu')).toBe(false);
    expect(extras.weightOf('stock.tick', 'price')).toBe('volume');
    expect(extras.weightOf('stock.tick', 'volume')).toBeUndefined();
    expect(extras.weightsOf('stock.tick')).toEqual(new Map([['price', 'volume']]));
    expect(extras.weightsOf('traffic')).toBeUndefined();
    expect(extras.sketchedMetrics()).toEqual(['stock.tick', 'traffic']);
    expect(new LevelPolicy(extras.spec()).key).toBe(extras.key);
    expect(extras.key).not.toBe(
      extras.withMetricChange({ kind: 'sketch', metrics: ['traffic'], on: false }).key,
    );
    expect(
      extras
        .withMetricChange({ kind: 'weight', metric: 'stock.tick', field: 'price', by: undefined })
        .weights(),
    ).toEqual([]);
    // A policy without them keeps the key it had before they existed (cached answers stay valid).
    expect(KEEP_EVERYTHING.key).toBe('[]');
    expect(policy.sketchedMetrics()).toEqual([]);
  });

  test('refuses a field weighted by itself and empty names', () => {
    expect(() =>
      policy.withMetricChange({
        kind: 'weight',
        metric: 'stock.tick',
        field: 'price',
        by: 'price',
      }),
    ).toThrow('stock.tick: field price cannot be weighted by itself');
    expect(() =>
      policy.withMetricChange({ kind: 'weight', metric: 'stock.tick', field: '', by: 'volume' }),
    ).toThrow(LevelPolicyError);
    expect(() => policy.withMetricChange({ kind: 'sketch', metrics: [''], on: true })).toThrow(
      LevelPolicyError,
    );
  });
});

describe('suggestedModes', () => {
  test.each([
    ['one tick an hour', 1 / 60, 'skip', 'compact'],
    ['one tick a minute (MMS agents)', 1, 'skip', 'compact'],
    ['one tick per 40 s', 1.5, 'skip', 'compact'],
    ['one tick per 30 s', 2, 'skip', 'full'],
    ['one tick per 10 s (sensors)', 6, 'skip', 'full'],
    ['one tick per 5 s', 12, 'full', 'full'],
    ['one tick a second', 60, 'full', 'full'],
    ['ten ticks a second', 600, 'full', 'full'],
  ] as const)('%s: minute %s, hour %s', (_name, perMinute, minute, hour) => {
    expect(suggestedModes(perMinute)).toEqual({ minute, hour, day: 'full' });
  });
});
