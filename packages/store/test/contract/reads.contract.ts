import { beforeEach, describe, expect, it } from '@jest/globals';
import type { FieldSlot, RollupStore } from '../../src/port/index.js';
import { storesFor, type OpenStore } from './open-store.js';
import { SERIES, T0, tick } from './ticks.js';

const HOUR = 3_600_000;
const [S0, S1, S2] = SERIES.map((s) => s.seriesKey) as [string, string, string];

/**
 * Two series of `spd` and one of `px`, 23:00–00:00 and just after midnight (the next day's
 * minute partition, the next day's day bucket), written at every level.
 */
async function writeFixture(store: RollupStore): Promise<void> {
  const ticks = [
    tick(0, T0 + 5_000, 0, { speed: 10, travel: 100 }),
    tick(0, T0 + 65_000, 1, { speed: 20 }),
    tick(0, T0 + HOUR + 10_000, 2, { speed: 30 }),
    tick(1, T0 + 5_000, 3, { speed: 40 }),
    tick(1, T0 + 125_000, 4, { speed: 50 }),
    tick(2, T0 + 30_000, 5, { price: 7 }),
  ];
  for (const level of ['minute', 'hour', 'day'] as const) await store.writer(level).apply(ticks);
}

const mark = (t: number, o: number, v: number) => ({ t, o, v });
const one = (t: number, o: number, v: number) => ({
  n: 1,
  sum: v,
  sq: v * v,
  min: v,
  max: v,
  first: mark(t, o, v),
  last: mark(t, o, v),
});
const bySeries = (slots: FieldSlot[]) =>
  [...slots].sort((a, b) =>
    a.series < b.series ? -1 : a.series > b.series ? 1 : a.start - b.start,
  );
const inRange = (slot: FieldSlot, from: number, to: number) =>
  slot.subSlots.filter((s) => s.index >= from && s.index < to);

