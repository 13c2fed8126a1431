/**
 * One series on two Kafka partitions — what a producer with another partitioner (librdkafka's
 * default consistent_random beside our murmur2 SDK) does — on the real workers and stack:
 * rollups stay exact (an applied mark per partition; first/last ties on time and offset broken
 * by value), the segment store keeps a chain per partition and counts the split, and the
 * checker finds no difference. Rebuilding everything from offset 0 with other flush boundaries
 * and a worker killed between write and commit gives the same documents, byte for byte.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { storesOf } from '@tickertape/store';
import { bucketId, partitionOf } from '@tickertape/buckets';
import { dayOf, segmentCollection, type SegmentDocument } from '@tickertape/segments';
import { TestStack, waitFor } from '@tickertape/testing';
import { seriesKey, type Tick } from '@tickertape/tick';
import { Partitioners } from 'kafkajs';
import type { Db, Document } from 'mongodb';
import { Pipeline, STORES } from '../support/pipeline.js';

const MINUTE = 60_000;
const N = 40;
const MIXED = { metric: 'traffic', tags: { sensor: 'mixed' } };
const SOLO = { metric: 'traffic', tags: { sensor: 'solo' } };

interface Placed {
  partition: number;
  tick: Tick;
}

/**
 * The mixed series on partitions 0 and 1, record i of each at offset i: at even i both at the
 * same time — a tie on time *and* offset, broken by value — at odd i partition 1's a little
 * earlier, so the two chains interleave. Partition 1 ends with a tick older than its own last
 * (late for its chain, counted by the rollups). A keyed series alone on partition 2 beside them.
 * Integer values only: sums are then exact in any grouping, and rebuilt documents equal.
 */
function placedTicks(start: number): Placed[] {
  const placed: Placed[] = [];
  const tick = (series: typeof MIXED, ts: number, speed: number, state: string): Tick => ({
    ...series,
    ts,
    fields: { speed },
    strings: { state },
    source: 'mixed-test',
  });
  for (let i = 0; i < N; i++) {
    const ts = start + i * 5000;
    // At a tie the smaller value (first) is partition 1's, the larger (last) partition 0's:
    // not the order the partitions are read in.
    placed.push({ partition: 0, tick: tick(MIXED, ts, 2 * i + 1, 'b') });
    placed.push({ partition: 1, tick: tick(MIXED, i % 2 === 0 ? ts : ts - 2500, 2 * i, 'a') });
    placed.push({ partition: 2, tick: tick(SOLO, ts + 1, i, 'c') });
  }
  placed.push({ partition: 1, tick: tick(MIXED, start + 1000, 999, 'late') });
  return placed;
}

/** Every document of every collection, by collection and `_id`. */
async function snapshot(db: Db): Promise<Record<string, Document[]>> {
  const out: Record<string, Document[]> = {};
  const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
  for (const name of names.sort())
    out[name] = await db.collection(name).find({}).sort({ _id: 1 }).toArray();
  return out;
}

