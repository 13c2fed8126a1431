import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Db } from 'mongodb';
import { shadowPlan, type RollupStore } from '../../src/index.js';
import { SHADOW_SWAPS_COLLECTION } from '../../src/mongo/shadow.js';
import { StoreStack } from '../support/store-stack.js';

type Bucket = { _id: string; start: Date; n: number; v: string };

const HOUR = 3_600_000;
const DAY0 = Date.parse('2026-11-01T00:00:00Z');
const MONTH_END = Date.parse('2026-12-01T00:00:00Z');

/** Hour buckets of one series at these hour offsets from Nov 1, tagged with `v`. */
const buckets = (hours: number[], v: string): Bucket[] =>
  hours.map((h) => ({
    _id: `s:${new Date(DAY0 + h * HOUR).toISOString().slice(0, 13).replace(/[-T]/g, '')}`,
    start: new Date(DAY0 + h * HOUR),
    n: h + 1,
    v,
  }));

const names = (store: RollupStore) => store.listNames();
const partitionNames = async (store: RollupStore) =>
  (await store.listPartitions()).map((range) => range.name);
const indexNames = async (db: Db, name: string) =>
  ((await db.collection(name).listIndexes().toArray()) as { name: string }[])
    .map((i) => i.name)
    .sort();
const contents = async (store: RollupStore, name: string) => {
  const found: string[] = [];
  for await (const b of store.partition(name).scan(undefined, { inIdOrder: true }))
    found.push(`${b._id}=${String(b.v)}`);
  return found;
};

