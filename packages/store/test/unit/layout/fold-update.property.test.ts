import { beforeEach, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  LEVEL_SPECS,
  LEVELS,
  LevelPolicy,
  addToBins,
  bucketId,
  fieldSetKeyOf,
  foldBatch,
  slotStart,
  subSlot,
  type FoldInput,
  type Level,
  type SketchBins,
} from '@tickertape/buckets';
import { applyGuarded, type Doc } from '@tickertape/testing';
import { shellDocument, withoutShellPadding } from '../../../src/layout/shells.js';
import { guardedUpdate } from '../../../src/layout/update.js';

const T0 = Date.UTC(2026, 10, 21, 5, 0, 0);
const SERIES = ['spd|seg=I80_34', 'spd|seg=I80_35', 'px|sym=ACME'] as const;

/** One Kafka partition's records: offsets 0..n-1, event times in random order over ~3 hours. */
const recordsArb = fc
  .array(
    fc.record({
      series: fc.constantFrom(...SERIES),
      dt: fc.integer({ min: 0, max: 3 * 3_600_000 }),
      // Integers keep double addition exact, so sums compare exactly however flushes group them.
      speed: fc.integer({ min: -1_000_000, max: 1_000_000 }),
      hasTravel: fc.boolean(),
      travel: fc.integer({ min: 0, max: 5000 }),
      weather: fc.constantFrom('clear', 'rain', 'snow'),
    }),
    { minLength: 1, maxLength: 120 },
  )
  .map((rows) =>
    rows.map((row, offset): FoldInput => ({
      seriesKey: row.series,
      metric: row.series.split('|')[0]!,
      tags: { key: row.series },
      ts: T0 + row.dt,
      fields: row.hasTravel ? { speed: row.speed, travel: row.travel } : { speed: row.speed },
      strings: { weather: row.weather },
      kafkaPartition: 3,
      offset,
    })),
  );

/** How a worker might see them: flushes of contiguous offset ranges that may restart earlier (replays, crashes before commit), with in-batch duplicates and any order inside a flush. */
function deliveriesArb(count: number) {
  return fc
    .array(
      fc.record({
        back: fc.nat({ max: count }),
        length: fc.integer({ min: 1, max: count }),
        dupes: fc.nat({ max: 5 }),
        seed: fc.nat(),
      }),
      {
        minLength: 1,
        maxLength: 12,
      },
    )
    .map((steps) => {
      const flushes: number[][] = [];
      let cursor = 0;
      for (const step of steps) {
        const from = Math.max(0, cursor - step.back);
        const to = Math.min(count, from + step.length);
        flushes.push(Array.from({ length: to - from }, (_, i) => from + i));
        cursor = Math.max(cursor, to);
      }
      while (cursor < count) {
        flushes.push(Array.from({ length: count - cursor }, (_, i) => cursor + i));
        cursor = count;
      }
      return flushes.map((offsets, i) => {
        const seed = steps[i]?.seed ?? 0;
        const dupes = offsets.slice(0, steps[i]?.dupes ?? 0);
        return [...offsets, ...dupes].sort(
          (a, b) => ((a * 7919 + seed) % 97) - ((b * 7919 + seed) % 97),
        );
      });
    });
}

/** A record set with one way a worker might have seen it. */
const deliveredRecordsArb = recordsArb.chain((records) =>
  fc.tuple(fc.constant(records), deliveriesArb(records.length)),
);

/** The protocol a writer follows: guarded update; on a duplicate key, read the applied offset and re-fold only what is newer. */
let conflicts = 0;

/** What the level policy asks of the two metrics: compact hours, sketches, speed weighted by travel. */
interface Parts {
  compact: boolean;
  extras: boolean;
}

function policyOf({ compact, extras }: Parts): LevelPolicy {
  const metrics = ['spd', 'px'];
  return new LevelPolicy({
    hour: { compact: compact ? metrics : [] },
    sketch: extras ? metrics : [],
    weights: extras ? metrics.map((metric) => ({ metric, field: 'speed', by: 'travel' })) : [],
  });
}

