import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  LEVELS,
  finalityWatermark,
  isSlotFinal,
  partitionOf,
  partitionsAhead,
  type RetentionPolicy,
} from '@tickertape/buckets';
import { TestStack } from '@tickertape/testing';
import {
  PARTITION_INDEXES,
  advanceWatermarks,
  applyRetention,
  ensurePartition,
  listPartitionNames,
  readWatermarks,
} from '../../src/index.js';

const at = (iso: string) => Date.parse(iso);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('scheduler operations on the real database (clock injected)', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await TestStack.open('schedule-ops');
  });
  afterAll(() => stack.close());

  it('creates the next partitions of every level with their indexes, once', async () => {
    const db = stack.database();
    const now = at('2026-12-31T23:00:00Z'); // the next partition of every level is in 2027
    const ranges = LEVELS.flatMap((level) => partitionsAhead(level, now, 1));
    const first = await Promise.all(ranges.map((range) => ensurePartition(db, range)));
    const again = await Promise.all(ranges.map((range) => ensurePartition(db, range)));
    expect(first.every(Boolean)).toBe(true);
    expect(again.some(Boolean)).toBe(false);
    expect((await listPartitionNames(db)).sort()).toEqual(
      [
        'rollup_day_2026',
        'rollup_day_2027',
        'rollup_hour_202612',
        'rollup_hour_202701',
        'rollup_minute_20261231',
        'rollup_minute_20270101',
      ].sort(),
    );
    for (const range of ranges) {
      const names = (await db.collection(range.name).listIndexes().toArray()).map(
        (i: { name?: unknown }) => String(i.name),
      );
      expect(names).toEqual(expect.arrayContaining(PARTITION_INDEXES.map((i) => i.name)));
    }
  });

  it('flips finality on the clock alone, after the grace period, and never back', async () => {
    const db = stack.database();
    const grace = 2 * 60_000;
    const slot = at('2026-11-21T05:06:00Z');
    const before = at('2026-11-21T05:07:30Z'); // slot ended 30 s ago
    const after = at('2026-11-21T05:09:00Z'); // slot ended 2 min ago

    await advanceWatermarks(db, { minute: finalityWatermark('minute', before, grace) }, before);
    expect(isSlotFinal('minute', slot, (await readWatermarks(db)).minute!)).toBe(false);

    await advanceWatermarks(db, { minute: finalityWatermark('minute', after, grace) }, after);
    expect(isSlotFinal('minute', slot, (await readWatermarks(db)).minute!)).toBe(true);

    // A replica with a slow clock runs late: the watermark stays where it was.
    await advanceWatermarks(db, { minute: finalityWatermark('minute', before, grace) }, before);
    expect((await readWatermarks(db)).minute).toBe(at('2026-11-21T05:07:00Z'));
  });

  it('drops expired, final partitions (a dry run only lists them) and keeps the rest', async () => {
    const db = stack.database();
    const now = at('2026-11-21T12:00:00Z');
    for (const [level, ts] of [
      ['minute', '2026-11-01T10:00:00Z'],
      ['minute', '2026-11-15T10:00:00Z'],
      ['minute', '2026-11-21T10:00:00Z'],
      ['hour', '2026-07-10T00:00:00Z'],
      ['hour', '2026-11-10T00:00:00Z'],
      ['day', '2026-01-01T00:00:00Z'],
    ] as const) {
      await ensurePartition(db, partitionOf(level, at(ts)));
    }
    await db
      .collection('rollup_minute_20261101')
      .insertOne({ _id: 'x:202611011000' as never, n: 1 });
    await advanceWatermarks(db, { minute: now - HOUR, hour: now - 2 * HOUR, day: now - DAY }, now);
    const policy: RetentionPolicy = {
      retentionMs: { minute: 7 * DAY, hour: 90 * DAY, day: 5 * 365 * DAY },
      latenessMs: 6 * HOUR,
    };

    const dry = await applyRetention(db, now, policy, true);
    expect(dry.dropped).toEqual([]);
    expect(dry.verdicts.filter((v) => v.drop).map((v) => v.range.name)).toEqual([
      'rollup_hour_202607',
      'rollup_minute_20261101',
    ]);
    expect((await listPartitionNames(db)).length).toBe(6);

    const run = await applyRetention(db, now, policy, false);
    expect(run.dropped).toEqual(['rollup_hour_202607', 'rollup_minute_20261101']);
    expect((await listPartitionNames(db)).sort()).toEqual(
      [
        'rollup_day_2026',
        'rollup_hour_202611',
        'rollup_minute_20261115',
        'rollup_minute_20261121',
      ].sort(),
    );
  });
});
