import { describe, expect, test } from '@jest/globals';
import {
  AUTO_KEEP_ABOVE_PER_MINUTE,
  AUTO_SKIP_AT_PER_MINUTE,
  KEEP_EVERYTHING,
  LEVELS,
  LevelPolicy,
  LevelPolicyError,
  autoSkipBoundary,
  autoSkipDecision,
} from '../../src/index.js';

const M = 60_000;
const T0 = Date.parse('2026-11-21T10:00:00Z');

describe('autoSkipDecision', () => {
  const skipping = KEEP_EVERYTHING.withAutoSkip('mms.cpu', T0);

  test.each([
    // perMinute, skipping now?, decision
    [1 / 60, false, 'skip'],
    [0.5, false, 'skip'],
    [AUTO_SKIP_AT_PER_MINUTE, false, 'skip'],
    [1.01, false, 'none'],
    [6, false, 'none'],
    // Hysteresis: between the thresholds a skipped metric stays skipped.
    [1.5, true, 'none'],
    [AUTO_KEEP_ABOVE_PER_MINUTE, true, 'none'],
    [2.01, true, 'keep'],
    [6, true, 'keep'],
    [0.5, true, 'none'],
  ] as const)('%p ticks/min, skipping %p: %s', (perMinute, isSkipping, decision) => {
    const policy = isSkipping ? skipping : KEEP_EVERYTHING;
    expect(autoSkipDecision(policy, 'mms.cpu', perMinute)).toBe(decision);
  });

  test.each([
    ['the operator skips the minute level', new LevelPolicy({ minute: { skip: ['mms.cpu'] } })],
    [
      'the hour level is compact (its minutes are means)',
      new LevelPolicy({ hour: { compact: ['mms.cpu'] } }),
    ],
    ['the operator skips the day level', new LevelPolicy({ day: { skip: ['mms.cpu'] } })],
  ])('leaves a metric alone when %s', (_, policy) => {
    expect(autoSkipDecision(policy, 'mms.cpu', 0.1)).toBe('none');
    expect(autoSkipDecision(policy, 'mms.cpu', 60)).toBe('none');
  });
});

describe('autoSkipBoundary', () => {
  test.each([
    // now, maxFuture, refresh → first minute the change applies to
    [T0, 5 * M, 10_000, T0 + 7 * M],
    [T0 + 1, 5 * M, 10_000, T0 + 7 * M],
    [T0 + 50_000, 5 * M, 10_000, T0 + 7 * M],
    [T0 + 50_001, 5 * M, 10_000, T0 + 8 * M],
    [T0, 0, 10_000, T0 + 2 * M],
  ])('decided at %p (future bound %p, refresh %p): from %p', (now, future, refresh, from) => {
    const boundary = autoSkipBoundary(now, future, refresh);
    expect(boundary).toBe(from);
    expect(boundary % M).toBe(0);
    // Every tick at or after it was read after every writer re-read the policy.
    expect(boundary - future).toBeGreaterThanOrEqual(now + refresh);
  });
});

