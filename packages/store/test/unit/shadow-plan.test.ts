import { describe, expect, it } from '@jest/globals';
import { parsePartitionName } from '@tickertape/buckets';
import { parseShadowName, replacedCollectionOf, shadowPlan } from '../../src/index.js';

const at = (iso: string) => Date.parse(iso);

describe('shadowPlan', () => {
  it.each([
    {
      what: 'an hour range inside one day: one minute partition, partial',
      level: 'minute' as const,
      from: '2026-11-21T10:00:00Z',
      to: '2026-11-21T11:00:00Z',
      want: [['rollup_minute_20261121', '2026-11-21T10:00:00Z', '2026-11-21T11:00:00Z', false]],
    },
    {
      what: 'a whole day of minutes',
      level: 'minute' as const,
      from: '2026-11-21T00:00:00Z',
      to: '2026-11-22T00:00:00Z',
      want: [['rollup_minute_20261121', '2026-11-21T00:00:00Z', '2026-11-22T00:00:00Z', true]],
    },
    {
      what: 'hours across a month end: clipped to each month',
      level: 'hour' as const,
      from: '2026-11-30T22:00:00Z',
      to: '2026-12-01T02:00:00Z',
      want: [
        ['rollup_hour_202611', '2026-11-30T22:00:00Z', '2026-12-01T00:00:00Z', false],
        ['rollup_hour_202612', '2026-12-01T00:00:00Z', '2026-12-01T02:00:00Z', false],
      ],
    },
    {
      what: 'a month and a bit of hours: the whole month and part of the next',
      level: 'hour' as const,
      from: '2026-11-01T00:00:00Z',
      to: '2026-12-01T05:00:00Z',
      want: [
        ['rollup_hour_202611', '2026-11-01T00:00:00Z', '2026-12-01T00:00:00Z', true],
        ['rollup_hour_202612', '2026-12-01T00:00:00Z', '2026-12-01T05:00:00Z', false],
      ],
    },
    {
      what: 'days across a year end',
      level: 'day' as const,
      from: '2026-12-31T00:00:00Z',
      to: '2027-01-02T00:00:00Z',
      want: [
        ['rollup_day_2026', '2026-12-31T00:00:00Z', '2027-01-01T00:00:00Z', false],
        ['rollup_day_2027', '2027-01-01T00:00:00Z', '2027-01-02T00:00:00Z', false],
      ],
    },
  ])('$what', ({ level, from, to, want }) => {
    const plan = shadowPlan(level, at(from), at(to), 'run-1');
    expect(
      plan.map((p) => [
        p.live,
        new Date(p.fromMs).toISOString().replace('.000', ''),
        new Date(p.toMs).toISOString().replace('.000', ''),
        p.whole,
      ]),
    ).toEqual(want);
    for (const part of plan) {
      expect(part.level).toBe(level);
      expect(part.shadow).toBe(`shadow_run-1_${part.live}`);
      expect(replacedCollectionOf(part)).toBe(`replaced_run-1_${part.live}`);
      // Never mistaken for a partition, and read back to their parts.
      expect(parsePartitionName(part.shadow)).toBeUndefined();
      expect(parsePartitionName(replacedCollectionOf(part))).toBeUndefined();
      expect(parseShadowName(part.shadow)).toEqual({
        kind: 'shadow',
        runId: 'run-1',
        live: part.live,
      });
    }
  });

  it('refuses an empty range and a run id that cannot be part of a name', () => {
    expect(() =>
      shadowPlan('hour', at('2026-11-21T10:00:00Z'), at('2026-11-21T10:00:00Z'), 'r'),
    ).toThrow(/empty/);
    expect(() => shadowPlan('hour', 0, 3_600_000, 'a_b')).toThrow(/run id/);
  });
});
