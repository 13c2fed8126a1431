import {
  LEVEL_SPECS,
  addToBins,
  slotStart,
  subSlot,
  toBins,
  type Aggregate,
  type FoldInput,
  type Level,
  type Mark,
} from '@tickertape/buckets';
import fc from 'fast-check';
import type { FieldSlot, SubSlotValue } from '../../src/port/index.js';

/**
 * The contract's ticks and what a store must make of them, computed tick by tick without the
 * writers' fold: the reference every store's reads are held to.
 */

/** 23:00 UTC: two hours of ticks cross a day, so minute buckets span two partitions. */
export const T0 = Date.UTC(2026, 10, 21, 23, 0, 0);

export const SERIES = [
  { seriesKey: 'spd|seg=I80_34', metric: 'spd', tags: { seg: 'I80_34' } },
  { seriesKey: 'spd|seg=I80_35', metric: 'spd', tags: { seg: 'I80_35' } },
  { seriesKey: 'px|sym=ACME', metric: 'px', tags: { sym: 'ACME' } },
] as const;

export function tick(
  series: number,
  ts: number,
  offset: number,
  fields: Record<string, number>,
  options: { kafkaPartition?: number; strings?: Record<string, string> } = {},
): FoldInput {
  const { seriesKey, metric, tags } = SERIES[series]!;
  return {
    seriesKey,
    metric,
    tags,
    ts,
    fields,
    strings: options.strings ?? {},
    kafkaPartition: options.kafkaPartition ?? 0,
    offset,
  };
}

/**
 * Records of two Kafka partitions (offsets 0.. in each), event times in random order over two
 * hours. Integer values keep double addition exact whatever the batch split; a series may be
 * fed by both partitions (a mixed partitioner), so `(t, o)` may tie and the value decides.
 */
export const recordsArb = fc
  .array(
    fc.record({
      series: fc.integer({ min: 0, max: SERIES.length - 1 }),
      kafkaPartition: fc.integer({ min: 0, max: 1 }),
      dt: fc.integer({ min: 0, max: 2 * 3_600_000 - 1 }),
      speed: fc.integer({ min: -1_000, max: 1_000 }),
      travel: fc.option(fc.integer({ min: 0, max: 5_000 }), { nil: undefined }),
      weather: fc.constantFrom('clear', 'rain', 'snow'),
    }),
    { minLength: 1, maxLength: 60 },
  )
  .map((rows) => {
    const next = [0, 0];
    return rows.map((row) =>
      tick(
        row.series,
        T0 + row.dt,
        next[row.kafkaPartition]!++,
        row.travel === undefined ? { speed: row.speed } : { speed: row.speed, travel: row.travel },
        { kafkaPartition: row.kafkaPartition, strings: { weather: row.weather } },
      ),
    );
  });

/**
 * How workers may deliver one partition's records: flushes of contiguous offset ranges that may
 * restart earlier (a crash before the commit, a rebalance), with duplicates inside a flush.
 */
function partitionFlushes(count: number) {
  return fc
    .array(
      fc.record({
        back: fc.nat({ max: count }),
        length: fc.integer({ min: 1, max: Math.max(1, count) }),
        dupes: fc.nat({ max: 3 }),
      }),
      { minLength: 1, maxLength: 6 },
    )
    .map((steps) => {
      const flushes: number[][] = [];
      let cursor = 0;
      for (const step of steps) {
        if (count === 0) break;
        const from = Math.max(0, cursor - step.back);
        const to = Math.min(count, from + step.length);
        const offsets = Array.from({ length: to - from }, (_, i) => from + i);
        flushes.push([...offsets, ...offsets.slice(0, step.dupes)]);
        cursor = Math.max(cursor, to);
      }
      if (cursor < count)
        flushes.push(Array.from({ length: count - cursor }, (_, i) => cursor + i));
      return flushes;
    });
}

/**
 * The records with one way the two partitions' workers delivered them: each partition's flushes
 * in its own order (replays included), the two partitions' flushes interleaved at random, and
 * the ticks of a flush shuffled.
 */
export const deliveredArb = recordsArb.chain((records) => {
  const of = (p: number) => records.filter((r) => r.kafkaPartition === p);
  const [p0, p1] = [of(0), of(1)];
  return fc
    .tuple(
      partitionFlushes(p0.length),
      partitionFlushes(p1.length),
      fc.array(fc.boolean(), { minLength: 16, maxLength: 16 }),
      fc.nat(),
    )
    .map(([f0, f1, picks, seed]) => {
      const queues = [f0.map((o) => o.map((i) => p0[i]!)), f1.map((o) => o.map((i) => p1[i]!))];
      const flushes: FoldInput[][] = [];
      for (let i = 0; queues[0]!.length + queues[1]!.length > 0; i++) {
        const from =
          queues[0]!.length === 0 ? 1 : queues[1]!.length === 0 ? 0 : picks[i % 16] ? 1 : 0;
        flushes.push(shuffled(queues[from]!.shift()!, seed + i));
      }
      return { records, flushes };
    });
});

function shuffled<T>(items: readonly T[], seed: number): T[] {
  return items
    .map((item, i) => ({ item, key: (i * 7919 + seed) % 97 }))
    .sort((a, b) => a.key - b.key)
    .map(({ item }) => item);
}

/** Earlier by event time, then offset, then value (BSON order of `{t, o, v}`). */
function before(a: Mark<number | string>, b: Mark<number | string>): boolean {
  if (a.t !== b.t) return a.t < b.t;
  if (a.o !== b.o) return a.o < b.o;
  return a.v < b.v;
}

