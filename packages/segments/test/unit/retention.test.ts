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
  const now = at('2026-11-21T12:00:00Z');
  const week: SegmentRetentionPolicy = { retentionMs: 7 * DAY, latenessMs: 6 * HOUR };

  it.each<[string, string, SegmentRetentionPolicy, string]>([
    ['a day that ended 8.5 days ago', '20261112', week, 'drop'],
    // 20261114 ends 2026-11-15T00:00Z, 6.5 days before now: inside a 7-day retention.
    ['a day that ended 6.5 days ago', '20261114', week, 'within-retention'],
    // Ends 2026-11-14T12:00Z… no: ends 2026-11-14T00:00Z + 1 day = exactly now - 7 d → may go.
    ['a day that ended exactly the retention ago', '20261113', week, 'drop'],
    ['today', '20261121', week, 'within-retention'],
    ['a future day (a clock ahead on some writer)', '20261122', week, 'within-retention'],
    // A short retention does not beat the lateness bound: yesterday ended 12 h ago, a late tick
    // (up to 24 h here) could still land there.
    ['yesterday, 1 h retention, 24 h lateness', '20261120', { retentionMs: HOUR, latenessMs: DAY }, 'writable'],
    ['yesterday, 1 h retention, 6 h lateness', '20261120', { retentionMs: HOUR, latenessMs: 6 * HOUR }, 'drop'],
    // Ended exactly the lateness bound ago: the newest tick a worker still takes is older than it.
    ['yesterday, 1 h retention, 12 h lateness', '20261120', { retentionMs: HOUR, latenessMs: 12 * HOUR }, 'drop'],
    ['yesterday, 1 h retention, 12 h + 1 ms lateness', '20261120', { retentionMs: HOUR, latenessMs: 12 * HOUR + 1 }, 'writable'],
  ])('%s (%s) → %s', (_what, day, policy, expected) => {
    const verdict = segmentRetentionVerdict(segmentDayRange(day)!, now, policy);
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
