import { describe, expect, it } from '@jest/globals';
import {
  finalityWatermark,
  isSlotFinal,
  levelAbove,
  parsePartitionName,
  partitionOf,
  partitionsAhead,
  retentionPlan,
  retentionVerdict,
  type Level,
  type RetentionPolicy,
} from '../../src/index.js';

const at = (iso: string) => Date.parse(iso);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('partitionsAhead', () => {
  it.each<[Level, string, number, string[]]>([
    [
      'minute',
      '2026-11-21T23:59:00Z',
      2,
      ['rollup_minute_20261121', 'rollup_minute_20261122', 'rollup_minute_20261123'],
    ],
    ['minute', '2026-12-31T12:00:00Z', 1, ['rollup_minute_20261231', 'rollup_minute_20270101']],
    ['hour', '2026-11-21T05:00:00Z', 1, ['rollup_hour_202611', 'rollup_hour_202612']],
    ['hour', '2026-12-01T00:00:00Z', 1, ['rollup_hour_202612', 'rollup_hour_202701']],
    ['day', '2026-11-21T05:00:00Z', 1, ['rollup_day_2026', 'rollup_day_2027']],
    ['day', '2026-11-21T05:00:00Z', 0, ['rollup_day_2026']],
  ])('%s at %s, %i ahead → %j', (level, now, ahead, names) => {
    expect(partitionsAhead(level, at(now), ahead).map((r) => r.name)).toEqual(names);
  });
});

describe('finality', () => {
  it.each<[Level, string, number, string]>([
    ['minute', '2026-11-21T05:06:37Z', 2 * 60_000, '2026-11-21T05:04:00Z'],
    ['minute', '2026-11-21T05:06:00Z', 0, '2026-11-21T05:06:00Z'],
    ['hour', '2026-11-21T05:06:37Z', 10 * 60_000, '2026-11-21T04:00:00Z'],
    ['hour', '2026-11-21T05:10:00Z', 10 * 60_000, '2026-11-21T05:00:00Z'],
    ['day', '2026-11-21T01:00:00Z', 2 * HOUR, '2026-11-20T00:00:00Z'],
  ])('%s watermark at %s with grace %i ms is %s', (level, now, grace, watermark) => {
    expect(finalityWatermark(level, at(now), grace)).toBe(at(watermark));
  });

  it('calls a slot final once its end is at or before the watermark', () => {
    const watermark = at('2026-11-21T05:04:00Z');
    expect(isSlotFinal('minute', at('2026-11-21T05:03:00Z'), watermark)).toBe(true);
    expect(isSlotFinal('minute', at('2026-11-21T05:04:00Z'), watermark)).toBe(false);
    expect(isSlotFinal('hour', at('2026-11-21T04:00:00Z'), watermark)).toBe(true);
    expect(isSlotFinal('hour', at('2026-11-21T05:00:00Z'), watermark)).toBe(false);
  });

  it('knows the level above', () => {
    expect([levelAbove('minute'), levelAbove('hour'), levelAbove('day')]).toEqual([
      'hour',
      'day',
      undefined,
    ]);
  });
});

describe('retention', () => {
  const now = at('2026-11-21T12:00:00Z');
  const policy: RetentionPolicy = {
    retentionMs: { minute: 7 * DAY, hour: 90 * DAY, day: 5 * 365 * DAY },
    latenessMs: 6 * HOUR,
  };
  const allFinal = { minute: now - HOUR, hour: now - 2 * HOUR, day: now - DAY };

  it.each<[string, string, Partial<Record<Level, number>>, string]>([
    ['an old minute partition with both levels final', 'rollup_minute_20261110', allFinal, 'drop'],
    ['a minute partition inside retention', 'rollup_minute_20261115', allFinal, 'within-retention'],
    [
      'an old minute partition whose hour level is not final',
      'rollup_minute_20261110',
      { minute: now, hour: at('2026-11-05T00:00:00Z') },
      'above-not-final',
    ],
    [
      'an old minute partition whose own level has no watermark',
      'rollup_minute_20261110',
      { hour: now },
      'not-final',
    ],
    ['an old hour partition', 'rollup_hour_202607', allFinal, 'drop'],
    ['this month', 'rollup_hour_202611', allFinal, 'within-retention'],
    ['the top level needs no level above', 'rollup_day_2020', { day: now }, 'drop'],
  ])('%s: %s → %s', (_label, name, watermarks, expected) => {
    const verdict = retentionVerdict(parsePartitionName(name)!, now, policy, watermarks);
    expect(verdict.drop ? 'drop' : verdict.reason).toBe(expected);
  });

  it('never drops a partition a late tick may still reach, whatever the retention', () => {
    const tight: RetentionPolicy = {
      retentionMs: { minute: 0, hour: 0, day: 0 },
      latenessMs: 2 * DAY,
    };
    const verdict = retentionVerdict(
      partitionOf('minute', at('2026-11-20T00:00:00Z')),
      now,
      tight,
      { minute: now, hour: now },
    );
    expect(verdict).toMatchObject({ drop: false, reason: 'writable' });
  });

  it('plans over collection names, oldest first, ignoring foreign collections', () => {
    const plan = retentionPlan(
      ['rollup_minute_20261115', 'watermarks', 'rollup_minute_20261101', 'rollup_minute_2026111'],
      now,
      policy,
      allFinal,
    );
    expect(plan.map((v) => [v.range.name, v.drop])).toEqual([
      ['rollup_minute_20261101', true],
      ['rollup_minute_20261115', false],
    ]);
  });
});
