import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FoldInput } from '@tickertape/buckets';
import type { RollupStore } from '../../src/index.js';
import { PARTITION_INDEXES } from '../../src/mongo/partitions.js';
import { StoreStack } from '../support/store-stack.js';

const at = (iso: string) => Date.parse(iso);

/** Six ticks of two sensors: out of event-time order, two in one second, one across midnight. */
function ticks(): FoldInput[] {
  const rows: [string, string, number, string][] = [
    ['s1', '2026-11-21T23:59:10.500Z', 60, 'rain'],
    ['s1', '2026-11-21T23:59:05.000Z', 64, 'clear'], // earlier event, later offset
    ['s1', '2026-11-21T23:59:10.900Z', 58, 'rain'], // same second as the first: last wins
    ['s2', '2026-11-21T23:59:30.000Z', 41, 'snow'],
    ['s1', '2026-11-22T00:00:01.000Z', 55, 'rain'], // next minute, next day, next partition
    ['s2', '2026-11-21T23:59:30.000Z', 43, 'snow'], // same instant as offset 3: offset breaks the tie
  ];
  return rows.map(([sensor, ts, speed, weather], offset) => ({
    seriesKey: `speed|sensor=${sensor}`,
    metric: 'speed',
    tags: { sensor },
    ts: at(ts),
    fields: { speed },
    strings: { weather },
    kafkaPartition: 0,
    offset,
  }));
}

const mark = (iso: string, o: number, v: number | string) => ({ t: at(iso), o, v });

/** The three buckets, computed by hand from the six ticks above. */
const expected = {
  'rollup_minute_20261121/speed|sensor=s1:202611212359': {
    n: 3,
    ap: { '0': 2 },
    f: {
      speed: {
        n: 3,
        sum: 182,
        sq: 64 ** 2 + 60 ** 2 + 58 ** 2,
        sqn: 3,
        min: 58,
        max: 64,
        first: mark('2026-11-21T23:59:05.000Z', 1, 64),
        last: mark('2026-11-21T23:59:10.900Z', 2, 58),
        sec: { '5': 64, '10': 118 },
      },
    },
    c: { speed: { '5': 1, '10': 2 } },
    s: {
      weather: {
        first: mark('2026-11-21T23:59:05.000Z', 1, 'clear'),
        last: mark('2026-11-21T23:59:10.900Z', 2, 'rain'),
      },
    },
  },
  'rollup_minute_20261121/speed|sensor=s2:202611212359': {
    n: 2,
    ap: { '0': 5 },
    f: {
      speed: {
        n: 2,
        sum: 84,
        sq: 41 ** 2 + 43 ** 2,
        sqn: 2,
        min: 41,
        max: 43,
        first: mark('2026-11-21T23:59:30.000Z', 3, 41),
        last: mark('2026-11-21T23:59:30.000Z', 5, 43),
        sec: { '30': 84 },
      },
    },
    c: { speed: { '30': 2 } },
    s: {
      weather: {
        first: mark('2026-11-21T23:59:30.000Z', 3, 'snow'),
        last: mark('2026-11-21T23:59:30.000Z', 5, 'snow'),
      },
    },
  },
  'rollup_minute_20261122/speed|sensor=s1:202611220000': {
    n: 1,
    ap: { '0': 4 },
    f: {
      speed: {
        n: 1,
        sum: 55,
        sq: 55 ** 2,
        sqn: 1,
        min: 55,
        max: 55,
        first: mark('2026-11-22T00:00:01.000Z', 4, 55),
        last: mark('2026-11-22T00:00:01.000Z', 4, 55),
        sec: { '1': 55 },
      },
    },
    c: { speed: { '1': 1 } },
    s: {
      weather: {
        first: mark('2026-11-22T00:00:01.000Z', 4, 'rain'),
        last: mark('2026-11-22T00:00:01.000Z', 4, 'rain'),
      },
    },
  },
};

async function buckets(store: RollupStore): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const collection of ['rollup_minute_20261121', 'rollup_minute_20261122']) {
    for await (const doc of store.partition(collection).scan()) {
      const { _id, series: _s, metric: _m, tags: _t, level: _l, start: _st, ...data } = doc;
      out[`${collection}/${_id}`] = data;
    }
  }
  return out;
}

describe('RollupWriter (minute level) on the real database', () => {
  let stack: StoreStack;

  beforeAll(async () => {
    stack = await StoreStack.open('store');
  });
  afterAll(() => stack.close());

  it('writes one guarded upsert per bucket, into its day partition, with exact values', async () => {
    const { store, db } = await stack.fresh();
    const stats = await store.writer('minute').apply(ticks());
    expect(stats).toEqual({ buckets: 3, operations: 3, bulkWrites: 2, conflicts: 0, skipped: 0 });
    expect(await buckets(store)).toEqual(expected);

    const [doc] = await store
      .partition('rollup_minute_20261121')
      .byIds(['speed|sensor=s1:202611212359']);
    expect(doc).toMatchObject({
      series: 'speed|sensor=s1',
      metric: 'speed',
      tags: { sensor: 's1' },
      level: 'minute',
      start: new Date(at('2026-11-21T23:59:00Z')),
    });
    const indexes = (await db.collection('rollup_minute_20261122').listIndexes().toArray()).map(
      (i: { name?: unknown }) => String(i.name),
    );
    expect(indexes).toEqual(expect.arrayContaining(PARTITION_INDEXES.map((i) => i.name)));
  });

  it('leaves every bucket unchanged when the same flush is replayed', async () => {
    const { store } = await stack.fresh();
    const writer = store.writer('minute');
    await writer.apply(ticks());
    const replay = await writer.apply(ticks());
    expect(replay.conflicts).toBe(3);
    expect(replay.operations).toBe(3); // nothing left to re-apply after reading the marks
    expect(await buckets(store)).toEqual(expected);
  });

  it('gives the same buckets when redelivery splits the batches differently', async () => {
    const { store } = await stack.fresh();
    const writer = store.writer('minute');
    const all = ticks();
    await writer.apply(all.slice(0, 2)); // crash after writing offsets 0-1, before the commit
    await writer.apply(all.slice(0, 4)); // redelivered from 0 with a longer batch
    const last = await writer.apply([...all.slice(3), all[3]!]); // overlaps again, with an in-batch duplicate
    expect(last.conflicts).toBe(1); // s2's bucket already holds offset 3
    expect(await buckets(store)).toEqual(expected);
  });

  it('adds to a bucket that exists without an applied mark (e.g. a preallocated shell)', async () => {
    const { store } = await stack.fresh();
    await store.partition('rollup_minute_20261122').replace([
      {
        _id: 'speed|sensor=s1:202611220000',
        series: 'speed|sensor=s1',
        metric: 'speed',
        tags: { sensor: 's1' },
        level: 'minute',
        start: new Date(at('2026-11-22T00:00:00Z')),
        n: 0,
      },
    ]);
    await store.writer('minute').apply(ticks());
    expect(await buckets(store)).toEqual(expected);
  });
});
