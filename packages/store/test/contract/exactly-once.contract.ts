import { describe, expect, it } from '@jest/globals';
import type { FoldInput, Level } from '@tickertape/buckets';
import fc from 'fast-check';
import { createMemoryStore } from '../../src/memory/memory-store.js';
import type { FieldSlot, RollupStore } from '../../src/port/index.js';
import { snapshot, storesFor, type ContractOptions, type OpenStore } from './open-store.js';
import {
  SERIES,
  T0,
  asRead,
  deliveredArb,
  expectedRead,
  expectedSlots,
  slotMs,
  tick,
} from './ticks.js';

/**
 * Each level in its own layout, and the hour level compact (the level policy); each also with
 * sketches of both metrics and speed weighted by travel (`extras`).
 */
const FORMS: [string, Level, boolean, boolean][] = (
  [
    ['minute', 'minute', false],
    ['hour', 'hour', false],
    ['day', 'day', false],
    ['compact hour', 'hour', true],
  ] as const
).flatMap(([form, level, compact]): [string, Level, boolean, boolean][] => [
  [form, level, compact, false],
  [`${form}, sketched and weighted`, level, compact, true],
]);

/** Sets the policy a form asks for. */
async function setPolicy(store: RollupStore, compact: boolean, extras: boolean): Promise<void> {
  if (compact) await store.changeLevelPolicy('hour', ['spd', 'px'], 'compact', T0);
  if (!extras) return;
  await store.changeMetricPolicy({ kind: 'sketch', metrics: ['spd', 'px'], on: true }, T0);
  for (const metric of ['spd', 'px'])
    await store.changeMetricPolicy({ kind: 'weight', metric, field: 'speed', by: 'travel' }, T0);
}

/** The sub-slot kind each form stores. */
const KIND = { minute: 'compact', hour: 'aggregate', day: 'aggregate' } as const;

/**
 * Every bucket of the contract's series in the level read back: totals at `slot` detail, the
 * sub-slots at `sub` detail (whether `sub` repeats the totals is the store's choice).
 */
async function readBack(store: RollupStore, level: Level, field: string): Promise<FieldSlot[]> {
  const slots: FieldSlot[] = [];
  for (const { seriesKey } of SERIES) {
    const query = {
      level,
      series: seriesKey,
      field,
      fromMs: T0 - slotMs(level),
      toMs: T0 + 3 * 3_600_000,
      limit: 1_000,
    };
    const totals = await store.readSlots({ ...query, detail: 'slot' });
    const subs = new Map(
      (await store.readSlots({ ...query, detail: 'sub' })).map((slot) => [slot.start, slot]),
    );
    for (const slot of totals) {
      if (slot.totals === undefined) continue;
      slots.push({ ...slot, subSlots: subs.get(slot.start)?.subSlots ?? [] });
    }
  }
  return slots.sort((a, b) =>
    a.series < b.series ? -1 : a.series > b.series ? 1 : a.start - b.start,
  );
}

function expected(
  level: Level,
  records: readonly FoldInput[],
  field: string,
  compact = false,
  extras = false,
) {
  const parts = {
    compact,
    sketch: extras,
    ...(extras && field === 'speed' ? { weightBy: 'travel' } : {}),
  };
  const full = level !== 'minute' && !compact;
  return [...expectedSlots(level, records, field, parts).values()]
    .sort((a, b) => (a.series < b.series ? -1 : a.series > b.series ? 1 : a.start - b.start))
    .map((slot) => expectedRead(slot, full));
}

/** Replays everything from offset 0, in batches of `size` per Kafka partition. */
async function replayFromZero(
  store: RollupStore,
  level: Level,
  records: readonly FoldInput[],
  size: number,
) {
  const writer = store.writer(level);
  for (const p of [0, 1]) {
    const own = records.filter((r) => r.kafkaPartition === p).sort((a, b) => a.offset - b.offset);
    for (let i = 0; i < own.length; i += size) await writer.apply(own.slice(i, i + size));
  }
}

