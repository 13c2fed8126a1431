import { describe, expect, it } from '@jest/globals';
import { LEVELS, SKETCH_ALPHA, partitionOf, type FoldInput, type Level } from '@tickertape/buckets';
import type { FieldSlot, RollupStore } from '../../src/port/index.js';
import { createMemoryStore } from '../../src/memory/memory-store.js';
import { snapshot, storesFor, type OpenStore } from './open-store.js';
import { SERIES, T0, tick } from './ticks.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const [S0] = SERIES.map((s) => s.seriesKey) as [string];
const shellSeries = {
  seriesKey: S0,
  metric: 'spd',
  tags: { seg: 'I80_34' },
  fields: ['speed', 'travel'],
};

/** Both details of a series' buckets of a level over two hours from T0. */
async function readBoth(store: RollupStore, level: Level, field: string): Promise<FieldSlot[][]> {
  const query = { level, series: S0, field, fromMs: T0, toMs: T0 + 2 * HOUR, limit: 100 };
  return [
    await store.readSlots({ ...query, detail: 'slot' }),
    await store.readSlots({ ...query, detail: 'sub' }),
  ];
}

const observed = (slots: FieldSlot[]) =>
  slots.filter((slot) => slot.totals !== undefined || slot.subSlots.length > 0);

/**
 * A store whose server cannot hold shells (`capabilities.shells` off) refuses them with a typed
 * error naming the capability, not retriable, and writes nothing.
 */
async function expectShellsRefused(inserting: Promise<number>): Promise<void> {
  await expect(inserting).rejects.toMatchObject({
    code: 'STORE_UNSUPPORTED',
    retriable: false,
    capability: 'shells',
  });
}