/** A tick's value with its weight (when the field is weighted and the tick carries it). */
function foldInto(
  agg: Aggregate | undefined,
  mark: Mark,
  w: number | undefined,
  sketch: boolean,
): Aggregate {
  const v = mark.v;
  const next: Aggregate =
    agg === undefined
      ? { n: 1, sum: v, min: v, max: v, first: mark, last: mark, sq: v * v }
      : {
          ...agg,
          n: agg.n + 1,
          sum: agg.sum + v,
          min: Math.min(agg.min, v),
          max: Math.max(agg.max, v),
          first: before(mark, agg.first) ? mark : agg.first,
          last: before(agg.last, mark) ? mark : agg.last,
          sq: agg.sq! + v * v,
        };
  if (w !== undefined) {
    next.xw = (agg?.xw ?? 0) + v * w;
    next.w = (agg?.w ?? 0) + w;
    next.wn = (agg?.wn ?? 0) + 1;
  }
  if (sketch) {
    next.q = toBins(agg?.q);
    addToBins(next.q, v);
  }
  return next;
}

/** The level policy's parts for the contract's metrics: sketches, a weight field, compact hours. */
export interface ExpectedParts {
  sketch?: boolean;
  weightBy?: string;
  compact?: boolean;
}

/** What a store must read back for one series, field and bucket. */
export interface ExpectedSlot {
  series: string;
  start: number;
  totals: Aggregate;
  /** By sub-slot index: the full aggregate of the sub-slot. */
  sub: Map<number, Aggregate>;
}

/** The unique ticks (by partition and offset) folded per bucket of `level`, for one field. */
export function expectedSlots(
  level: Level,
  records: readonly FoldInput[],
  field: string,
  parts: ExpectedParts = {},
): Map<string, ExpectedSlot> {
  // One sketch per minute: a minute bucket's totals, the full sub-slots of hours and days.
  const minute = LEVEL_SPECS[level].subKey === 'sec';
  const sketchTotals = parts.sketch === true && minute;
  const sketchSub = parts.sketch === true && !minute && parts.compact !== true;
  const seen = new Set<string>();
  const slots = new Map<string, ExpectedSlot>();
  for (const r of records) {
    const unique = `${r.kafkaPartition}:${r.offset}`;
    if (seen.has(unique)) continue;
    seen.add(unique);
    const v = r.fields[field];
    if (v === undefined) continue;
    const start = slotStart(level, r.ts);
    const key = `${r.seriesKey}@${start}`;
    const mark = { t: r.ts, o: r.offset, v };
    const w = parts.weightBy === undefined ? undefined : r.fields[parts.weightBy];
    const slot = slots.get(key);
    const index = subSlot(level, r.ts);
    if (slot === undefined) {
      slots.set(key, {
        series: r.seriesKey,
        start,
        totals: foldInto(undefined, mark, w, sketchTotals),
        sub: new Map([[index, foldInto(undefined, mark, w, sketchSub)]]),
      });
    } else {
      slot.totals = foldInto(slot.totals, mark, w, sketchTotals);
      slot.sub.set(index, foldInto(slot.sub.get(index), mark, w, sketchSub));
    }
  }
  return slots;
}

/** A sub-slot as the reference states it: count and sum, and a full aggregate's optional parts. */
type SubRead = Pick<Aggregate, 'n' | 'sum' | 'sq' | 'xw' | 'w' | 'wn' | 'q'>;

/** A read slot as the reference states it: sub-slots added up per index into count and sum. */
export function asRead(slot: FieldSlot): {
  series: string;
  start: number;
  totals: Aggregate | undefined;
  sub: Record<number, SubRead>;
} {
  const sub: Record<number, SubRead> = {};
  for (const value of slot.subSlots) {
    const into = (sub[value.index] ??= { n: 0, sum: 0 });
    const { n, sum } = countAndSum(value);
    into.n += n;
    into.sum += sum;
    if (value.kind === 'aggregate') {
      const { sq, xw, w, wn, q } = value.aggregate;
      Object.assign(into, optionalParts({ sq, xw, w, wn, q }));
    }
  }
  const totals =
    slot.totals?.q === undefined ? slot.totals : { ...slot.totals, q: toBins(slot.totals.q) };
  return { series: slot.series, start: slot.start, totals, sub };
}

function optionalParts(agg: Pick<Aggregate, 'sq' | 'xw' | 'w' | 'wn' | 'q'>): Partial<SubRead> {
  return {
    ...(agg.sq === undefined ? {} : { sq: agg.sq }),
    ...(agg.xw === undefined ? {} : { xw: agg.xw, w: agg.w, wn: agg.wn }),
    // A read's sketch may be a list of bins (the Mongo store's decoder): compared as an object.
    ...(agg.q === undefined ? {} : { q: toBins(agg.q) }),
  };
}

function countAndSum(value: SubSlotValue): { n: number; sum: number } {
  if (value.kind === 'aggregate') return { n: value.aggregate.n, sum: value.aggregate.sum };
  if (value.kind === 'compact') return { n: value.n, sum: value.sum };
  return { n: 1, sum: value.mark.v };
}

/**
 * The reference in the shape of `asRead`: a full sub-slot (`full`: hours and days not compact)
 * keeps its optional parts, a compact one its count and sum.
 */
export function expectedRead(slot: ExpectedSlot, full = false) {
  return {
    series: slot.series,
    start: slot.start,
    totals: slot.totals,
    sub: Object.fromEntries(
      [...slot.sub].map(([index, agg]) => [
        index,
        { n: agg.n, sum: agg.sum, ...(full ? optionalParts(agg) : {}) },
      ]),
    ),
  };
}

export const slotMs = (level: Level) => LEVEL_SPECS[level].slotMs;
