import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FoldInput } from '@tickertape/buckets';
import { LevelPolicySource, type BucketRecord, type RollupStore } from '../../src/index.js';
import { StoreStack } from '../support/store-stack.js';

const T0 = Date.parse('2026-11-21T10:00:00Z');

/** One tick a minute from minute `first` on; each metric on a Kafka partition of its own. */
function ticks(metric: string, count: number, first: number): FoldInput[] {
  return Array.from({ length: count }, (_, i) => ({
    seriesKey: metric,
    metric,
    tags: {},
    ts: T0 + (first + i) * 60_000,
    fields: { value: i },
    strings: {},
    kafkaPartition: metric === 'sparse' ? 0 : 1,
    offset: first + i,
  }));
}

describe('the level policy on the real database', () => {
  let stack: StoreStack;
  let store: RollupStore;

  beforeAll(async () => {
    stack = await StoreStack.open('level-policy');
    ({ store } = await stack.fresh());
  });
  afterAll(() => stack.close());

  it('is stored per level, and refuses a change that would store a metric nowhere', async () => {
    expect((await store.readLevelPolicy()).isEmpty).toBe(true);
    await store.changeLevelPolicy('minute', ['mms.cpu', 'sparse'], 'skip', T0);
    await store.changeLevelPolicy('hour', ['sparse'], 'skip', T0);
    await expect(store.changeLevelPolicy('day', ['sparse'], 'skip', T0)).rejects.toThrow(
      'metric sparse skips every level',
    );
    await store.changeLevelPolicy('hour', ['sparse'], 'full', T0);
    const policy = await store.readLevelPolicy();
    expect(policy.metricsAt('minute', 'skip')).toEqual(['mms.cpu', 'sparse']);
    expect(policy.metricsAt('hour', 'skip')).toEqual([]);
    expect(policy.metricsAt('day', 'skip')).toEqual([]);
    await store.changeLevelPolicy('minute', ['mms.cpu', 'sparse'], 'full', T0);
  });

  it('a writer leaves out the metrics its level skips, counts them, and follows a change', async () => {
    let now = T0;
    const policy = new LevelPolicySource(store, 1000, () => now);
    const minute = store.writer('minute', { policy });
    const hour = store.writer('hour', { policy: new LevelPolicySource(store, 0) });
    await store.changeLevelPolicy('minute', ['sparse'], 'skip', now);
    const flush = [...ticks('sparse', 3, 0), ...ticks('dense', 2, 0)];
    expect(await minute.apply(flush)).toMatchObject({ buckets: 2, skipped: 3 });
    expect(await hour.apply(flush)).toMatchObject({ buckets: 2, skipped: 0 });

    const all = async (name: string) => {
      const records: BucketRecord[] = [];
      for await (const record of store.partition(name).scan()) records.push(record);
      return records;
    };
    const minuteIds = async () => (await all('rollup_minute_20261121')).map((d) => d._id).sort();
    expect(await minuteIds()).toEqual(['dense:202611211000', 'dense:202611211001']);
    const sparseHour = (await all('rollup_hour_202611')).find((d) => d.series === 'sparse');
    expect(sparseHour).toMatchObject({ n: 3, f: { value: { n: 3, sum: 3 } } });

    // Kept again: the cached policy holds until it is a second old, then the next flush writes.
    await store.changeLevelPolicy('minute', ['sparse'], 'full', now);
    expect(await minute.apply(ticks('sparse', 1, 3))).toMatchObject({ skipped: 1 });
    now += 1000;
    expect(await minute.apply(ticks('sparse', 1, 4))).toMatchObject({ buckets: 1, skipped: 0 });
    expect(await minuteIds()).toContain('sparse:202611211004');
  });

  it("measures each metric's density from a level's buckets: ticks per series per minute while it sends", async () => {
    const { store: fresh } = await stack.fresh();
    const hour = fresh.writer('hour');
    const sparse = Array.from({ length: 120 }, (_, i) => ({
      ...ticks('sparse', 1, i)[0]!,
      seriesKey: `sparse|host=${i % 2}`,
      offset: i,
    }));
    // Two series of a denser metric, ten ticks a minute, in the second hour only.
    const dense = Array.from({ length: 1200 }, (_, i) => ({
      ...ticks('dense', 1, 0)[0]!,
      seriesKey: `dense|sensor=${i % 2}`,
      ts: T0 + 60 * 60_000 + i * 3000,
      offset: i,
    }));
    await hour.apply([...sparse, ...dense]);
    const densities = await fresh.metricDensities('hour', T0, T0 + 2 * 60 * 60_000);
    expect(densities).toEqual([
      { metric: 'dense', series: 2, buckets: 2, ticks: 1200, perMinute: 10 },
      { metric: 'sparse', series: 2, buckets: 4, ticks: 120, perMinute: 0.5 },
    ]);
    // Only the slots that start in the span; a span without partitions measures nothing.
    expect(
      (await fresh.metricDensities('hour', T0, T0 + 60 * 60_000)).map((d) => d.metric),
    ).toEqual(['sparse']);
    expect(await fresh.metricDensities('hour', T0 - 86_400_000 * 60, T0 - 86_400_000 * 40)).toEqual(
      [],
    );
  });

  it('reads a minute document from before pins, and pins in one write the writers follow slot by slot', async () => {
    const { store: fresh, db } = await stack.fresh();
    const M = 60_000;
    // As the auto-skip job wrote it before pins existed.
    const raw = db.collection<{ _id: string } & Record<string, unknown>>('level_policy');
    await raw.insertOne({
      _id: 'minute',
      skip: ['other'],
      compact: [],
      auto: [{ metric: 'sparse', from: new Date(T0) }],
      updatedAt: new Date(T0),
    });
    const before = await fresh.readLevelPolicy();
    expect(before.pinnedMetrics()).toEqual([]);
    expect(before.autoSkipping('minute', 'sparse')).toBe(true);

    await fresh.changePins({ kind: 'pin', metrics: ['sparse'], untilMs: T0 + 3 * M }, T0);
    expect(await raw.findOne({ _id: 'minute' })).toMatchObject({
      skip: ['other'],
      pinned: ['sparse'],
      auto: [{ metric: 'sparse', from: new Date(T0), until: new Date(T0 + 3 * M) }],
    });
    // A writer that reads the pinned policy leaves out the span's minutes only.
    const minute = fresh.writer('minute', { policy: new LevelPolicySource(fresh, 0) });
    expect(await minute.apply(ticks('sparse', 5, 0))).toMatchObject({ buckets: 2, skipped: 3 });
    const written: string[] = [];
    for await (const record of fresh.partition('rollup_minute_20261121').scan())
      written.push(record._id);
    expect(written.sort()).toEqual(['sparse:202611211003', 'sparse:202611211004']);
  });
});