describe('automatic spans in the level policy', () => {
  const policy = KEEP_EVERYTHING.withAutoSkip('mms.cpu', T0 + 10 * M);

  test('skip the minute level over the span only, judged per tick', () => {
    expect(policy.skipsAt('minute', 'mms.cpu', T0 + 10 * M - 1)).toBe(false);
    expect(policy.skipsAt('minute', 'mms.cpu', T0 + 10 * M)).toBe(true);
    expect(policy.skipsAt('minute', 'mms.cpu', T0 + 1000 * M)).toBe(true);
    expect(policy.skipsAt('hour', 'mms.cpu', T0 + 20 * M)).toBe(false);
    expect(policy.skipsAt('minute', 'traffic', T0 + 20 * M)).toBe(false);
    expect(policy.mode('minute', 'mms.cpu')).toBe('skip');
    expect(policy.autoSkipping('minute', 'mms.cpu')).toBe(true);
  });

  test('closing a span writes the level again from then on; readers keep taking the hour level', () => {
    const closed = policy.withAutoKeep('mms.cpu', T0 + 70 * M);
    expect(closed.skipsAt('minute', 'mms.cpu', T0 + 69 * M)).toBe(true);
    expect(closed.skipsAt('minute', 'mms.cpu', T0 + 70 * M)).toBe(false);
    expect(closed.mode('minute', 'mms.cpu')).toBe('full');
    expect(closed.autoSkipping('minute', 'mms.cpu')).toBe(false);
    // The minutes of the span live only in the hour buckets: a minute read there would be a gap.
    expect(closed.levelsFor(LEVELS, 'mms.cpu')).toEqual(['hour', 'day']);
    expect(closed.autoSkips()).toEqual([
      { metric: 'mms.cpu', fromMs: T0 + 10 * M, untilMs: T0 + 70 * M },
    ]);
    // Forgotten once retention dropped those minutes: the minute level serves again.
    const forgotten = closed.withoutAutoSkipsBefore(T0 + 70 * M);
    expect(forgotten.levelsFor(LEVELS, 'mms.cpu')).toEqual(LEVELS);
    expect(forgotten.isEmpty).toBe(true);
    expect(closed.withoutAutoSkipsBefore(T0 + 70 * M - 1)).toBe(closed);
  });

  test('a span closed before it began never took effect and is dropped', () => {
    expect(policy.withAutoKeep('mms.cpu', T0 + 10 * M).autoSkips()).toEqual([]);
  });

  test('skipping again opens a second span; an open span is not opened twice', () => {
    const again = policy
      .withAutoKeep('mms.cpu', T0 + 70 * M)
      .withAutoSkip('mms.cpu', T0 + 200 * M)
      .withAutoSkip('mms.cpu', T0 + 300 * M);
    expect(again.autoSkips()).toEqual([
      { metric: 'mms.cpu', fromMs: T0 + 10 * M, untilMs: T0 + 70 * M },
      { metric: 'mms.cpu', fromMs: T0 + 200 * M },
    ]);
    expect(again.skipsAt('minute', 'mms.cpu', T0 + 100 * M)).toBe(false);
    expect(again.skipsAt('minute', 'mms.cpu', T0 + 250 * M)).toBe(true);
  });

  test('survive the round trip through the stored spec and change the key', () => {
    const again = new LevelPolicy(policy.withAutoKeep('mms.cpu', T0 + 70 * M).spec());
    expect(again.autoSkips()).toEqual([
      { metric: 'mms.cpu', fromMs: T0 + 10 * M, untilMs: T0 + 70 * M },
    ]);
    expect(policy.key).not.toBe(KEEP_EVERYTHING.key);
    expect(again.key).not.toBe(policy.key);
    // The operator's lists are untouched by the rule.
    expect(again.metricsAt('minute', 'skip')).toEqual([]);
  });

  test('an empty span is refused', () => {
    expect(() => new LevelPolicy({ autoSkip: [{ metric: 'x', fromMs: T0, untilMs: T0 }] })).toThrow(
      LevelPolicyError,
    );
  });
});

describe('readers over a range', () => {
  const policy = KEEP_EVERYTHING.withAutoSkip('mms.cpu', T0 + 10 * M).withAutoKeep(
    'mms.cpu',
    T0 + 70 * M,
  );

  test.each([
    ['wholly before the span', T0, T0 + 10 * M, ['minute', 'hour', 'day']],
    ['touching its start', T0, T0 + 10 * M + 1, ['hour', 'day']],
    ['inside it', T0 + 20 * M, T0 + 30 * M, ['hour', 'day']],
    ['from its end on', T0 + 70 * M, T0 + 200 * M, ['minute', 'hour', 'day']],
  ])('a read %s takes %p', (_, fromMs, toMs, levels) => {
    expect(policy.levelsFor(LEVELS, 'mms.cpu', { fromMs, toMs })).toEqual(levels);
  });

  test('an open span counts from its start on', () => {
    const open = KEEP_EVERYTHING.withAutoSkip('mms.cpu', T0 + 10 * M);
    expect(open.levelsFor(LEVELS, 'mms.cpu', { fromMs: T0, toMs: T0 + 10 * M })).toEqual(LEVELS);
    expect(open.levelsFor(LEVELS, 'mms.cpu', { fromMs: T0, toMs: T0 + 11 * M })).toEqual([
      'hour',
      'day',
    ]);
  });
});