describe('one series on two partitions (mixed partitioners)', () => {
  let stack: TestStack;
  let db: Db;
  let pipeline: Pipeline;
  let start: number;
  let placed: Placed[];

  beforeAll(async () => {
    stack = await TestStack.open('mixed-partitioners');
    const opened = await Pipeline.open(stack, 3);
    const { topic, codec } = opened;
    ({ db, pipeline } = opened);
    start = Math.floor(Date.now() / MINUTE) * MINUTE - 5 * MINUTE;
    placed = placedTicks(start);
    const producer = stack.kafka.producer({
      createPartitioner: Partitioners.DefaultPartitioner,
      idempotent: true,
      maxInFlightRequests: 1,
    });
    await producer.connect();
    await producer.send({
      topic,
      acks: -1,
      messages: await Promise.all(
        placed.map(async ({ partition, tick }) => ({
          partition,
          key: seriesKey(tick.metric, tick.tags),
          value: await codec.encode(tick),
        })),
      ),
    });
    await producer.disconnect();
  }, 60_000);

  afterAll(async () => {
    await pipeline.stop();
    await stack.close();
  });

  let first: Record<string, Document[]>;

  it('rolls up exactly, keeps a chain per partition, counts the split; the checker agrees', async () => {
    await pipeline.start();
    const { code, report } = await pipeline.verify();
    expect(report.differences).toEqual([]);
    expect(code).toBe(0);
    expect(report.tally.valid).toBe(placed.length);
    const segments = report.stores.find((s) => s.store === 'segments');
    // Every tick a raw point but partition 1's late one.
    expect(segments).toMatchObject({ expected: 3 * N, stored: 3 * N, differences: 0 });

    // The first minute's bucket: applied marks of both partitions; at the tie on time and
    // offset 0 the smaller value (partition 1's) is first; the late tick is counted.
    const mixed = seriesKey(MIXED.metric, MIXED.tags);
    const minute = await db
      .collection<Document & { _id: string }>(partitionOf('minute', start).name)
      .findOne({ _id: bucketId('minute', mixed, start) });
    expect(minute).toMatchObject({
      ap: { 0: 11, 1: N },
      f: { speed: { first: { t: start, o: 0, v: 0 } } },
      s: { state: { first: { t: start, o: 0, v: 'a' } } },
    });
    expect(minute!.n).toBe(12 + 12 + 1);

    // Two chains, each holding its partition's points, read back merged in time order.
    const stored = await db
      .collection<SegmentDocument>(segmentCollection(dayOf(start)))
      .find({ series: mixed })
      .toArray();
    expect(new Set(stored.map((s) => s.p))).toEqual(new Set([0, 1]));
    const read = await (
      await storesOf(db)
    ).segments.readPoints(
      { series: mixed, fromMs: start - MINUTE, toMs: start + 10 * MINUTE },
      { maxDocuments: 100 },
    );
    expect(read.points).toHaveLength(2 * N);
    expect(read.points.map((p) => p.t)).toEqual(read.points.map((p) => p.t).sort((a, b) => a - b));
    expect(await pipeline.metric('segments', 'tickertape_segment_series_split_total')).toBe(1);
    expect(await pipeline.metric('segments', 'tickertape_segment_late_total')).toBe(1);
    first = await snapshot(db);
  }, 180_000);

  it('rebuilds the same documents from offset 0 with other flushes and a worker killed before its commit', async () => {
    await pipeline.stop();
    await db.dropDatabase();
    await pipeline.replayAll();
    // Every worker writes one flush of at most 7 ticks, then kills itself before committing it.
    await pipeline.start(STORES, { FLUSH_MAX_TICKS: '7', FAULT_CRASH_AFTER_WRITES: '1' }, false);
    await waitFor(
      () => STORES.every((store) => pipeline.worker(store)?.child.signalCode === 'SIGKILL'),
      {
        description: 'every worker to kill itself after its first write',
        timeoutMs: 90_000,
      },
    );
    await pipeline.stop();
    await pipeline.start(STORES, { FLUSH_MAX_TICKS: '7' });
    const { code, report } = await pipeline.verify();
    expect(report.differences).toEqual([]);
    expect(code).toBe(0);
    expect(await snapshot(db)).toEqual(first);
    // Replayed from 0 on top of what is there: nothing changes, nothing new is counted.
    await pipeline.stop();
    await pipeline.replayAll();
    await pipeline.start();
    expect((await pipeline.verify()).report.differences).toEqual([]);
    expect(await snapshot(db)).toEqual(first);
    expect(await pipeline.metric('segments', 'tickertape_segment_series_split_total')).toBe(0);
    // Partition 1's late tick was never applied, so it is judged late again, not replayed.
    expect(await pipeline.metric('segments', 'tickertape_segment_replayed_total')).toBe(3 * N);
    expect(await pipeline.metric('segments', 'tickertape_segment_late_total')).toBe(1);
  }, 300_000);
});
