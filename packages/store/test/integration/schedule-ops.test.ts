import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  LEVELS,
  finalityWatermark,
  isSlotFinal,
  partitionOf,
  partitionsAhead,
  type RetentionPolicy,
} from '@tickertape/buckets';
import type { RollupStore } from '../../src/index.js';
import { PARTITION_INDEXES } from '../../src/mongo/partitions.js';
import { StoreStack } from '../support/store-stack.js';

const at = (iso: string) => Date.parse(iso);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('scheduler operations on the real database (clock injected)', () => {
  let stack: StoreStack;
  const partitionNames = async (store: RollupStore) =>
    (await store.listPartitions()).map((range) => range.name);
  const watermarks = async (store: RollupStore) => (await store.readWatermarks()).finalBefore;

  beforeAll(async () => {
    stack = await StoreStack.open('schedule-ops');
  });
  afterAll(() => stack.close());

  it('creates the next partitions of every level with their indexes, once', async () => {
    const { store, db } = await stack.fresh();
    const now = at('2026-12-31T23:00:00Z'); // the next partition of every level is in 2027
    const ranges = LEVELS.flatMap((level) => partitionsAhead(level, now, 1));
    const first = await Promise.all(ranges.map((range) => store.ensurePartition(range)));
    const again = await Promise.all(ranges.map((range) => store.ensurePartition(range)));
    expect(first.every(Boolean)).toBe(true);
    expect(again.some(Boolean)).toBe(false);
    expect(await store.listPartitions()).toEqual(
      [...ranges].sort((a, b) => a.name.localeCompare(b.name)),
    );
    expect((await partitionNames(store)).sort()).toEqual(
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
    const { store } = await stack.fresh();
    const grace = 2 * 60_000;
    const slot = at('2026-11-21T05:06:00Z');
    const before = at('2026-11-21T05:07:30Z'); // slot ended 30 s ago
    const after = at('2026-11-21T05:09:00Z'); // slot ended 2 min ago

    await store.advanceWatermarks({ minute: finalityWatermark('minute', before, grace) }, before);
    expect(isSlotFinal('minute', slot, (await watermarks(store)).minute!)).toBe(false);

    await store.advanceWatermarks({ minute: finalityWatermark('minute', after, grace) }, after);
    expect(isSlotFinal('minute', slot, (await watermarks(store)).minute!)).toBe(true);

    // A replica with a slow clock runs late: the watermark stays where it was.
    await store.advanceWatermarks({ minute: finalityWatermark('minute', before, grace) }, before);
    expect((await watermarks(store)).minute).toBe(at('2026-11-21T05:07:00Z'));
    expect((await store.readWatermarks()).generation).toEqual({ minute: 0, hour: 0, day: 0 });
    await store.bumpGeneration('minute', after);
    expect((await store.readWatermarks()).generation).toEqual({ minute: 1, hour: 0, day: 0 });
  });

  it('drops expired, final partitions (a dry run only lists them) and keeps the rest', async () => {
    const { store } = await stack.fresh();
    const now = at('2026-11-21T12:00:00Z');
    for (const [level, ts] of [
      ['minute', '2026-11-01T10:00:00Z'],
      ['minute', '2026-11-15T10:00:00Z'],
      ['minute', '2026-11-21T10:00:00Z'],
      ['hour', '2026-07-10T00:00:00Z'],
      ['hour', '2026-11-10T00:00:00Z'],
      ['day', '2026-01-01T00:00:00Z'],
    ] as const) {
      await store.ensurePartition(partitionOf(level, at(ts)));
    }
    await store.partition('rollup_minute_20261101').replace([{ _id: 'x:202611011000', n: 1 }]);
    await store.advanceWatermarks(
      { minute: now - HOUR, hour: now - 2 * HOUR, day: now - DAY },
      now,
    );
    const policy: RetentionPolicy = {
      retentionMs: { minute: 7 * DAY, hour: 90 * DAY, day: 5 * 365 * DAY },
      latenessMs: 6 * HOUR,
    };

    const dry = await store.applyRetention(now, policy, true);
    expect(dry.dropped).toEqual([]);
    expect(dry.verdicts.filter((v) => v.drop).map((v) => v.range.name)).toEqual([
      'rollup_hour_202607',
      'rollup_minute_20261101',
    ]);
    expect((await partitionNames(store)).length).toBe(6);

    const generations = (await store.readWatermarks()).generation;
    const run = await store.applyRetention(now, policy, false);
    expect(run.dropped).toEqual(['rollup_hour_202607', 'rollup_minute_20261101']);
    // What readers kept of the dropped, final buckets must go with them.
    expect((await store.readWatermarks()).generation).toEqual({
      ...generations,
      minute: generations.minute + 1,
      hour: generations.hour + 1,
    });
    expect((await partitionNames(store)).sort()).toEqual(
      [
        'rollup_day_2026',
        'rollup_hour_202611',
        'rollup_minute_20261115',
        'rollup_minute_20261121',
      ].sort(),
    );
  });
});
