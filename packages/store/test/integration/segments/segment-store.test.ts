import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FoldInput } from '@tickertape/buckets';
import { TestStack } from '@tickertape/testing';
import {
  SegmentConflictError,
  SegmentWriter,
  type SegmentDocument,
  type SegmentStore,
} from '@tickertape/segments';
import { mongoSegmentStore } from '../../../src/index.js';
import { testDatabase } from '../../../src/mongo/test-database.js';

const T0 = Date.parse('2026-11-21T10:00:00Z');

function ticks(series: string, count: number, firstOffset = 0, spacingMs = 1000): FoldInput[] {
  return Array.from({ length: count }, (_, i) => ({
    seriesKey: series,
    metric: 'm',
    tags: {},
    ts: T0 + i * spacingMs,
    fields: { value: i },
    strings: {},
    kafkaPartition: 0,
    offset: firstOffset + i,
  }));
}

/** A series' segments, scanned day by day through the store: in id order within a day. */
async function storedOf(store: SegmentStore, series: string): Promise<SegmentDocument[]> {
  const segments: SegmentDocument[] = [];
  for (const day of await store.listDays())
    for await (const segment of store.scanDay(day))
      if (segment.series === series) segments.push(segment);
  return segments;
}

describe('the segment store on MongoDB, through SegmentWriter', () => {
  let stack: TestStack;
  let store: SegmentStore;
  const options = { maxPoints: 300, writeOnlyOnChange: new Set<string>() };
  const stored = (series: string) => storedOf(store, series);

  beforeAll(async () => {
    stack = await TestStack.open('segment-writer');
    store = mongoSegmentStore(testDatabase(stack));
  });
  afterAll(() => stack.close());

  it('coalesces a flush into one operation per segment touched', async () => {
    const writer = new SegmentWriter(store, options);
    const first = await writer.apply(ticks('burst', 1000, 0, 1)); // 1000 points in one second
    expect(first).toMatchObject({ points: 1000, created: 4, operations: 4 });
    const next = await writer.apply([{ ...ticks('burst', 1, 1000)[0]!, ts: T0 + 3 * 3_600_000 }]); // hours later
    expect(next).toMatchObject({ points: 1, created: 0, operations: 1 }); // appended to the open segment
    expect((await stored('burst')).map((s) => s.n)).toEqual([300, 300, 300, 101]);
  });

  it('counts a split once when two partitions flush their first ticks of a series side by side', async () => {
    const writer = new SegmentWriter(store, options);
    const onPartition = (partition: number) =>
      ticks('side-by-side', 3, 0, 1000 + partition).map((t) => ({
        ...t,
        kafkaPartition: partition,
      }));
    // A worker flushes its partitions concurrently (one promise chain each).
    const stats = await Promise.all([writer.apply(onPartition(0)), writer.apply(onPartition(1))]);
    expect(stats.flatMap((s) => s.split)).toEqual([
      { series: 'side-by-side', partition: 1, others: [0] },
    ]);
    expect((await stored('side-by-side')).map((s) => s.p).sort()).toEqual([0, 1]);
  });

  it('refuses a stale writer (a zombie after a rebalance) instead of writing twice', async () => {
    const live = new SegmentWriter(store, options);
    const zombie = new SegmentWriter(store, options);
    await live.apply(ticks('contended', 5));
    await zombie.apply(ticks('contended', 5)); // reads the head: everything is a replay
    await live.apply(ticks('contended', 10).slice(5));
    const before = await stored('contended');
    // The zombie's cached head is behind: its append is refused by the offset guard.
    await expect(zombie.apply(ticks('contended', 12).slice(5))).rejects.toBeInstanceOf(
      SegmentConflictError,
    );
    expect(await stored('contended')).toEqual(before);
    // After the refusal it reads the head again, and the retry applies only what is new.
    await zombie.apply(ticks('contended', 12).slice(5));
    expect((await stored('contended')).flatMap((s) => s.v.map((v) => v.value))).toEqual([
      ...Array(12).keys(),
    ]);
  });

  it('reads one field: points without it are left out, neighbours are the nearest that carry it', async () => {
    const writer = new SegmentWriter(store, { maxPoints: 2, writeOnlyOnChange: new Set() });
    const fields: Record<string, number>[] = [
      { x: 1, y: 10 },
      { x: 2 },
      { x: 3 },
      { x: 4, y: 40 },
      { x: 5 },
      { x: 6 },
      { x: 7, y: 70 },
    ];
    await writer.apply(
      fields.map((f, i) => ({ ...ticks('sparse', 1, i)[0]!, ts: T0 + i * 1000, fields: f })),
    );
    const y = await store.readPoints(
      { series: 'sparse', fromMs: T0 + 1000, toMs: T0 + 6000, field: 'y' },
      { maxDocuments: 100 },
    );
    expect(y).toMatchObject({
      points: [{ t: T0 + 3000, v: { y: 40 } }],
      before: { t: T0, v: { y: 10 } },
      after: { t: T0 + 6000, v: { y: 70 } },
    });
    const x = await store.readPoints(
      { series: 'sparse', fromMs: T0 + 1000, toMs: T0 + 2000, field: 'x' },
      { maxDocuments: 100 },
    );
    expect(x).toMatchObject({
      points: [{ t: T0 + 1000, v: { x: 2 } }],
      before: { t: T0 },
      after: { t: T0 + 2000 },
    });
  });

  it('refuses a read over budget before reading', async () => {
    await expect(
      store.readPoints({ series: 'burst', fromMs: T0, toMs: T0 + 1000 }, { maxDocuments: 3 }),
    ).rejects.toMatchObject({ code: 'SEGMENT_READ_BUDGET_EXCEEDED', retriable: false });
  });

  it('lists, ensures and drops days: retention lets go of a day past retention and lateness', async () => {
    const days = mongoSegmentStore(testDatabase(stack));
    for (const day of ['20261120', '20261101', '20261120']) await days.ensureDay(day);
    expect(await days.listDays()).toEqual(['20261101', '20261120']);
    const now = Date.parse('2026-11-21T12:00:00Z');
    const policy = { retentionMs: 7 * 86_400_000, latenessMs: 3_600_000 };
    expect(await days.applyRetention(now, policy, true)).toEqual({
      wouldDrop: ['segments_20261101'],
      dropped: [],
    });
    expect(await days.listDays()).toEqual(['20261101', '20261120']);
    expect(await days.applyRetention(now, policy, false)).toEqual({
      wouldDrop: ['segments_20261101'],
      dropped: ['segments_20261101'],
    });
    expect(await days.listDays()).toEqual(['20261120']);
  });
});
