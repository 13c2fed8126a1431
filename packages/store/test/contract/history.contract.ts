import { describe, expect, it } from '@jest/globals';
import { partitionOf, type Level } from '@tickertape/buckets';
import type { BucketRecord, RollupStore, ShadowPartition } from '../../src/port/index.js';
import { canonical, storesFor, type OpenStore } from './open-store.js';
import { SERIES, T0, tick } from './ticks.js';

const HOUR = 3_600_000;
const [S0, S1, S2] = SERIES.map((s) => s.seriesKey) as [string, string, string];

/** The names history's plans give a run's copies of a live partition (shadow-names.ts). */
const shadowName = (runId: string, live: string) => `shadow_${runId}_${live}`;
const replacedName = (runId: string, live: string) => `replaced_${runId}_${live}`;

function shadowOf(runId: string, level: Level, fromMs: number, toMs: number): ShadowPartition {
  const range = partitionOf(level, fromMs);
  return {
    level,
    live: range.name,
    shadow: shadowName(runId, range.name),
    fromMs,
    toMs,
    whole: fromMs === range.startMs && toMs === range.endMs,
  };
}

async function all(store: RollupStore, name: string): Promise<BucketRecord[]> {
  const records: BucketRecord[] = [];
  for await (const record of store.partition(name).scan(undefined, { inIdOrder: true }))
    records.push(record);
  return records;
}

const ids = (records: BucketRecord[]) => records.map((r) => r._id).sort();

const start = (id: string, fromMs: number, toMs: number, source = 'topic') => ({
  id,
  kind: 'rebuild' as const,
  level: 'hour' as const,
  fromMs,
  toMs,
  source,
  partitions: [partitionOf('hour', fromMs).name],
});