describe("the operator's pin (levels keep minute) and hand-back (levels auto minute)", () => {
  const open = KEEP_EVERYTHING.withAutoSkip('mms.cpu', T0 + 10 * M);

  test.each([
    // perMinute, span open?, decision
    [0.1, false, 'none'],
    [AUTO_SKIP_AT_PER_MINUTE, false, 'none'],
    [60, false, 'none'],
    // A span opened while the pin was being stored: the next run closes it, at any density.
    [0.1, true, 'keep'],
    [60, true, 'keep'],
  ] as const)(
    'a pinned metric at %p ticks/min, span open %p: %s',
    (perMinute, isOpen, decision) => {
      const pinned = new LevelPolicy({
        pinned: ['mms.cpu'],
        ...(isOpen ? { autoSkip: [{ metric: 'mms.cpu', fromMs: T0 }] } : {}),
      });
      expect(autoSkipDecision(pinned, 'mms.cpu', perMinute)).toBe(decision);
      // Other metrics stay the rule's.
      expect(autoSkipDecision(pinned, 'traffic', 0.1)).toBe('skip');
    },
  );

  test('a pin closes the open span at the boundary given, judged per tick by slot, and keeps the rule away', () => {
    const pinned = open.withPinChange({ kind: 'pin', metrics: ['mms.cpu'], untilMs: T0 + 30 * M });
    expect(pinned.pins('mms.cpu')).toBe(true);
    expect(pinned.pinnedMetrics()).toEqual(['mms.cpu']);
    expect(pinned.autoSkips()).toEqual([
      { metric: 'mms.cpu', fromMs: T0 + 10 * M, untilMs: T0 + 30 * M },
    ]);
    expect(pinned.skipsAt('minute', 'mms.cpu', T0 + 30 * M - 1)).toBe(true);
    expect(pinned.skipsAt('minute', 'mms.cpu', T0 + 30 * M)).toBe(false);
    expect(pinned.mode('minute', 'mms.cpu')).toBe('full');
    // The job's own skip, however it raced, opens nothing.
    expect(pinned.withAutoSkip('mms.cpu', T0 + 100 * M)).toBe(pinned);
    expect(autoSkipDecision(pinned, 'mms.cpu', 0.1)).toBe('none');
    // Pins change nothing stored or read: the key is the closed span's.
    expect(pinned.key).toBe(open.withAutoKeep('mms.cpu', T0 + 30 * M).key);
  });

  test('a pin before the span began drops it whole; a pin without a span only pins', () => {
    const early = open.withPinChange({ kind: 'pin', metrics: ['mms.cpu'], untilMs: T0 + 10 * M });
    expect(early.autoSkips()).toEqual([]);
    expect(early.skipsAt('minute', 'mms.cpu', T0 + 20 * M)).toBe(false);
    const plain = KEEP_EVERYTHING.withPinChange({
      kind: 'pin',
      metrics: ['a', 'b'],
      untilMs: T0,
    });
    expect(plain.pinnedMetrics()).toEqual(['a', 'b']);
    expect(plain.autoSkips()).toEqual([]);
    expect(plain.isEmpty).toBe(true);
  });

  test("one state per metric at the minute level: the operator's skip, a pin, or the rule's", () => {
    const skipped = open.with('minute', ['mms.cpu'], 'skip');
    const pinned = skipped.withPinChange({
      kind: 'pin',
      metrics: ['mms.cpu'],
      untilMs: T0 + 30 * M,
    });
    expect(pinned.metricsAt('minute', 'skip')).toEqual([]);
    expect(pinned.pins('mms.cpu')).toBe(true);
    const skippedAgain = pinned.with('minute', ['mms.cpu'], 'skip');
    expect(skippedAgain.pins('mms.cpu')).toBe(false);
    expect(skippedAgain.mode('minute', 'mms.cpu')).toBe('skip');
    // A keep or compact at another level leaves the pin alone.
    expect(pinned.with('hour', ['mms.cpu'], 'full').pins('mms.cpu')).toBe(true);
    const handedBack = skippedAgain.withPinChange({ kind: 'unpin', metrics: ['mms.cpu'] });
    expect(handedBack.metricsAt('minute', 'skip')).toEqual([]);
    expect(handedBack.pins('mms.cpu')).toBe(false);
    expect(autoSkipDecision(handedBack, 'mms.cpu', 0.1)).toBe('skip');
    // The closed span still applies to its own slots.
    expect(handedBack.skipsAt('minute', 'mms.cpu', T0 + 20 * M)).toBe(true);
  });

  test('survives the stored spec; a policy from before pins has none and keeps its shape', () => {
    const pinned = open.withPinChange({ kind: 'pin', metrics: ['mms.cpu'], untilMs: T0 + 30 * M });
    const again = new LevelPolicy(pinned.spec());
    expect(again.pinnedMetrics()).toEqual(['mms.cpu']);
    expect(again.spec()).toEqual(pinned.spec());
    expect(open.spec()).not.toHaveProperty('pinned');
    expect(new LevelPolicy({ minute: { skip: ['x'] } }).pinnedMetrics()).toEqual([]);
    expect(pinned.withPinChange({ kind: 'unpin', metrics: ['mms.cpu'] }).spec()).not.toHaveProperty(
      'pinned',
    );
  });
});
