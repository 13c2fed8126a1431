import { describe, expect, it } from '@jest/globals';
import { partitionOf } from '@tickertape/buckets';
import type { BucketRecord } from '../../src/port/index.js';
import { canonical, storesFor, type OpenStore } from './open-store.js';
import { SERIES, T0, tick } from './ticks.js';

const record = (id: string, start: number, n: number): BucketRecord => ({
  _id: id,
  series: id.split(':')[0],
  metric: 'spd',
  tags: {},
  level: 'hour',
  start: new Date(start),
  n,
});

export function partitionsContract(open: OpenStore): void {
  const stores = storesFor(open);

  describe('partitions', () => {
    it('are created once, listed, and found by writers', async () => {
      const store = await stores.use();
      const range = partitionOf('hour', T0);
      expect(await store.ensurePartition(range)).toBe(true);
      expect(await store.ensurePartition(range)).toBe(false);
      expect(await store.listPartitions()).toEqual([range]);
      await store.writer('day').apply([tick(0, T0, 0, { speed: 1 })]);
      const names = (await store.listPartitions()).map((p) => p.name).sort();
      expect(names).toEqual([partitionOf('day', T0).name, range.name].sort());
      expect(await store.listNames()).toEqual(expect.arrayContaining(names));
    });

    it('report what each collection holds: documents, data and index bytes', async () => {
      const store = await stores.use();
      await store
        .writer('hour')
        .apply([
          tick(0, T0, 0, { speed: 1 }),
          tick(1, T0, 1, { speed: 2 }),
          tick(2, T0, 2, { speed: 3 }),
        ]);
      const name = partitionOf('hour', T0).name;
      const stats = await store.storageStats();
      expect(stats.map((s) => s.name)).toEqual([...stats.map((s) => s.name)].sort());
      const partition = stats.find((s) => s.name === name);
      expect(partition).toMatchObject({
        kind: 'buckets',
        documents: await store.partition(name).count(),
      });
      expect(partition!.documents).toBeGreaterThan(0);
      expect(partition!.dataBytes).toBeGreaterThan(0);
      expect(partition!.indexBytes).toBeGreaterThan(0);
      expect(partition!.indexSampled).toBe(partition!.documents);
      expect(stats.some((s) => s.name.startsWith('system.'))).toBe(false);
    });

    it('hold whole bucket records: count, scan, byIds, replace, drop', async () => {
      const store = await stores.use();
      const name = partitionOf('hour', T0).name;
      const buckets = store.partition(name);
      const records = [
        record('b:2026112123', T0, 2),
        record('a:2026112123', T0, 0),
        record('a:2026112122', T0 - 3_600_000, 5),
      ];
      await buckets.replace(records);
      expect(await buckets.count()).toBe(3);
      expect(await buckets.count({ fromMs: T0, toMs: T0 + 1 })).toBe(2);
      expect(await buckets.count({ fromMs: T0, toMs: T0 + 1, withTicks: true })).toBe(1);
      const scanned: BucketRecord[] = [];
      for await (const each of buckets.scan(undefined, { inIdOrder: true })) scanned.push(each);
      expect(scanned.map((r) => r._id)).toEqual(['a:2026112122', 'a:2026112123', 'b:2026112123']);
      expect(canonical(scanned[0])).toEqual(canonical(records[2]));
      const found = await buckets.byIds(['b:2026112123', 'nothing']);
      expect(found.map((r) => r._id)).toEqual(['b:2026112123']);
      await buckets.replace([{ ...record('b:2026112123', T0, 9), extra: 'kept' }]);
      const [replaced] = await buckets.byIds(['b:2026112123']);
      expect(replaced).toMatchObject({ n: 9, extra: 'kept' });
      expect(await buckets.drop()).toBe(true);
      expect(await buckets.drop()).toBe(false);
      expect(await buckets.count()).toBe(0);
      expect(await store.listNames()).not.toContain(name);
    });

    it('hand out copies: changing a record read changes nothing stored', async () => {
      const store = await stores.use();
      await store.writer('hour').apply([tick(0, T0, 0, { speed: 1 })]);
      const buckets = store.partition(partitionOf('hour', T0).name);
      const [read] = await buckets.byIds([`${SERIES[0].seriesKey}:2026112123`]);
      expect(read).toBeDefined();
      read!.n = 99;
      const [again] = await buckets.byIds([`${SERIES[0].seriesKey}:2026112123`]);
      expect(again?.n).toBe(1);
    });
  });
}
