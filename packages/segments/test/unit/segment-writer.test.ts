import { describe, expect, it } from '@jest/globals';
import type { FoldInput } from '@tickertape/buckets';
import { SegmentConflictError, SegmentWriter } from '../../src/index.js';
import { MemorySegmentStore } from '../support/memory-segment-store.js';

const T0 = Date.parse('2026-11-21T10:00:00Z');
const options = { maxPoints: 300, writeOnlyOnChange: new Set<string>() };

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

const onPartition = (inputs: FoldInput[], partition: number) =>
  inputs.map((t) => ({ ...t, kafkaPartition: partition }));

describe('SegmentWriter over the SegmentStore port', () => {
  it('coalesces a flush into one operation per segment touched, then appends to the newest', async () => {
    const store = new MemorySegmentStore();
    const writer = new SegmentWriter(store, options);
    const first = await writer.apply(ticks('burst', 1000, 0, 1));
    expect(first).toMatchObject({ points: 1000, created: 4, operations: 4, split: [] });
    const next = await writer.apply([{ ...ticks('burst', 1, 1000)[0]!, ts: T0 + 3 * 3_600_000 }]);
    expect(next).toMatchObject({ points: 1, created: 0, operations: 1 });
    expect(store.segmentsOf('burst').map((s) => s.n)).toEqual([300, 300, 300, 101]);
  });

  it('starts from the stored heads after a restart: a redelivered flush is all replays', async () => {
    const store = new MemorySegmentStore();
    await new SegmentWriter(store, options).apply(ticks('replayed', 10));
    const restarted = new SegmentWriter(store, options);
    expect(await restarted.apply(ticks('replayed', 12))).toMatchObject({
      points: 2,
      replayed: 10,
      created: 0,
      operations: 1,
    });
    expect(store.segmentsOf('replayed').flatMap((s) => s.v.map((v) => v.value))).toEqual([
      ...Array(12).keys(),
    ]);
  });

  it('counts a split once when two partitions flush their first ticks side by side', async () => {
    const store = new MemorySegmentStore();
    const writer = new SegmentWriter(store, options);
    const stats = await Promise.all([
      writer.apply(onPartition(ticks('side-by-side', 3), 0)),
      writer.apply(onPartition(ticks('side-by-side', 3), 1)),
    ]);
    expect(stats.flatMap((s) => s.split)).toEqual([
      { series: 'side-by-side', partition: 1, others: [0] },
    ]);
  });

  it('counts a split against a chain only the store knows (a writer that never saw it)', async () => {
    const store = new MemorySegmentStore();
    await new SegmentWriter(store, options).apply(onPartition(ticks('stored-split', 3), 2));
    const stats = await new SegmentWriter(store, options).apply(
      onPartition(ticks('stored-split', 3, 0, 1500), 5),
    );
    expect(stats.split).toEqual([{ series: 'stored-split', partition: 5, others: [2] }]);
    expect(new Set(store.segmentsOf('stored-split').map((s) => s.p))).toEqual(new Set([2, 5]));
  });

  it('is refused when its cached head is stale, and its retry applies only what is new', async () => {
    const store = new MemorySegmentStore();
    const live = new SegmentWriter(store, options);
    const zombie = new SegmentWriter(store, options);
    await live.apply(ticks('contended', 5));
    await zombie.apply(ticks('contended', 5)); // reads the head: everything is a replay
    await live.apply(ticks('contended', 10).slice(5));
    const before = structuredClone(store.segmentsOf('contended'));
    await expect(zombie.apply(ticks('contended', 12).slice(5))).rejects.toBeInstanceOf(
      SegmentConflictError,
    );
    expect(store.segmentsOf('contended')).toEqual(before);
    await zombie.apply(ticks('contended', 12).slice(5));
    expect(store.segmentsOf('contended').flatMap((s) => s.v.map((v) => v.value))).toEqual([
      ...Array(12).keys(),
    ]);
  });

  it('reads the heads again after forget (a rebalance), so another owner’s writes are not redone', async () => {
    const store = new MemorySegmentStore();
    const a = new SegmentWriter(store, options);
    const b = new SegmentWriter(store, options);
    await a.apply(ticks('moved', 4));
    await b.apply(ticks('moved', 8)); // b took the partition over: 4 replays, 4 new
    a.forget(); // a got it back
    expect(await a.apply(ticks('moved', 9))).toMatchObject({ replayed: 8, points: 1 });
    expect(store.segmentsOf('moved').reduce((n, s) => n + s.n, 0)).toBe(9);
  });
});