describe('shadow collections and the swap', () => {
  let stack: StoreStack;

  beforeAll(async () => {
    stack = await StoreStack.open('store-shadow');
  });
  afterAll(() => stack.close());

  async function live(store: RollupStore, hours: number[]): Promise<void> {
    await store.partition('rollup_hour_202611').replace(buckets(hours, 'old'));
  }

  it('seeds a shadow from the live buckets of the range, idempotently, never overwriting', async () => {
    const { store, db } = await stack.fresh();
    await live(store, [0, 10, 11, 12, 20]);
    const [part] = shadowPlan('hour', DAY0 + 10 * HOUR, DAY0 + 13 * HOUR, 'seed-1');
    expect(await store.seedShadow(part!)).toBe(3);
    await store.partition(part!.shadow).replace(buckets([11], 'shadow'));
    // A rerun after a kill: copies nothing twice and keeps the shadow's own bucket.
    expect(await store.seedShadow(part!)).toBe(0);
    expect(await contents(store, part!.shadow)).toEqual([
      's:2026110110=old',
      's:2026110111=shadow',
      's:2026110112=old',
    ]);
    expect(await indexNames(db, part!.shadow)).toEqual([
      '_id_',
      'metric_1_start_1_series_1',
      'start_1',
    ]);
    // Not a partition to anyone who lists partitions.
    expect(await partitionNames(store)).toEqual(['rollup_hour_202611']);
  });

  it('swaps part of a partition bucket by bucket, saving what it replaced; a rerun does nothing more', async () => {
    const { store } = await stack.fresh();
    await live(store, [0, 10, 11, 12, 20]);
    const [part] = shadowPlan('hour', DAY0 + 10 * HOUR, DAY0 + 13 * HOUR, 'part-1');
    await store.prepareShadow(part!);
    // The rebuilt range: hour 10 changed, hour 11 gone, hour 12 changed, hour 13… not in range.
    await store.partition(part!.shadow).replace(buckets([10, 12], 'new'));
    const result = await store.swapShadow(part!);
    expect(result).toEqual({
      live: 'rollup_hour_202611',
      replacedCollection: 'replaced_part-1_rollup_hour_202611',
      method: 'documents',
      written: 2,
      saved: 3,
      deleted: 1,
      resumed: false,
    });
    expect(await contents(store, 'rollup_hour_202611')).toEqual([
      's:2026110100=old',
      's:2026110110=new',
      's:2026110112=new',
      's:2026110120=old',
    ]);
    expect(await contents(store, result.replacedCollection)).toEqual([
      's:2026110110=old',
      's:2026110111=old',
      's:2026110112=old',
    ]);
    expect(await names(store)).not.toContain(part!.shadow);
    const again = await store.swapShadow(part!);
    expect(again).toMatchObject({ resumed: true, written: 0, saved: 3 });
    expect(await contents(store, 'rollup_hour_202611')).toHaveLength(4);
  });

  it('resumes a swap killed after saving, and one killed after swapping but before dropping the shadow', async () => {
    const { store, db } = await stack.fresh();
    await live(store, [10, 11]);
    const [part] = shadowPlan('hour', DAY0 + 10 * HOUR, DAY0 + 12 * HOUR, 'kill-1');
    await store.prepareShadow(part!);
    await store.partition(part!.shadow).replace(buckets([10], 'new'));
    // Killed half-way through replacing: saved, hour 10 already new in the live partition.
    await store.partition('replaced_kill-1_rollup_hour_202611').replace(buckets([10, 11], 'old'));
    await db.collection(SHADOW_SWAPS_COLLECTION).insertOne({
      _id: part!.shadow as unknown as never,
      live: part!.live,
      replaced: 'replaced_kill-1_rollup_hour_202611',
      state: 'saved',
      method: 'documents',
      saved: 2,
      updatedAt: new Date(),
    });
    await store.partition(part!.live).replace(buckets([10], 'new'));
    const result = await store.swapShadow(part!);
    expect(result).toMatchObject({ saved: 2, written: 1, deleted: 1, resumed: false });
    // The saved copy is the one from before the swap, not the half-swapped live bucket.
    expect(await contents(store, result.replacedCollection)).toEqual([
      's:2026110110=old',
      's:2026110111=old',
    ]);
    expect(await contents(store, part!.live)).toEqual(['s:2026110110=new']);

    // Killed after the swap was recorded, before the shadow was dropped.
    await store.prepareShadow(part!);
    await store.partition(part!.shadow).replace(buckets([11], 'stale'));
    expect(await store.swapShadow(part!)).toMatchObject({ resumed: true, written: 0 });
    expect(await names(store)).not.toContain(part!.shadow);
    expect(await contents(store, part!.live)).toEqual(['s:2026110110=new']);
  });

  it('refuses to swap a shadow that never existed', async () => {
    const { store } = await stack.fresh();
    const [part] = shadowPlan('hour', DAY0, DAY0 + HOUR, 'none-1');
    await expect(store.swapShadow(part!)).rejects.toMatchObject({
      code: 'SHADOW_MISSING',
      retriable: false,
    });
  });

  it.each(['rename', 'documents'] as const)(
    'swaps a whole partition (%s), also when the live partition does not exist',
    async (method) => {
      const { store, db } = await stack.fresh();
      await live(store, [0, 100, 700]);
      const [part] = shadowPlan('hour', DAY0, MONTH_END, `whole-${method}`);
      expect(part!.whole).toBe(true);
      await store.prepareShadow(part!);
      await store.partition(part!.shadow).replace(buckets([0, 5], 'new'));
      const result = await store.swapShadow(part!, { method });
      expect(result).toMatchObject({ method, written: 2, saved: 3, resumed: false });
      expect(await contents(store, 'rollup_hour_202611')).toEqual([
        's:2026110100=new',
        's:2026110105=new',
      ]);
      expect(await contents(store, result.replacedCollection)).toEqual([
        's:2026110100=old',
        's:2026110504=old',
        's:2026113004=old',
      ]);
      expect(await indexNames(db, 'rollup_hour_202611')).toEqual([
        '_id_',
        'metric_1_start_1_series_1',
        'start_1',
      ]);
      expect(await store.swapShadow(part!)).toMatchObject({ resumed: true });

      // No live partition at all (dropped, or never written): the shadow simply becomes it.
      const [next] = shadowPlan(
        'hour',
        MONTH_END,
        Date.parse('2027-01-01T00:00:00Z'),
        `fresh-${method}`,
      );
      await store.prepareShadow(next!);
      await store
        .partition(next!.shadow)
        .replace([{ _id: 's:2026120100', start: new Date(MONTH_END), v: 'new' }]);
      expect(await store.swapShadow(next!, { method })).toMatchObject({
        written: 1,
        saved: 0,
        deleted: 0,
      });
      expect(await contents(store, 'rollup_hour_202612')).toEqual(['s:2026120100=new']);
      expect(await partitionNames(store)).toEqual(['rollup_hour_202611', 'rollup_hour_202612']);
    },
  );

  it('renames only where the server renames safely (not on the stand-in)', async () => {
    const { store, db } = await stack.fresh();
    const info = await db.command({ buildInfo: 1 });
    expect(store.capabilities.renamesSafely).toBe(info.gitVersion !== undefined);
    await live(store, [1]);
    const [part] = shadowPlan('hour', DAY0, MONTH_END, 'auto-1');
    await store.prepareShadow(part!);
    const result = await store.swapShadow(part!);
    expect(result.method).toBe(store.capabilities.renamesSafely ? 'rename' : 'documents');
    expect(await contents(store, 'rollup_hour_202611')).toEqual([]);
  });

  it('cleans up replaced collections and the shadows of runs that are over, keeping live runs', async () => {
    const { store, db } = await stack.fresh();
    const now = Date.parse('2026-12-10T00:00:00Z');
    const make = async (id: string, state: 'running' | 'done' | 'failed', updatedMs: number) => {
      const [part] = shadowPlan('hour', DAY0, DAY0 + HOUR, id);
      await store.startRun(
        {
          id,
          kind: 'rebuild',
          level: 'hour',
          fromMs: DAY0,
          toMs: DAY0 + HOUR,
          source: id,
          partitions: [part!.live],
        },
        updatedMs,
      );
      await store.updateRun(id, updatedMs, { state });
      await store.prepareShadow(part!);
      await store.partition(`replaced_${id}_rollup_hour_202611`).replace([{ _id: 'x' }]);
    };
    await make('done-1', 'done', now - 60_000);
    await make('failed-1', 'failed', now - 60_000);
    await make('alive-1', 'running', now - 60_000);
    await make('stale-1', 'running', now - 2 * HOUR);
    await db.createCollection('shadow_nobody-1_rollup_hour_202611');
    await db.createCollection('replaced_nobody-2_rollup_hour_202611');
    await db.createCollection('rollup_hour_202611');
    const doomed = [
      'replaced_done-1_rollup_hour_202611',
      'replaced_failed-1_rollup_hour_202611',
      'replaced_nobody-2_rollup_hour_202611',
      'replaced_stale-1_rollup_hour_202611',
      'shadow_done-1_rollup_hour_202611',
      'shadow_failed-1_rollup_hour_202611',
      'shadow_stale-1_rollup_hour_202611',
    ];
    const before = await names(store);
    expect(await store.cleanupReplaced({ dryRun: true, nowMs: now })).toEqual(doomed);
    expect(await names(store)).toEqual(before);
    expect(await store.cleanupReplaced({ nowMs: now })).toEqual(doomed);
    expect(await names(store)).toEqual([
      'replaced_alive-1_rollup_hour_202611',
      'rollup_hour_202611',
      'shadow_alive-1_rollup_hour_202611',
      'shadow_nobody-1_rollup_hour_202611',
    ]);
  });
});