function flush(
  collection: Map<string, Doc>,
  level: Level,
  inputs: FoldInput[],
  parts: Parts = { compact: false, extras: false },
): number {
  const policy = policyOf(parts);
  let operations = 0;
  for (const delta of foldBatch(level, inputs, policy).values()) {
    operations += 1;
    if (applyGuarded(collection, guardedUpdate(delta)) !== 'duplicate-key') continue;
    conflicts += 1;
    const applied = (collection.get(delta.id)!.ap as Record<string, number>)[delta.kafkaPartition]!;
    const rest = inputs.filter(
      (i) =>
        i.kafkaPartition === delta.kafkaPartition &&
        i.offset > applied &&
        bucketId(level, i.seriesKey, slotStart(level, i.ts)) === delta.id,
    );
    for (const retry of foldBatch(level, rest, policy).values())
      expect(applyGuarded(collection, guardedUpdate(retry))).not.toBe('duplicate-key');
  }
  return operations;
}

/**
 * The bucket documents computed directly from the unique records, tick by tick. Σx² always; with
 * `extras`, speed's Σx·w and Σw by travel where a tick carries both, and one sketch per minute
 * (a minute bucket's totals, the full sub-slots of hours and days, none in compact hours).
 */
function expectedBuckets(
  level: Level,
  records: FoldInput[],
  { compact, extras }: Parts = { compact: false, extras: false },
): Map<string, Doc> {
  const spec = LEVEL_SPECS[level];
  // Sums and counts per sub-slot: every minute bucket, a compact hour bucket.
  const sums = level === 'minute' || compact;
  const bins = (values: number[]): SketchBins => {
    const q: SketchBins = {};
    for (const v of values) addToBins(q, v);
    return q;
  };
  const docs = new Map<string, Doc>();
  const mark = <V>(r: FoldInput, v: V) => ({ t: r.ts, o: r.offset, v });
  const before = (a: { t: number; o: number }, b: { t: number; o: number }) =>
    a.t < b.t || (a.t === b.t && a.o < b.o);
  const fold = (agg: Doc | undefined, r: FoldInput, v: number, name: string): Doc => {
    const m = mark(r, v);
    const w = extras && name === 'speed' ? r.fields.travel : undefined;
    const weighed =
      w === undefined
        ? {}
        : {
            xw: ((agg?.xw as number | undefined) ?? 0) + v * w,
            w: ((agg?.w as number | undefined) ?? 0) + w,
            wn: ((agg?.wn as number | undefined) ?? 0) + 1,
          };
    const values = [...((agg?.values as number[] | undefined) ?? []), v];
    if (!agg)
      return { n: 1, sum: v, min: v, max: v, first: m, last: m, sq: v * v, ...weighed, values };
    return {
      ...agg,
      n: (agg.n as number) + 1,
      sum: (agg.sum as number) + v,
      min: Math.min(agg.min as number, v),
      max: Math.max(agg.max as number, v),
      first: before(m, agg.first as typeof m) ? m : agg.first,
      last: before(agg.last as typeof m, m) ? m : agg.last,
      sq: (agg.sq as number) + v * v,
      ...weighed,
      values,
    };
  };
  const shaped = (agg: Doc, sketch: boolean): Doc => {
    const { values, ...kept } = agg as Doc & { values: number[] };
    return sketch ? { ...kept, q: bins(values) } : kept;
  };
  for (const r of records) {
    const start = slotStart(level, r.ts);
    const id = bucketId(level, r.seriesKey, start);
    const doc = docs.get(id) ?? {
      _id: id,
      series: r.seriesKey,
      metric: r.metric,
      tags: r.tags,
      level,
      start: new Date(start),
      n: 0,
      f: {},
      s: {},
      ap: {},
    };
    doc.n = (doc.n as number) + 1;
    (doc.ap as Doc)[r.kafkaPartition] = Math.max(
      ((doc.ap as Doc)[r.kafkaPartition] as number | undefined) ?? -1,
      r.offset,
    );
    const sub = subSlot(level, r.ts);
    if (sums && Object.keys(r.fields).length > 0) {
      // Ticks per sub-slot, per set of numeric fields the tick carried.
      const counts = (((doc.c ??= {}) as Record<string, Record<number, number>>)[
        fieldSetKeyOf(Object.keys(r.fields))
      ] ??= {});
      counts[sub] = (counts[sub] ?? 0) + 1;
    }
    for (const [name, v] of Object.entries(r.fields)) {
      const f = ((doc.f as Doc)[name] as Doc | undefined) ?? { subs: {} };
      const { subs, ...total } = f as Doc & { subs: Record<number, Doc> };
      subs[sub] = fold(subs[sub], r, v, name);
      (doc.f as Doc)[name] = {
        ...fold(Object.keys(total).length ? total : undefined, r, v, name),
        subs,
      };
    }
    for (const [name, v] of Object.entries(r.strings)) {
      const s = (doc.s as Doc)[name] as
        | { first: ReturnType<typeof mark<string>>; last: ReturnType<typeof mark<string>> }
        | undefined;
      const m = mark(r, v);
      (doc.s as Doc)[name] = s
        ? { first: before(m, s.first) ? m : s.first, last: before(s.last, m) ? m : s.last }
        : { first: m, last: m };
    }
    docs.set(id, doc);
  }
  // Shape the nested sub-slots as the level stores them.
  for (const doc of docs.values()) {
    for (const [name, f] of Object.entries(
      doc.f as Record<string, Doc & { subs: Record<number, Doc> }>,
    )) {
      const { subs, ...total } = f;
      const nested = Object.fromEntries(
        // Compact buckets keep the sum of each sub-slot, the others the full totals.
        Object.entries(subs).map(([k, agg]) => [k, sums ? agg.sum : shaped(agg, extras)]),
      );
      (doc.f as Doc)[name] = {
        ...shaped(total, extras && level === 'minute'),
        // Σx² covers every tick: the field's totals say how many.
        sqn: total.n,
        [sums ? spec.sumsKey! : spec.subKey]: nested,
      };
    }
  }
  return docs;
}

