import { describe, expect, it } from '@jest/globals';
import { bucketId, foldBatch, slotStart, type FoldInput, type Level } from '@tickertape/buckets';
import { guardedUpdate } from '@tickertape/store';
import { applyGuarded, type Doc } from '@tickertape/testing';
import fc from 'fast-check';
import { flushCause, PartitionHold, room, type HoldLimits } from '../../src/held-ticks.js';

/**
 * The worker's holding protocol (held-ticks.ts, as RollupConsumer drives it) against the fold and
 * the guard, without a server: one Kafka partition's records arrive in fetches of any size and
 * spacing, are held across fetches until the freshness budget, FLUSH_MAX_TICKS or the end of the
 * run, and meanwhile the worker is rebalanced (holds dropped, consumption resumes from the last
 * commit), crashes after a write and before its commit, or fails a write. Whatever happens, the
 * buckets equal one flush of every record, and no commit ever covers a record not yet written.
 */

const T0 = Date.UTC(2026, 10, 25, 9, 0, 0);
const SERIES = ['spd|seg=I80_01', 'spd|seg=I80_02', 'px|sym=ACME'] as const;
const PARTITION = 2;

const recordsArb = fc
  .array(
    fc.record({
      series: fc.constantFrom(...SERIES),
      dt: fc.integer({ min: 0, max: 2 * 3_600_000 }),
      // Integers keep sums exact however flushes group them.
      speed: fc.integer({ min: -1000, max: 1000 }),
      // One record in ten cannot be decoded.
      bad: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
    }),
    { minLength: 1, maxLength: 150 },
  )
  .map((rows) =>
    rows.map((row, offset) =>
      row.bad
        ? undefined // a dead letter: consumed, committed, never folded
        : ({
            seriesKey: row.series,
            metric: row.series.split('|')[0]!,
            tags: { key: row.series },
            ts: T0 + row.dt,
            fields: { speed: row.speed },
            strings: {},
            kafkaPartition: PARTITION,
            offset,
          } satisfies FoldInput),
    ),
  );

type Event =
  | { kind: 'fetch'; records: number; gapMs: number }
  | { kind: 'timer'; gapMs: number }
  | { kind: 'rebalance' }
  | { kind: 'crash-after-write' }
  | { kind: 'failed-write' };

const eventArb: fc.Arbitrary<Event> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('fetch' as const),
      records: fc.integer({ min: 1, max: 40 }),
      gapMs: fc.integer({ min: 0, max: 3000 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('timer' as const),
      gapMs: fc.integer({ min: 0, max: 6000 }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'rebalance' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'crash-after-write' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'failed-write' as const }) },
);

const limitsArb: fc.Arbitrary<HoldLimits> = fc.record({
  budgetMs: fc.constantFrom(0, 500, 2000, 5000, 60_000),
  flushMaxTicks: fc.integer({ min: 1, max: 200 }),
});

/** The writer's protocol: guarded update; on a duplicate key, re-fold only what is newer. */
function write(collection: Map<string, Doc>, level: Level, inputs: FoldInput[]): void {
  for (const delta of foldBatch(level, inputs).values()) {
    if (applyGuarded(collection, guardedUpdate(delta)) !== 'duplicate-key') continue;
    const applied = (collection.get(delta.id)!.ap as Record<string, number>)[PARTITION]!;
    const rest = inputs.filter(
      (i) =>
        i.offset > applied && bucketId(level, i.seriesKey, slotStart(level, i.ts)) === delta.id,
    );
    for (const retry of foldBatch(level, rest).values())
      expect(applyGuarded(collection, guardedUpdate(retry))).not.toBe('duplicate-key');
  }
}

interface Run {
  collection: Map<string, Doc>;
  commits: number[];
  flushSizes: number[];
}