export function upkeepContract(open: OpenStore): void {
  const stores = storesFor(open);

  describe('shells', () => {
    it('read as no data, are inserted once, never over a bucket, and name recent series', async () => {
      const store = await stores.use();
      await store.writer('minute').apply([tick(0, T0 + 5_000, 0, { speed: 10 })]);
      const shells = [T0, T0 + 60_000, T0 + 120_000].map((start) => ({
        series: shellSeries,
        start,
        compact: false,
      }));
      const hourShell = [{ series: shellSeries, start: T0 + HOUR, compact: true }];
      const dayShell = [{ series: shellSeries, start: T0 + HOUR, compact: false }];
      if (store.capabilities.shells) {
        // T0's bucket holds data already: only the two others go in.
        expect(await store.insertShells('minute', shells)).toBe(2);
        expect(await store.insertShells('minute', shells)).toBe(0);
        expect(await store.insertShells('hour', hourShell)).toBe(1);
        expect(await store.insertShells('day', dayShell)).toBe(1);
      } else {
        const before = await snapshot(store);
        await expectShellsRefused(store.insertShells('minute', shells));
        await expectShellsRefused(store.insertShells('hour', hourShell));
        await expectShellsRefused(store.insertShells('day', dayShell));
        expect(await snapshot(store)).toEqual(before);
      }
      // What follows holds either way: shells read as no data.

      for (const level of LEVELS)
        for (const field of ['speed', 'travel']) {
          const [slots, subs] = await readBoth(store, level, field);
          const data = level === 'minute' && field === 'speed' ? [T0] : [];
          expect(observed(slots!).map((s) => s.start)).toEqual(data);
          expect(observed(subs!).map((s) => s.start)).toEqual(data);
        }
      expect(await store.countBuckets({ level: 'minute', fromMs: T0, toMs: T0 + HOUR })).toBe(1);
      expect(await store.countBuckets({ level: 'hour', fromMs: T0, toMs: T0 + 2 * HOUR })).toBe(0);
      expect(await store.findSeries({ level: 'day', fromMs: T0, toMs: T0 + 2 * HOUR }, 10)).toEqual(
        [],
      );
      expect(await store.newestBucket('minute', S0, 5)).toEqual({
        start: T0,
        lastTickMs: T0 + 5_000,
      });
      expect(await store.newestBucket('hour', S0, 5)).toBeUndefined();
      expect(
        await store.readMetricPart({
          part: { level: 'minute', start: T0 + 60_000 },
          metric: 'spd',
          tags: {},
          field: 'speed',
          whole: true,
          limit: 10,
        }),
      ).toEqual([]);
      expect(await store.metricDensities('minute', T0, T0 + HOUR)).toEqual([
        { metric: 'spd', series: 1, buckets: 1, ticks: 1, perMinute: 1 },
      ]);
      expect(await store.recentSeries('minute', T0, T0 + 120_000)).toEqual([
        { seriesKey: S0, metric: 'spd', tags: { seg: 'I80_34' }, fields: ['speed'] },
      ]);
      expect(await store.recentSeries('hour', T0, T0 + 2 * HOUR)).toEqual([]);
    });

    it.each([
      ['minute', false],
      ['hour', false],
      ['hour', true],
      ['day', false],
    ] as const)(
      'a %s shell (compact: %s) filled reads exactly as a bucket written without one',
      async (level, compact) => {
        const [plain, shelled] = [await stores.use(), await stores.use()];
        if (!shelled.capabilities.shells) {
          await expectShellsRefused(
            shelled.insertShells(level, [{ series: shellSeries, start: T0, compact }]),
          );
          expect(await shelled.listNames()).toEqual(await plain.listNames());
          return;
        }
        if (compact)
          for (const store of [plain, shelled])
            await store.changeLevelPolicy('hour', ['spd'], 'compact', T0);
        const starts = level === 'day' ? [T0 - 23 * HOUR, T0 + HOUR] : [T0, T0 + HOUR];
        expect(
          await shelled.insertShells(
            level,
            starts.map((start) => ({ series: shellSeries, start, compact })),
          ),
        ).toBe(2);
        const ticks: FoldInput[] = [
          tick(0, T0 + 7_500, 0, { speed: 61 }),
          tick(0, T0 + 3_000, 1, { speed: 58, travel: 9 }),
          tick(0, T0 + 59_999, 2, { speed: 70 }),
          tick(0, T0 + 600_000, 3, { speed: -4 }),
        ];
        for (const store of [plain, shelled]) await store.writer(level).apply(ticks);
        for (const field of ['speed', 'travel']) {
          const [a, b] = [
            await readBoth(plain, level, field),
            await readBoth(shelled, level, field),
          ];
          expect(b.map(observed)).toEqual(a.map(observed));
          // The comparison is not vacuous: the ticks are there.
          expect(observed(a[0]!).length).toBeGreaterThan(0);
        }
        // And the filled shells are the reference store's very records (padding included).
        const reference = createMemoryStore();
        if (compact) await reference.changeLevelPolicy('hour', ['spd'], 'compact', T0);
        await reference.insertShells(
          level,
          starts.map((start) => ({ series: shellSeries, start, compact })),
        );
        await reference.writer(level).apply(ticks);
        expect(await snapshot(shelled)).toEqual(await snapshot(reference));
      },
    );
  });

  describe('finality', () => {
    it('watermarks move only forward; generations count changes to final buckets', async () => {
      const store = await stores.use();
      expect(await store.readWatermarks()).toEqual({
        finalBefore: {},
        generation: { minute: 0, hour: 0, day: 0 },
      });
      await store.bumpGeneration('day', T0);
      expect(await store.readWatermarks()).toEqual({
        finalBefore: {},
        generation: { minute: 0, hour: 0, day: 1 },
      });
      await store.advanceWatermarks({ minute: T0, hour: T0 - HOUR }, T0 + 1);
      await store.advanceWatermarks({ minute: T0 - 60_000, hour: T0 }, T0 + 2);
      await store.bumpGeneration('hour', T0 + 3);
      await store.bumpGeneration('hour', T0 + 4);
      expect(await store.readWatermarks()).toEqual({
        finalBefore: { minute: T0, hour: T0 },
        generation: { minute: 0, hour: 2, day: 1 },
      });
      const session = store.beginReads();
      if (store.capabilities.causalReads) expect(session).toBeDefined();
      else expect(session).toBeUndefined();
      expect((await store.readWatermarks(session)).finalBefore).toEqual({ minute: T0, hour: T0 });
      await session?.end();
    });
  });

  describe('retention', () => {
    it('drops final partitions past retention (dry runs only report), bumping the generation', async () => {
      const store = await stores.use();
      const old = partitionOf('minute', T0 - 30 * DAY);
      const recent = partitionOf('minute', T0);
      const oldHour = partitionOf('hour', T0 - 400 * DAY);
      for (const range of [old, recent, oldHour]) await store.ensurePartition(range);
      await store.advanceWatermarks({ minute: T0 - HOUR, hour: T0 - HOUR, day: T0 - DAY }, T0);
      const policy = {
        retentionMs: { minute: 7 * DAY, hour: 90 * DAY, day: 5 * 365 * DAY },
        latenessMs: 6 * HOUR,
      };
      const dry = await store.applyRetention(T0, policy, true);
      expect(dry.dryRun).toBe(true);
      expect(dry.dropped).toEqual([]);
      expect(
        dry.verdicts
          .filter((v) => v.drop)
          .map((v) => v.range.name)
          .sort(),
      ).toEqual([old.name, oldHour.name].sort());
      expect(dry.verdicts.find((v) => v.range.name === recent.name)).toMatchObject({
        drop: false,
        reason: 'within-retention',
      });
      const run = await store.applyRetention(T0, policy, false);
      expect([...run.dropped].sort()).toEqual([old.name, oldHour.name].sort());
      expect((await store.listPartitions()).map((p) => p.name)).toEqual([recent.name]);
      expect((await store.readWatermarks()).generation).toEqual({ minute: 1, hour: 1, day: 0 });
    });
  });

  describe('level policy', () => {
    it('is stored per level, checked whole, and a refused change keeps nothing', async () => {
      const store = await stores.use();
      expect((await store.readLevelPolicy()).isEmpty).toBe(true);
      await store.changeLevelPolicy('hour', ['spd', 'px'], 'compact', T0);
      await store.changeLevelPolicy('minute', ['spd'], 'skip', T0);
      await store.changeLevelPolicy('hour', ['px'], 'full', T0);
      const policy = await store.readLevelPolicy();
      expect(policy.spec()).toEqual({
        minute: { skip: ['spd'], compact: [] },
        hour: { skip: [], compact: ['spd'] },
        day: { skip: [], compact: [] },
        sketch: [],
        sketchAlpha: [],
        weights: [],
      });
      await store.changeLevelPolicy('hour', ['spd'], 'skip', T0);
      await expect(store.changeLevelPolicy('day', ['spd'], 'skip', T0)).rejects.toThrow(
        /every level/,
      );
      await expect(store.changeLevelPolicy('day', ['spd'], 'compact', T0)).rejects.toThrow(
        /compact/,
      );
      expect((await store.readLevelPolicy()).mode('day', 'spd')).toBe('full');
    });

    it("keeps the automatic rule's spans beside the operator's lists, and forgets old closed ones", async () => {
      const store = await stores.use();
      await store.changeLevelPolicy('minute', ['px'], 'skip', T0);
      const M = 60_000;
      await store.changeAutoSkip({ kind: 'skip', metric: 'spd', fromMs: T0 + 7 * M }, T0);
      let policy = await store.readLevelPolicy();
      expect(policy.autoSkips()).toEqual([{ metric: 'spd', fromMs: T0 + 7 * M }]);
      expect(policy.mode('minute', 'spd')).toBe('skip');
      expect(policy.metricsAt('minute', 'skip')).toEqual(['px']);
      // The operator's change leaves the spans alone, and the rule's leaves the operator's lists.
      await store.changeLevelPolicy('minute', ['px'], 'full', T0);
      await store.changeAutoSkip({ kind: 'keep', metric: 'spd', untilMs: T0 + 67 * M }, T0);
      policy = await store.readLevelPolicy();
      expect(policy.metricsAt('minute', 'skip')).toEqual([]);
      expect(policy.autoSkips()).toEqual([
        { metric: 'spd', fromMs: T0 + 7 * M, untilMs: T0 + 67 * M },
      ]);
      expect(policy.skipsAt('minute', 'spd', T0 + 66 * M)).toBe(true);
      expect(policy.skipsAt('minute', 'spd', T0 + 67 * M)).toBe(false);
      await store.changeAutoSkip({ kind: 'forget', beforeMs: T0 + 67 * M }, T0);
      expect((await store.readLevelPolicy()).isEmpty).toBe(true);
    });

    it("keeps the operator's pins at the minute level: a pin closes the open span, the rule's next skip opens nothing", async () => {
      const store = await stores.use();
      const M = 60_000;
      await store.changeLevelPolicy('hour', ['px'], 'compact', T0);
      await store.changeAutoSkip({ kind: 'skip', metric: 'spd', fromMs: T0 + 7 * M }, T0);
      await store.changeLevelPolicy('minute', ['lone'], 'skip', T0);
      const pinned = await store.changePins(
        { kind: 'pin', metrics: ['spd', 'lone'], untilMs: T0 + 20 * M },
        T0,
      );
      let policy = await store.readLevelPolicy();
      expect(policy.pinnedMetrics()).toEqual(['lone', 'spd']);
      expect(pinned.pinnedMetrics()).toEqual(['lone', 'spd']);
      expect(policy.autoSkips()).toEqual([
        { metric: 'spd', fromMs: T0 + 7 * M, untilMs: T0 + 20 * M },
      ]);
      // The operator's skip gave way to the pin; the rest of the policy is untouched.
      expect(policy.metricsAt('minute', 'skip')).toEqual([]);
      expect(policy.mode('hour', 'px')).toBe('compact');
      expect(policy.skipsAt('minute', 'spd', T0 + 20 * M - 1)).toBe(true);
      expect(policy.skipsAt('minute', 'spd', T0 + 20 * M)).toBe(false);
      // The rule cannot reopen it, and its own changes keep the pins.
      await store.changeAutoSkip({ kind: 'skip', metric: 'spd', fromMs: T0 + 30 * M }, T0);
      await store.changeAutoSkip({ kind: 'skip', metric: 'other', fromMs: T0 + 30 * M }, T0);
      policy = await store.readLevelPolicy();
      expect(policy.autoSkips().map(({ metric, untilMs }) => [metric, untilMs])).toEqual([
        ['other', undefined],
        ['spd', T0 + 20 * M],
      ]);
      expect(policy.pinnedMetrics()).toEqual(['lone', 'spd']);
      // The operator's skip replaces a pin; `auto` hands a metric back to the rule.
      await store.changeLevelPolicy('minute', ['lone'], 'skip', T0);
      await store.changePins({ kind: 'unpin', metrics: ['spd'] }, T0);
      policy = await store.readLevelPolicy();
      expect(policy.pinnedMetrics()).toEqual([]);
      expect(policy.metricsAt('minute', 'skip')).toEqual(['lone']);
      await store.changeAutoSkip({ kind: 'skip', metric: 'spd', fromMs: T0 + 40 * M }, T0);
      expect((await store.readLevelPolicy()).autoSkipping('minute', 'spd')).toBe(true);
    });

    it('keeps sketches and weights for every level beside the modes, and refuses a field weighted by itself', async () => {
      const store = await stores.use();
      await store.changeLevelPolicy('hour', ['spd'], 'compact', T0);
      const before = (await store.readLevelPolicy()).key;
      await store.changeMetricPolicy({ kind: 'sketch', metrics: ['spd', 'px'], on: true }, T0);
      await store.changeMetricPolicy({ kind: 'sketch', metrics: ['px'], on: false }, T0);
      await store.changeMetricPolicy(
        { kind: 'weight', metric: 'px', field: 'price', by: 'volume' },
        T0,
      );
      await store.changeMetricPolicy(
        { kind: 'weight', metric: 'spd', field: 'speed', by: 'n' },
        T0,
      );
      await store.changeMetricPolicy(
        { kind: 'weight', metric: 'spd', field: 'speed', by: undefined },
        T0,
      );
      const policy = await store.readLevelPolicy();
      expect(policy.sketches('spd')).toBe(true);
      expect(policy.sketches('px')).toBe(false);
      expect(policy.weightOf('px', 'price')).toBe('volume');
      expect(policy.weightOf('spd', 'speed')).toBeUndefined();
      expect(policy.mode('hour', 'spd')).toBe('compact');
      expect(policy.key).not.toBe(before);
      await expect(
        store.changeMetricPolicy(
          { kind: 'weight', metric: 'px', field: 'volume', by: 'volume' },
          T0,
        ),
      ).rejects.toThrow('px: field volume cannot be weighted by itself');
      expect((await store.readLevelPolicy()).key).toBe(policy.key);
      // A level-mode change keeps them.
      await store.changeLevelPolicy('minute', ['px'], 'skip', T0);
      expect((await store.readLevelPolicy()).weights()).toEqual([
        { metric: 'px', field: 'price', by: 'volume' },
      ]);
    });

    it("keeps a sketched metric's α, back to the default when sketched again without one", async () => {
      const store = await stores.use();
      await store.changeMetricPolicy({ kind: 'sketch', metrics: ['spd'], on: true }, T0);
      const atDefault = (await store.readLevelPolicy()).key;
      await store.changeMetricPolicy(
        { kind: 'sketch', metrics: ['spd', 'px'], on: true, alpha: 0.025 },
        T0,
      );
      let policy = await store.readLevelPolicy();
      expect(policy.sketchAlpha('spd')).toBe(0.025);
      expect(policy.sketchAlphas()).toEqual([
        { metric: 'px', alpha: 0.025 },
        { metric: 'spd', alpha: 0.025 },
      ]);
      expect(policy.key).not.toBe(atDefault);
      await expect(
        store.changeMetricPolicy({ kind: 'sketch', metrics: ['spd'], on: true, alpha: 0.5 }, T0),
      ).rejects.toThrow(/relative accuracy/);
      await store.changeMetricPolicy({ kind: 'sketch', metrics: ['spd'], on: true }, T0);
      await store.changeMetricPolicy({ kind: 'sketch', metrics: ['px'], on: false }, T0);
      policy = await store.readLevelPolicy();
      expect(policy.sketchAlpha('spd')).toBe(SKETCH_ALPHA);
      expect(policy.sketchAlphas()).toEqual([]);
      expect(policy.key).toBe(atDefault);
    });
  });
}