export function exactlyOnceContract(open: OpenStore, options: ContractOptions): void {
  const stores = storesFor(open);
  const numRuns = options.propertyRuns ?? 100;

  describe('exactly once', () => {
    it.each(FORMS)(
      '%s buckets read back as the fold of their unique ticks, however flushes were replayed, overlapped and interleaved',
      async (_form, level, compact, extras) => {
        await fc.assert(
          fc.asyncProperty(deliveredArb, async ({ records, flushes }) => {
            const store = await stores.use();
            await setPolicy(store, compact, extras);
            const writer = store.writer(level);
            for (const flush of flushes) await writer.apply(flush);
            for (const field of ['speed', 'travel']) {
              const read = await readBack(store, level, field);
              const kinds = new Set(read.flatMap((slot) => slot.subSlots.map((s) => s.kind)));
              expect([...kinds]).toEqual(
                read.length === 0 ? [] : [compact ? 'compact' : KIND[level]],
              );
              expect(read.map(asRead)).toEqual(expected(level, records, field, compact, extras));
            }
            // A replay from offset 0, batched otherwise, changes no bucket at all.
            const before = await snapshot(store);
            await replayFromZero(store, level, records, 7);
            expect(await snapshot(store)).toEqual(before);
          }),
          { numRuns },
        );
      },
      // A run writes a fresh store through a few dozen flushes: seconds each over the wire.
      numRuns * 5_000,
    );

    it.each(FORMS)(
      '%s buckets are stored as the very records the reference store holds for the same flushes',
      async (_form, level, compact, extras) => {
        await fc.assert(
          fc.asyncProperty(deliveredArb, async ({ flushes }) => {
            const [store, reference] = [await stores.use(), createMemoryStore()];
            for (const each of [store, reference]) {
              await setPolicy(each, compact, extras);
              const writer = each.writer(level);
              for (const flush of flushes) await writer.apply(flush);
            }
            expect(await snapshot(store)).toEqual(await snapshot(reference));
          }),
          { numRuns: Math.min(numRuns, 10) },
        );
      },
      Math.min(numRuns, 10) * 5_000,
    );

    it('the same flush twice is absorbed once, and the replay says it conflicted', async () => {
      const store = await stores.use();
      const writer = store.writer('minute');
      const flush = [
        tick(0, T0 + 1_000, 0, { speed: 10 }),
        tick(0, T0 + 2_000, 1, { speed: 20 }),
        tick(1, T0 + 61_000, 2, { speed: 30 }),
      ];
      const first = await writer.apply(flush);
      expect(first).toMatchObject({ buckets: 2, operations: 2, conflicts: 0, skipped: 0 });
      const before = await snapshot(store);
      const again = await writer.apply(flush);
      expect(again.conflicts).toBe(2);
      expect(await snapshot(store)).toEqual(before);
    });

    it("an overlapping flush adds only the records past each bucket's applied offset", async () => {
      const store = await stores.use();
      const writer = store.writer('hour');
      const ticks = [10, 20, 30, 40].map((speed, offset) =>
        tick(0, T0 + offset * 60_000, offset, { speed }),
      );
      await writer.apply(ticks.slice(0, 3));
      const stats = await writer.apply(ticks.slice(1));
      expect(stats.conflicts).toBe(1);
      const [slot] = await store.readSlots({
        level: 'hour',
        series: SERIES[0].seriesKey,
        field: 'speed',
        fromMs: T0,
        toMs: T0 + 3_600_000,
        detail: 'slot',
        limit: 10,
      });
      expect(slot?.totals).toEqual({
        n: 4,
        sum: 100,
        sq: 3_000,
        min: 10,
        max: 40,
        first: { t: T0, o: 0, v: 10 },
        last: { t: T0 + 180_000, o: 3, v: 40 },
      });
    });

    it('first and last go by event time, then offset, then value, across Kafka partitions', async () => {
      const store = await stores.use();
      const writer = store.writer('day');
      // Two partitions tie on (t, o): the value decides, as on the server (BSON order).
      await writer.apply([
        tick(2, T0, 5, { price: 7 }, { kafkaPartition: 1 }),
        tick(2, T0 + 5_000, 6, { price: 1 }, { kafkaPartition: 1 }),
      ]);
      await writer.apply([
        tick(2, T0, 5, { price: 3 }, { kafkaPartition: 0 }),
        tick(2, T0 + 5_000, 6, { price: 9 }, { kafkaPartition: 0 }),
      ]);
      const [slot] = await store.readSlots({
        level: 'day',
        series: SERIES[2].seriesKey,
        field: 'price',
        fromMs: T0 - slotMs('day'),
        toMs: T0 + slotMs('day'),
        detail: 'slot',
        limit: 10,
      });
      expect(slot?.totals).toMatchObject({
        n: 4,
        sum: 20,
        first: { t: T0, o: 5, v: 3 },
        last: { t: T0 + 5_000, o: 6, v: 9 },
      });
    });

    it('ticks of a metric the level skips are acknowledged and not written', async () => {
      const store = await stores.use();
      await store.changeLevelPolicy('minute', ['px'], 'skip', T0);
      const stats = await store
        .writer('minute')
        .apply([tick(2, T0, 0, { price: 1 }), tick(0, T0, 1, { speed: 2 })]);
      expect(stats).toMatchObject({ skipped: 1, buckets: 1 });
      expect(await store.countBuckets({ level: 'minute', fromMs: T0, toMs: T0 + 60_000 })).toBe(1);
      expect(
        await store.countBuckets({ level: 'minute', fromMs: T0, toMs: T0 + 60_000, metric: 'px' }),
      ).toBe(0);
    });

    it('a writer given a policy follows it, not the stored one', async () => {
      const store = await stores.use();
      const policy = await store.changeLevelPolicy('hour', ['spd'], 'compact', T0);
      await store.changeLevelPolicy('hour', ['spd'], 'full', T0);
      await store
        .writer('hour', { policy: { current: () => Promise.resolve(policy) } })
        .apply([tick(0, T0 + 120_000, 0, { speed: 5 })]);
      const [slot] = await store.readSlots({
        level: 'hour',
        series: SERIES[0].seriesKey,
        field: 'speed',
        fromMs: T0,
        toMs: T0 + 3_600_000,
        detail: 'sub',
        limit: 1,
      });
      expect(slot?.subSlots).toEqual([{ index: 2, kind: 'compact', n: 1, sum: 5 }]);
    });
  });
}