/** Plays the events, then consumes to the end and writes what is held (SIGTERM's drain). */
function play(
  level: Level,
  records: (FoldInput | undefined)[],
  limits: HoldLimits,
  events: Event[],
): Run {
  const collection = new Map<string, Doc>();
  const commits: number[] = [];
  const flushSizes: number[] = [];
  let hold = new PartitionHold();
  let committed = 0; // next offset after the last commit
  let position = 0; // next offset to fetch
  let writtenThrough = 0; // every offset below this is in the buckets
  let now = 0;
  let nextWrite: 'ok' | 'crash-after-write' | 'failed-write' = 'ok';

  const resume = () => {
    hold = new PartitionHold();
    position = committed;
  };
  const flush = () => {
    const held = hold.take();
    if (held === undefined) return;
    const first = Number(held.firstOffset);
    const last = Number(held.lastOffset);
    // A hold always starts where the last commit left off: nothing is skipped.
    expect(first).toBe(committed);
    flushSizes.push(held.records);
    const outcome = nextWrite;
    nextWrite = 'ok';
    if (outcome === 'failed-write') return resume();
    write(collection, level, held.inputs);
    writtenThrough = Math.max(writtenThrough, last + 1);
    if (outcome === 'crash-after-write') return resume();
    expect(last + 1).toBeLessThanOrEqual(writtenThrough);
    committed = last + 1;
    commits.push(committed);
  };
  const take = (count: number) => {
    let left = Math.min(count, records.length - position);
    while (left > 0) {
      const size = Math.min(left, room(hold, limits));
      const run = records.slice(position, position + size);
      hold.add(
        run.filter((r): r is FoldInput => r !== undefined),
        String(position),
        String(position + size - 1),
        size,
        now,
      );
      position += size;
      left -= size;
      expect(hold.records).toBeLessThanOrEqual(limits.flushMaxTicks);
      if (flushCause(hold, now, limits, false) !== undefined) flush();
    }
    if (flushCause(hold, now, limits, true) !== undefined) flush();
  };

  for (const event of events) {
    switch (event.kind) {
      case 'fetch':
        now += event.gapMs;
        take(event.records);
        break;
      case 'timer':
        now += event.gapMs;
        if (hold.isDue(now, limits.budgetMs)) flush();
        break;
      case 'rebalance':
        resume();
        break;
      default:
        nextWrite = event.kind;
    }
  }
  nextWrite = 'ok';
  while (position < records.length) take(records.length - position);
  flush();
  expect(committed).toBe(records.length);
  return { collection, commits, flushSizes };
}

function oneFlush(level: Level, records: (FoldInput | undefined)[]): Map<string, Doc> {
  const collection = new Map<string, Doc>();
  write(
    collection,
    level,
    records.filter((r): r is FoldInput => r !== undefined),
  );
  return collection;
}

describe('holding ticks across fetches for a freshness budget', () => {
  it('leaves every bucket as one flush of every record would, through rebalances, crashes and failed writes', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<Level>('minute', 'hour', 'day'),
        recordsArb,
        limitsArb,
        fc.array(eventArb, { maxLength: 40 }),
        (level, records, limits, events) => {
          const run = play(level, records, limits, events);
          expect(run.collection).toEqual(oneFlush(level, records));
          // Commits only move forward.
          for (let i = 1; i < run.commits.length; i++)
            expect(run.commits[i]!).toBeGreaterThan(run.commits[i - 1]!);
          for (const size of run.flushSizes) expect(size).toBeLessThanOrEqual(limits.flushMaxTicks);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('with a budget longer than the fetches, writes one update per bucket for many fetches', () => {
    // 30 fetches of 10 records, 100 ms apart, all within a 5 s budget: one flush at the end.
    const records = Array.from({ length: 300 }, (_, offset) => ({
      seriesKey: SERIES[offset % 3]!,
      metric: 'spd',
      tags: {},
      ts: T0 + offset * 100,
      fields: { speed: offset },
      strings: {},
      kafkaPartition: PARTITION,
      offset,
    }));
    const events: Event[] = Array.from({ length: 30 }, () => ({
      kind: 'fetch',
      records: 10,
      gapMs: 100,
    }));
    const held = play('minute', records, { budgetMs: 5000, flushMaxTicks: 100_000 }, events);
    expect(held.flushSizes).toEqual([300]);
    const eager = play('minute', records, { budgetMs: 0, flushMaxTicks: 100_000 }, events);
    expect(eager.flushSizes).toEqual(Array.from({ length: 30 }, () => 10));
    expect(held.collection).toEqual(eager.collection);
  });
});