/** Key order differs between the two builds; compare as sorted plain data. */
function canonical(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Doc)[k])]),
    );
  }
  return value;
}

/**
 * Every level in its own layout, and the hour level in the compact form (the level policy); each
 * without and with sketches and a weighted field.
 */
const FORMS = [
  ...LEVELS.map((level) => [level, level, false] as const),
  ['compact hour', 'hour', true] as const,
].flatMap(([form, level, compact]) => [
  [form, level, { compact, extras: false }] as const,
  [`${form} (sketched, weighted)`, level, { compact, extras: true }] as const,
]);

describe('fold + guarded update (property)', () => {
  beforeEach(() => {
    conflicts = 0;
  });

  it.each(FORMS)(
    '%s buckets equal the fold of their ticks under replays, duplicates and any batch split',
    (_form, level, parts) => {
      fc.assert(
        fc.property(deliveredRecordsArb, ([records, deliveries]) => {
          const collection = new Map<string, Doc>();
          for (const offsets of deliveries)
            flush(
              collection,
              level,
              offsets.map((o) => records[o]!),
              parts,
            );
          const expected = expectedBuckets(level, records, parts);
          const byId = (docs: Map<string, Doc>) =>
            [...docs.values()].sort((a, b) => String(a._id).localeCompare(String(b._id)));
          expect(canonical(byId(collection))).toEqual(canonical(byId(expected)));
        }),
        { numRuns: 300 },
      );
      // The replays must really have hit the guard, or the property proves nothing about it.
      expect(conflicts).toBeGreaterThan(50);
    },
  );

  it.each(FORMS)(
    '%s buckets written onto preallocated shells hold the same data as without shells',
    (_form, level, parts) => {
      fc.assert(
        fc.property(deliveredRecordsArb, ([records, deliveries]) => {
          const plain = new Map<string, Doc>();
          const shelled = new Map<string, Doc>();
          // Shells for every bucket the records will touch, prepared with both fields (some
          // buckets will never see `travel`: their padding must vanish on reading).
          for (const r of records) {
            const shell = shellDocument(
              level,
              {
                seriesKey: r.seriesKey,
                metric: r.metric,
                tags: r.tags,
                fields: ['speed', 'travel'],
              },
              slotStart(level, r.ts),
              parts.compact,
            );
            shelled.set(shell._id, shell.doc);
          }
          for (const offsets of deliveries) {
            flush(
              plain,
              level,
              offsets.map((o) => records[o]!),
              parts,
            );
            flush(
              shelled,
              level,
              offsets.map((o) => records[o]!),
              parts,
            );
          }
          const read = (docs: Map<string, Doc>) =>
            [...docs.values()]
              .map((d) => withoutShellPadding(d))
              .sort((a, b) => String(a._id).localeCompare(String(b._id)));
          expect(canonical(read(shelled))).toEqual(canonical(read(plain)));
        }),
        { numRuns: 150 },
      );
    },
  );

  it('costs one operation per distinct bucket per flush, however many ticks it holds', () => {
    fc.assert(
      fc.property(recordsArb, (records) => {
        const collection = new Map<string, Doc>();
        const operations = flush(collection, 'minute', records);
        const distinct = new Set(
          records.map((r) => bucketId('minute', r.seriesKey, slotStart('minute', r.ts))),
        );
        expect(operations).toBe(distinct.size);
      }),
    );
  });
});