export function historyContract(open: OpenStore): void {
  const stores = storesFor(open);

  describe('history', () => {
    it('runs: started, resumed while unfinished, moved on, listed by start', async () => {
      const store = await stores.use();
      const first = await store.startRun(start('run-1', T0, T0 + HOUR), T0);
      expect(first).toEqual({
        resumed: false,
        run: {
          ...start('run-1', T0, T0 + HOUR),
          state: 'running',
          startedAtMs: T0,
          updatedAtMs: T0,
        },
      });
      const again = await store.startRun(start('run-2', T0, T0 + HOUR), T0 + 5);
      expect(again.resumed).toBe(true);
      expect(again.run.id).toBe('run-1');
      await store.startRun(start('run-3', T0, T0 + HOUR, 'minute'), T0 + 10);
      await store.updateRun('run-1', T0 + 20, { state: 'done', detail: 'swapped 1 partition' });
      const runs = await store.listRuns();
      expect(runs.map((r) => [r.id, r.state, r.updatedAtMs])).toEqual([
        ['run-1', 'done', T0 + 20],
        ['run-3', 'running', T0 + 10],
      ]);
      expect(runs[0]?.detail).toBe('swapped 1 partition');
      // A finished run is not resumed.
      expect((await store.startRun(start('run-4', T0, T0 + HOUR), T0 + 30)).resumed).toBe(false);
    });

    it('a part of a partition: seeded, rebuilt in its shadow, swapped in bucket by bucket, resumable', async () => {
      const store = await stores.use();
      const live = store.writer('hour');
      await live.apply([
        tick(0, T0 - HOUR + 5, 0, { speed: 1 }), // outside the run's range: untouched
        tick(0, T0 + 5, 1, { speed: 2 }),
        tick(1, T0 + 5, 2, { speed: 3 }),
      ]);
      await store.startRun(start('run-a', T0, T0 + HOUR), T0);
      const part = shadowOf('run-a', 'hour', T0, T0 + HOUR);
      expect(part.whole).toBe(false);
      await store.prepareShadow(part);
      expect(await store.listNames()).toContain(part.shadow);
      expect((await store.listPartitions()).map((p) => p.name)).toEqual([part.live]);
      expect(await store.seedShadow(part)).toBe(2);
      expect(await store.seedShadow(part)).toBe(0);
      expect(ids(await all(store, part.shadow))).toEqual([`${S0}:2026112123`, `${S1}:2026112123`]);
      // The rebuild: S1's bucket goes, S0's changes, S2's is new.
      await store.partition(part.shadow).drop();
      await store.prepareShadow(part);
      const rebuild = store.writer('hour', { target: (p) => (p === part.live ? part.shadow : p) });
      await rebuild.apply([tick(0, T0 + 5, 1, { speed: 20 }), tick(2, T0 + 7, 4, { price: 5 })]);
      const shadowed = await all(store, part.shadow);
      const before = await store.readWatermarks();

      const swap = await store.swapShadow(part);
      expect(swap).toEqual({
        live: part.live,
        replacedCollection: replacedName('run-a', part.live),
        method: 'documents',
        written: 2,
        saved: 2,
        deleted: 1,
        resumed: false,
      });
      const after = await all(store, part.live);
      expect(ids(after)).toEqual(
        [`${S0}:2026112122`, `${S0}:2026112123`, `${S2}:2026112123`].sort(),
      );
      expect(canonical(after.filter((r) => r._id.endsWith('23')))).toEqual(canonical(shadowed));
      expect(ids(await all(store, swap.replacedCollection))).toEqual([
        `${S0}:2026112123`,
        `${S1}:2026112123`,
      ]);
      expect(await store.listNames()).not.toContain(part.shadow);
      expect((await store.readWatermarks()).generation.hour).toBeGreaterThan(
        before.generation.hour,
      );
      const [slot] = await store.readPart({
        part: { level: 'hour', start: T0 },
        series: [S0],
        field: 'speed',
        whole: false,
      });
      expect(slot?.totals?.sum).toBe(20);

      const resumed = await store.swapShadow(part);
      expect(resumed).toMatchObject({ resumed: true, method: 'documents', saved: 2, written: 0 });
      expect(ids(await all(store, part.live))).toEqual(ids(after));
    });

    it.each([
      ['as the server allows', undefined],
      ['bucket by bucket when asked', 'documents'],
    ] as const)('a whole partition swapped in %s', async (_how, forced) => {
      const store = await stores.use();
      const yearStart = Date.UTC(2026, 0, 1);
      await store.writer('day').apply([tick(0, T0, 0, { speed: 1 }), tick(1, T0, 1, { speed: 2 })]);
      const range = partitionOf('day', T0);
      const part = shadowOf('run-w', 'day', yearStart, range.endMs);
      expect(part.whole).toBe(true);
      await store.prepareShadow(part);
      await store
        .writer('day', { target: (p) => (p === part.live ? part.shadow : p) })
        .apply([tick(2, T0, 7, { price: 9 })]);
      const swap = await store.swapShadow(part, forced === undefined ? {} : { method: forced });
      const method = forced ?? (store.capabilities.renamesSafely ? 'rename' : 'documents');
      expect(swap).toMatchObject({ method, written: 1, saved: 2, resumed: false });
      expect(swap.deleted).toBe(method === 'rename' ? 0 : 2);
      expect(ids(await all(store, part.live))).toEqual([`${S2}:20261121`]);
      expect(ids(await all(store, swap.replacedCollection))).toEqual([
        `${S0}:20261121`,
        `${S1}:20261121`,
      ]);
      expect(await store.listNames()).not.toContain(part.shadow);
      expect((await store.listPartitions()).map((p) => p.name)).toEqual([part.live]);
    });

    it('a shadow that never existed is refused', async () => {
      const store = await stores.use();
      await expect(
        store.swapShadow(shadowOf('run-x', 'hour', T0, T0 + HOUR)),
      ).rejects.toMatchObject({
        code: 'SHADOW_MISSING',
      });
    });

    it("cleanup drops replaced copies and shadows of runs that are over, and keeps live runs' ones", async () => {
      const store = await stores.use();
      await store.writer('hour').apply([tick(0, T0 + 5, 0, { speed: 1 })]);
      await store.startRun(start('done-1', T0, T0 + HOUR), T0);
      await store.startRun(start('live-1', T0, T0 + HOUR, 'minute'), T0);
      await store.startRun(start('stale-1', T0, T0 + HOUR, 'file'), T0 - 2 * HOUR);
      const done = shadowOf('done-1', 'hour', T0, T0 + HOUR);
      const alive = shadowOf('live-1', 'hour', T0, T0 + HOUR);
      const stale = shadowOf('stale-1', 'hour', T0, T0 + HOUR);
      for (const part of [done, alive, stale]) await store.seedShadow(part);
      await store.swapShadow(done);
      await store.updateRun('done-1', T0, { state: 'done' });
      await store.updateRun('live-1', T0 + 10);
      const stray = shadowOf('nobody', 'hour', T0, T0 + HOUR);
      await store.prepareShadow(stray);

      const doomed = [replacedName('done-1', done.live), stale.shadow].sort();
      const options = { nowMs: T0 + 20, abandonedAfterMs: HOUR };
      expect((await store.cleanupReplaced({ ...options, dryRun: true })).sort()).toEqual(doomed);
      expect(await store.listNames()).toEqual(expect.arrayContaining(doomed));
      expect((await store.cleanupReplaced(options)).sort()).toEqual(doomed);
      const names = await store.listNames();
      for (const name of doomed) expect(names).not.toContain(name);
      expect(names).toEqual(expect.arrayContaining([alive.shadow, stray.shadow, done.live]));
      expect(await store.cleanupReplaced(options)).toEqual([]);
    });
  });
}
