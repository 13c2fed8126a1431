import { describe, expect, it } from '@jest/globals';
import {
  segmentDayRange,
  segmentRetentionPlan,
  segmentRetentionVerdict,
  type SegmentRetentionPolicy,
} from '../../src/index.js';

const at = (iso: string) => Date.parse(iso);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('segmentDayRange', () => {
  it.each([
    ['20261121', '2026-11-21T00:00:00Z', '2026-11-22T00:00:00Z'],
    ['20261231', '2026-12-31T00:00:00Z', '2027-01-01T00:00:00Z'],
    ['20240228', '2024-02-28T00:00:00Z', '2024-02-29T00:00:00Z'],
    ['20240229', '2024-02-29T00:00:00Z', '2024-03-01T00:00:00Z'],
  ])('%s is [%s, %s)', (day, start, end) => {
    expect(segmentDayRange(day)).toEqual({
      day,
      collection: `segments_${day}`,
      startMs: at(start),
      endMs: at(end),
    });
  });

  it.each(['2026112', '202611210', '20261131', '20250229', '20261301', '2026-11-21', 'abcdefgh'])(
    'refuses %p',
    (day) => {
      expect(segmentDayRange(day)).toBeUndefined();
    },
  );
});

describe('segmentRetentionVerdict', () => {
  const NOW = '2026-11-21T12:00:00Z';
  const week: SegmentRetentionPolicy = { retentionMs: 7 * DAY, latenessMs: 6 * HOUR };
  const short = (latenessMs: number): SegmentRetentionPolicy => ({ retentionMs: HOUR, latenessMs });

  // [what, day, now, verdict, policy]; a day ends at the next UTC midnight.
  it.each<[string, string, string, string, SegmentRetentionPolicy]>([
    ['a day that ended 8.5 days ago', '20261112', NOW, 'drop', week],
    ['a day that ended 6.5 days ago', '20261114', NOW, 'within-retention', week],
    [
      'a day that ended exactly the retention ago',
      '20261113',
      '2026-11-21T00:00:00Z',
      'drop',
      week,
    ],
    [
      'a day that ended 1 ms short of the retention',
      '20261113',
      '2026-11-20T23:59:59.999Z',
      'within-retention',
      week,
    ],
    ['today', '20261121', NOW, 'within-retention', week],
    ['a future day (a writer with a clock ahead)', '20261122', NOW, 'within-retention', week],
    // A retention shorter than the lateness bound does not win: yesterday ended 12 h ago.
    ['yesterday, 1 h retention, 24 h lateness', '20261120', NOW, 'writable', short(DAY)],
    ['yesterday, 1 h retention, 6 h lateness', '20261120', NOW, 'drop', short(6 * HOUR)],
    ['yesterday, 1 h retention, lateness exactly 12 h', '20261120', NOW, 'drop', short(12 * HOUR)],
    [
      'yesterday, 1 h retention, lateness 12 h + 1 ms',
      '20261120',
      NOW,
      'writable',
      short(12 * HOUR + 1),
    ],
  ])('%s (%s at %s) → %s', (_what, day, now, expected, policy) => {
    const verdict = segmentRetentionVerdict(segmentDayRange(day)!, at(now), policy);
    expect(verdict.drop ? 'drop' : verdict.reason).toBe(expected);
    expect(verdict.segmentDay.collection).toBe(`segments_${day}`);
  });
});

describe('segmentRetentionPlan', () => {
  it('judges every well-formed day, oldest first, ignoring names that are not days', () => {
    const now = at('2026-11-21T12:00:00Z');
    const plan = segmentRetentionPlan(
      ['20261121', '20261101', 'junk', '20261131', '20261110', '20261115'],
      now,
      { retentionMs: 7 * DAY, latenessMs: 6 * HOUR },
    );
    expect(plan.map((v) => [v.segmentDay.day, v.drop])).toEqual([
      ['20261101', true],
      ['20261110', true],
      ['20261115', false],
      ['20261121', false],
    ]);
  });

  it('drops nothing when there are no days', () => {
    expect(segmentRetentionPlan([], 0, { retentionMs: DAY, latenessMs: HOUR })).toEqual([]);
  });
});