export function readsContract(open: OpenStore): void {
  const stores = storesFor(open);
  let store: RollupStore;

  describe('reads', () => {
    beforeEach(async () => {
      store = await stores.use();
      await writeFixture(store);
    });

    it("readSlots: a series' buckets over a range, in slot order, totals at slot detail", async () => {
      const query = {
        level: 'minute',
        series: S0,
        field: 'speed',
        fromMs: T0,
        toMs: T0 + 2 * HOUR,
      } as const;
      const slots = await store.readSlots({ ...query, detail: 'slot', limit: 100 });
      expect(slots.map((s) => [s.series, s.level, s.start, s.totals])).toEqual([
        [S0, 'minute', T0, one(T0 + 5_000, 0, 10)],
        [S0, 'minute', T0 + 60_000, one(T0 + 65_000, 1, 20)],
        [S0, 'minute', T0 + HOUR, one(T0 + HOUR + 10_000, 2, 30)],
      ]);
      const limited = await store.readSlots({
        ...query,
        toMs: T0 + HOUR,
        detail: 'slot',
        limit: 1,
      });
      expect(limited.map((s) => s.start)).toEqual([T0]);
      // A field the bucket does not hold reads as no data.
      const travel = await store.readSlots({
        ...query,
        field: 'travel',
        detail: 'slot',
        limit: 100,
      });
      expect(travel.filter((s) => s.totals !== undefined).map((s) => s.start)).toEqual([T0]);
      expect(travel.every((s) => s.subSlots.length === 0)).toBe(true);
    });

    it('readSlots at sub detail: seconds as counts and sums, minutes and hours as aggregates', async () => {
      const base = { series: S0, field: 'speed', detail: 'sub', limit: 100 } as const;
      const minute = await store.readSlots({
        ...base,
        level: 'minute',
        fromMs: T0,
        toMs: T0 + 60_000,
      });
      expect(minute.map((s) => s.subSlots)).toEqual([
        [{ index: 5, kind: 'compact', n: 1, sum: 10 }],
      ]);
      const hour = await store.readSlots({ ...base, level: 'hour', fromMs: T0, toMs: T0 + HOUR });
      expect(hour.map((s) => s.subSlots)).toEqual([
        [
          { index: 0, kind: 'aggregate', aggregate: one(T0 + 5_000, 0, 10) },
          { index: 1, kind: 'aggregate', aggregate: one(T0 + 65_000, 1, 20) },
        ],
      ]);
      const day = await store.readSlots({ ...base, level: 'day', fromMs: T0, toMs: T0 + 2 * HOUR });
      expect(day.map((s) => [s.start, s.subSlots.map((sub) => sub.index)])).toEqual([
        [T0 - 23 * HOUR, [23]],
        [T0 + HOUR, [0]],
      ]);
    });

    it("readPart: listed series' totals, a run of sub-slots, or the whole field; absent buckets left out", async () => {
      const part = { level: 'hour', start: T0 } as const;
      const series = [S1, S0, 'spd|seg=nowhere'];
      const totals = bySeries(await store.readPart({ part, series, field: 'speed', whole: false }));
      expect(totals.map((s) => [s.series, s.totals?.n, s.totals?.sum])).toEqual([
        [S0, 2, 30],
        [S1, 2, 90],
      ]);
      const sub = bySeries(
        await store.readPart({
          part: { ...part, sub: { from: 1, to: 3 } },
          series,
          field: 'speed',
          whole: false,
        }),
      );
      expect(sub.map((s) => inRange(s, 1, 3).map((v) => v.index))).toEqual([[1], [2]]);
      const whole = bySeries(await store.readPart({ part, series, field: 'speed', whole: true }));
      expect(whole.map((s) => [s.totals?.n, s.subSlots.map((v) => v.index)])).toEqual([
        [2, [0, 1]],
        [2, [0, 2]],
      ]);
      const minute = await store.readPart({
        part: { level: 'minute', start: T0 },
        series: [S0],
        field: 'speed',
        whole: true,
      });
      expect(minute.map((s) => s.totals)).toEqual([one(T0 + 5_000, 0, 10)]);
    });

    it("readMetricPart: a metric's buckets of one part, by series key, tags equal, at most limit", async () => {
      const query = {
        part: { level: 'hour', start: T0 },
        metric: 'spd',
        tags: {},
        field: 'speed',
        whole: false,
      } as const;
      const two = await store.readMetricPart({ ...query, limit: 5 });
      expect(two.map((s) => [s.series, s.totals?.sum])).toEqual([
        [S0, 30],
        [S1, 90],
      ]);
      expect((await store.readMetricPart({ ...query, limit: 1 })).map((s) => s.series)).toEqual([
        S0,
      ]);
      const tagged = await store.readMetricPart({ ...query, tags: { seg: 'I80_35' }, limit: 5 });
      expect(tagged.map((s) => s.series)).toEqual([S1]);
      const none = await store.readMetricPart({ ...query, metric: 'nothing', limit: 5 });
      expect(none).toEqual([]);
    });

    it('countBuckets: buckets with ticks whose slot overlaps the range, by metric and tags', async () => {
      const scope = { level: 'minute', fromMs: T0, toMs: T0 + HOUR } as const;
      expect(await store.countBuckets(scope)).toBe(5);
      expect(await store.countBuckets({ ...scope, metric: 'spd' })).toBe(4);
      expect(await store.countBuckets({ ...scope, metric: 'spd', tags: { seg: 'I80_35' } })).toBe(
        2,
      );
      // The day bucket of the 21st overlaps a range that starts inside it.
      expect(await store.countBuckets({ level: 'day', fromMs: T0 + 1_000, toMs: T0 + 2_000 })).toBe(
        3,
      );
    });

    it('findSeries: the series in a scope by key, with their fields and newest slot', async () => {
      const scope = { level: 'hour', fromMs: T0, toMs: T0 + 2 * HOUR } as const;
      expect(await store.findSeries(scope, 10)).toEqual([
        { series: S2, metric: 'px', tags: { sym: 'ACME' }, fields: ['price'], lastSlotMs: T0 },
        {
          series: S0,
          metric: 'spd',
          tags: { seg: 'I80_34' },
          fields: ['speed', 'travel'],
          lastSlotMs: T0 + HOUR,
        },
        { series: S1, metric: 'spd', tags: { seg: 'I80_35' }, fields: ['speed'], lastSlotMs: T0 },
      ]);
      expect((await store.findSeries(scope, 2)).map((row) => row.series)).toEqual([S2, S0]);
      const tagged = await store.findSeries(
        { ...scope, metric: 'spd', tags: { seg: 'I80_35' } },
        10,
      );
      expect(tagged.map((row) => row.series)).toEqual([S1]);
    });

    it('listMetrics: the metrics in a scope with their field and tag names', async () => {
      expect(
        await store.listMetrics({ level: 'day', fromMs: T0, toMs: T0 + 2 * HOUR }, 50),
      ).toEqual([
        { metric: 'px', fields: ['price'], tags: ['sym'] },
        { metric: 'spd', fields: ['speed', 'travel'], tags: ['seg'] },
      ]);
      expect(
        await store.listMetrics(
          { level: 'day', fromMs: T0 - 30 * 86_400_000, toMs: T0 - 86_400_000 },
          50,
        ),
      ).toEqual([]);
    });

    it("newestBucket: a series' newest bucket with ticks among the newest partitions", async () => {
      expect(await store.newestBucket('minute', S0, 5)).toEqual({
        start: T0 + HOUR,
        lastTickMs: T0 + HOUR + 10_000,
      });
      expect(await store.newestBucket('hour', S1, 5)).toEqual({
        start: T0,
        lastTickMs: T0 + 125_000,
      });
      // S1's minute buckets are all in the 21st's partition; the newest is the 22nd's.
      expect(await store.newestBucket('minute', S1, 1)).toBeUndefined();
      expect(await store.newestBucket('minute', S1, 2)).toEqual({
        start: T0 + 120_000,
        lastTickMs: T0 + 125_000,
      });
      expect(await store.newestBucket('minute', 'spd|seg=nowhere', 5)).toBeUndefined();
    });

    it('metricDensities: series, buckets and ticks per metric over a span', async () => {
      expect(await store.metricDensities('minute', T0, T0 + 2 * HOUR)).toEqual([
        { metric: 'px', series: 1, buckets: 1, ticks: 1, perMinute: 1 },
        { metric: 'spd', series: 2, buckets: 5, ticks: 5, perMinute: 1 },
      ]);
      expect(await store.metricDensities('hour', T0, T0 + HOUR)).toEqual([
        { metric: 'px', series: 1, buckets: 1, ticks: 1, perMinute: 1 / 60 },
        { metric: 'spd', series: 2, buckets: 2, ticks: 4, perMinute: 4 / 120 },
      ]);
    });
  });
}
