import { describe, expect, it } from '@jest/globals';
import {
  bucketId,
  nextPartition,
  parsePartitionName,
  partitionOf,
  slotEnd,
  slotStart,
  stamp,
  subSlot,
  type Level,
} from '../../src/index.js';

const at = (iso: string) => Date.parse(iso);

describe('slotStart / subSlot', () => {
  it.each<[Level, string, string, number]>([
    ['minute', '2026-11-21T05:06:37.250Z', '2026-11-21T05:06:00.000Z', 37],
    ['minute', '2026-11-21T05:06:00.000Z', '2026-11-21T05:06:00.000Z', 0],
    ['minute', '2026-11-21T05:06:59.999Z', '2026-11-21T05:06:00.000Z', 59],
    ['hour', '2026-11-21T05:06:37.250Z', '2026-11-21T05:00:00.000Z', 6],
    ['hour', '2026-11-21T05:59:59.999Z', '2026-11-21T05:00:00.000Z', 59],
    ['day', '2026-11-21T05:06:37.250Z', '2026-11-21T00:00:00.000Z', 5],
    ['day', '2026-11-21T23:59:59.999Z', '2026-11-21T00:00:00.000Z', 23],
    ['day', '1970-01-01T00:00:00.000Z', '1970-01-01T00:00:00.000Z', 0],
    ['minute', '2099-12-31T23:59:59.999Z', '2099-12-31T23:59:00.000Z', 59],
    // Leap day and the last second of a leap year.
    ['day', '2028-02-29T12:00:00.000Z', '2028-02-29T00:00:00.000Z', 12],
  ])('%s of %s starts at %s, sub-slot %i', (level, ts, start, sub) => {
    expect(slotStart(level, at(ts))).toBe(at(start));
    expect(subSlot(level, at(ts))).toBe(sub);
  });

  it.each<[Level, number]>([
    ['minute', 60_000],
    ['hour', 3_600_000],
    ['day', 86_400_000],
  ])('a %s slot is %i ms long', (level, ms) => {
    expect(slotEnd(level, 0) - 0).toBe(ms);
  });
});

describe('stamp and bucketId', () => {
  it.each<[Level, string, string]>([
    ['minute', '2026-11-21T05:06:37Z', 'cpu|host=a:202611210506'],
    ['hour', '2026-11-21T05:06:37Z', 'cpu|host=a:2026112105'],
    ['day', '2026-11-21T05:06:37Z', 'cpu|host=a:20261121'],
    ['minute', '2026-01-02T03:04:05Z', 'cpu|host=a:202601020304'],
  ])('%s bucket of %s is %s', (level, ts, id) => {
    expect(bucketId(level, 'cpu|host=a', slotStart(level, at(ts)))).toBe(id);
  });

  it('sorts ids of one series in time order', () => {
    const starts = [
      at('2026-01-02T03:04:00Z'),
      at('2026-11-21T05:06:00Z'),
      at('2026-11-21T05:07:00Z'),
    ];
    const ids = starts.map((s) => bucketId('minute', 's', s));
    expect([...ids].sort()).toEqual(ids);
    expect(stamp(at('1999-12-31T23:59:00Z'))).toBe('199912312359');
  });
});

describe('partitions', () => {
  it.each<[Level, string, string, string, string]>([
    [
      'minute',
      '2026-11-21T05:06:37Z',
      'rollup_minute_20261121',
      '2026-11-21T00:00:00Z',
      '2026-11-22T00:00:00Z',
    ],
    [
      'minute',
      '2026-12-31T23:59:59Z',
      'rollup_minute_20261231',
      '2026-12-31T00:00:00Z',
      '2027-01-01T00:00:00Z',
    ],
    [
      'hour',
      '2026-11-21T05:06:37Z',
      'rollup_hour_202611',
      '2026-11-01T00:00:00Z',
      '2026-12-01T00:00:00Z',
    ],
    [
      'hour',
      '2028-02-10T00:00:00Z',
      'rollup_hour_202802',
      '2028-02-01T00:00:00Z',
      '2028-03-01T00:00:00Z',
    ],
    [
      'hour',
      '2026-12-15T00:00:00Z',
      'rollup_hour_202612',
      '2026-12-01T00:00:00Z',
      '2027-01-01T00:00:00Z',
    ],
    [
      'day',
      '2026-11-21T05:06:37Z',
      'rollup_day_2026',
      '2026-01-01T00:00:00Z',
      '2027-01-01T00:00:00Z',
    ],
  ])('%s partition of %s is %s [%s, %s)', (level, ts, name, start, end) => {
    const range = partitionOf(level, at(ts));
    expect(range).toEqual({ level, name, startMs: at(start), endMs: at(end) });
    expect(parsePartitionName(name)).toEqual(range);
  });

  it('steps to the next partition across month and year ends', () => {
    expect(nextPartition(partitionOf('minute', at('2026-02-28T10:00:00Z'))).name).toBe(
      'rollup_minute_20260301',
    );
    expect(nextPartition(partitionOf('hour', at('2026-12-01T00:00:00Z'))).name).toBe(
      'rollup_hour_202701',
    );
    expect(nextPartition(partitionOf('day', at('2026-06-01T00:00:00Z'))).name).toBe(
      'rollup_day_2027',
    );
  });

  it.each([
    'rollup_minute_202611',
    'rollup_hour_2026',
    'rollup_day_20261121',
    'rollup_minute_20261301',
    'rollup_week_2026',
    'ticks',
  ])('rejects %s as not one of ours', (name) => {
    expect(parsePartitionName(name)).toBeUndefined();
  });
});
