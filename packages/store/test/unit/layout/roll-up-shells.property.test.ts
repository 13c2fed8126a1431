import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  KEEP_EVERYTHING,
  LevelPolicy,
  addToBins,
  bucketId,
  foldBatch,
  mergeBins,
  rollUp,
  slotStart,
  subSlot,
  type CoarseLevel,
  type FoldInput,
  type Level,
  type SketchBins,
} from '@tickertape/buckets';
import { applyGuarded, type Doc } from '@tickertape/testing';
import { shellDocument, withoutShellPadding } from '../../../src/layout/shells.js';
import { guardedUpdate } from '../../../src/layout/update.js';

// Late on a day, so the ticks span two days, three hours and many minutes.
const T0 = Date.UTC(2026, 10, 21, 22, 30, 0);
const SERIES = ['spd|seg=I80_34', 'px|sym=ACME'] as const;

/**
 * Ticks of two series from up to three Kafka partitions (offsets counted per partition, so ties
 * on time and offset between partitions happen), integer values so every sum is exact.
 */
const ticksArb = fc
  .array(
    fc.record({
      series: fc.constantFrom(...SERIES),
      partition: fc.integer({ min: 0, max: 2 }),
      // Whole seconds over three hours: ticks of one second and one instant are common.
      dt: fc.integer({ min: 0, max: 3 * 3600 }).map((s) => s * 1000),
      speed: fc.integer({ min: -1000, max: 1000 }),
      hasTravel: fc.boolean(),
      travel: fc.integer({ min: 0, max: 50 }),
      weather: fc.constantFrom('clear', 'rain', 'snow'),
    }),
    { minLength: 1, maxLength: 150 },
  )
  .map((rows) => {
    const next = [0, 0, 0];
    return rows.map((row): FoldInput => ({
      seriesKey: row.series,
      metric: row.series.split('|')[0]!,
      tags: { key: row.series },
      ts: T0 + row.dt,
      fields: row.hasTravel ? { speed: row.speed, travel: row.travel } : { speed: row.speed },
      strings: { weather: row.weather },
      kafkaPartition: row.partition,
      offset: next[row.partition]!++,
    }));
  });

/** Both metrics sketched, speed weighted by travel (the parts a roll-up must carry over). */
const EXTRAS = new LevelPolicy({
  sketch: ['spd', 'px'],
  weights: ['spd', 'px'].map((metric) => ({ metric, field: 'speed', by: 'travel' })),
});

/** What a level's collection holds after its workers folded `ticks` (in two flushes), over shells. */
function stored(
  level: Level,
  ticks: FoldInput[],
  shellStarts: number[],
  policy: LevelPolicy = KEEP_EVERYTHING,
): Map<string, Doc> {
  const collection = new Map<string, Doc>();
  for (const start of shellStarts)
    for (const series of SERIES) {
      const shell = shellDocument(
        level,
        {
          seriesKey: series,
          metric: series.split('|')[0]!,
          tags: { key: series },
          fields: ['speed', 'travel'],
        },
        start,
      );
      collection.set(shell._id, shell.doc);
    }
  const half = Math.floor(ticks.length / 2);
  for (const flush of [ticks.slice(0, half), ticks.slice(half)])
    for (const delta of foldBatch(level, flush, policy).values())
      expect(applyGuarded(collection, guardedUpdate(delta))).not.toBe('duplicate-key');
  return collection;
}

/** Key order differs between builds; compare as sorted plain data, padding removed. */
function canonical(docs: Iterable<Doc>): unknown {
  const sorted = (value: unknown): unknown => {
    if (value instanceof Date) return value.toISOString();
    if (typeof value === 'object' && value !== null)
      return Object.fromEntries(
        Object.keys(value)
          .sort()
          .map((k) => [k, sorted((value as Doc)[k])]),
      );
    return value;
  };
  return [...docs]
    .filter((doc) => (doc.n as number) > 0)
    .map((doc) => sorted(withoutShellPadding(doc)))
    .sort((a, b) => String((a as Doc)._id).localeCompare(String((b as Doc)._id)));
}

const PAIRS: [CoarseLevel, Level, string, LevelPolicy][] = [
  ['hour', 'minute', 'plain', KEEP_EVERYTHING],
  ['day', 'hour', 'plain', KEEP_EVERYTHING],
  ['hour', 'minute', 'sketched and weighted', EXTRAS],
  ['day', 'hour', 'sketched and weighted', EXTRAS],
];

describe('rollUp (property)', () => {
  it.each(PAIRS)(
    '%s buckets rolled up from %s buckets (%s) equal the ticks folded straight into the coarser level',
    (coarse, finer, _parts, policy) => {
      fc.assert(
        fc.property(
          ticksArb,
          fc.array(fc.integer({ min: 0, max: 3 * 60 }), { maxLength: 8 }),
          (ticks, shells) => {
            // Shells of some finer slots, with ticks or without; the coarse level's stay bare.
            const shellStarts = shells.map((m) => slotStart(finer, T0 + m * 60_000));
            const direct = stored(coarse, ticks, [], policy);
            const rolled = rollUp(coarse, stored(finer, ticks, shellStarts, policy).values());
            expect(canonical(rolled.values())).toEqual(canonical(direct.values()));
          },
        ),
        { numRuns: 300 },
      );
    },
  );

  it.each([
    ['plain', KEEP_EVERYTHING],
    ['sketched and weighted', EXTRAS],
  ])('minute → hour → day equals minute → day through the ticks (%s)', (_parts, policy) => {
    fc.assert(
      fc.property(ticksArb, (ticks) => {
        const twice = rollUp(
          'day',
          rollUp('hour', stored('minute', ticks, [], policy).values()).values(),
        );
        expect(canonical(twice.values())).toEqual(
          canonical(stored('day', ticks, [], policy).values()),
        );
      }),
      { numRuns: 100 },
    );
  });

  it("a day's sketch of an hour is the merge of that hour's per-minute sketches, and the sketch of its ticks", () => {
    const field = (doc: Doc | undefined) => (doc?.f as Record<string, Doc> | undefined)?.speed;
    fc.assert(
      fc.property(ticksArb, (ticks) => {
        const hours = stored('hour', ticks, [], EXTRAS);
        const days = stored('day', ticks, [], EXTRAS);
        const byHour = new Map<string, { series: string; start: number; values: number[] }>();
        for (const tick of ticks) {
          const start = slotStart('hour', tick.ts);
          const id = bucketId('hour', tick.seriesKey, start);
          const hour = byHour.get(id) ?? { series: tick.seriesKey, start, values: [] };
          hour.values.push(tick.fields.speed!);
          byHour.set(id, hour);
        }
        for (const [id, { series, start, values }] of byHour) {
          const ofTicks: SketchBins = {};
          for (const v of values) addToBins(ofTicks, v);
          const minutes: SketchBins = {};
          for (const minute of Object.values(field(hours.get(id))!.m as Record<string, Doc>))
            mergeBins(minutes, minute.q as SketchBins);
          const day = days.get(bucketId('day', series, slotStart('day', start)));
          const ofDay = (field(day)!.h as Record<string, Doc>)[String(subSlot('day', start))]!.q;
          expect(minutes).toEqual(ofTicks);
          expect(ofDay).toEqual(ofTicks);
          // Totals keep none: the merge of their sub-slots' is theirs.
          expect(field(hours.get(id))!.q).toBeUndefined();
        }
      }),
      { numRuns: 100 },
    );
  });
});
