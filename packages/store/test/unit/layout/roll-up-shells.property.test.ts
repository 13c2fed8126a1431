import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  foldBatch,
  rollUp,
  slotStart,
  type CoarseLevel,
  type FoldInput,
  type Level,
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

/** What a level's collection holds after its workers folded `ticks` (in two flushes), over shells. */
function stored(level: Level, ticks: FoldInput[], shellStarts: number[]): Map<string, Doc> {
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
    for (const delta of foldBatch(level, flush).values())
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

const PAIRS: [CoarseLevel, Level][] = [
  ['hour', 'minute'],
  ['day', 'hour'],
];

describe('rollUp (property)', () => {
  it.each(PAIRS)(
    '%s buckets rolled up from %s buckets equal the ticks folded straight into the coarser level',
    (coarse, finer) => {
      fc.assert(
        fc.property(
          ticksArb,
          fc.array(fc.integer({ min: 0, max: 3 * 60 }), { maxLength: 8 }),
          (ticks, shells) => {
            // Shells of some finer slots, with ticks or without; the coarse level's stay bare.
            const shellStarts = shells.map((m) => slotStart(finer, T0 + m * 60_000));
            const direct = stored(coarse, ticks, []);
            const rolled = rollUp(coarse, stored(finer, ticks, shellStarts).values());
            expect(canonical(rolled.values())).toEqual(canonical(direct.values()));
          },
        ),
        { numRuns: 300 },
      );
    },
  );

  it('minute → hour → day equals minute → day through the ticks', () => {
    fc.assert(
      fc.property(ticksArb, (ticks) => {
        const twice = rollUp('day', rollUp('hour', stored('minute', ticks, []).values()).values());
        expect(canonical(twice.values())).toEqual(canonical(stored('day', ticks, []).values()));
      }),
      { numRuns: 100 },
    );
  });
});
