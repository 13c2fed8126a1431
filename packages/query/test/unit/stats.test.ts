import { describe, expect, it } from '@jest/globals';
import {
  LEVEL_SPECS,
  SKETCH_ALPHA,
  addToBins,
  type Aggregate,
  type SketchBins,
} from '@tickertape/buckets';
import type { FieldSlot, SubSlotValue } from '@tickertape/store';
import fc from 'fast-check';
import { QueryErrorCode, checkQuantiles, quantileName } from '../../src/index.js';
import { answerPoint, mergePoints, pointOfAggregate, pointOfSecond } from '../../src/points.js';
import { FinalityView } from '../../src/watermark-view.js';
import { sumPieces } from '../../src/window.js';

/*
 * The read side of spread, weighted averages and quantiles, on aggregates built here as the
 * write side stores them (Σx², Σx·w and Σw, sketch bins): merged over a window's pieces and a
 * range's points, checked against a fold of the raw values.
 */

const HOUR = Date.UTC(2026, 10, 27, 10);
const MINUTE_MS = 60_000;
const SERIES = 'stock.tick|symbol=ACME';
const VIEW = FinalityView.of({
  finalBefore: {},
  generation: { minute: 0, hour: 0, day: 0 },
});

interface Tick {
  v: number;
  w: number;
}

/** What the write side folds a run of ticks into (every part present unless left out). */
function aggregateOf(
  ticks: readonly Tick[],
  t0: number,
  omit: { sq?: boolean; q?: boolean; weights?: boolean } = {},
): Aggregate {
  const values = ticks.map((tick) => tick.v);
  const q: SketchBins = {};
  for (const v of values) addToBins(q, v);
  return {
    n: ticks.length,
    sum: values.reduce((a, b) => a + b, 0),
    min: Math.min(...values),
    max: Math.max(...values),
    first: { t: t0, o: 0, v: values[0]! },
    last: { t: t0, o: ticks.length - 1, v: values[values.length - 1]! },
    ...(omit.sq ? {} : { sq: values.reduce((a, v) => a + v * v, 0) }),
    ...(omit.weights
      ? {}
      : { xw: ticks.reduce((a, t) => a + t.v * t.w, 0), w: ticks.reduce((a, t) => a + t.w, 0) }),
    ...(omit.q ? {} : { q }),
  };
}

/** The value at the sketch's rank ⌊φ·(n − 1)⌋ of the sorted values: what a quantile answers. */
function trueQuantile(values: readonly number[], phi: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(phi * (sorted.length - 1))]!;
}

function withinAlpha(estimate: number | null | undefined, truth: number): boolean {
  if (estimate === null || estimate === undefined) return false;
  if (Math.abs(truth) < 1e-9) return Math.abs(estimate) < 1e-9;
  return Math.abs(estimate - truth) <= SKETCH_ALPHA * Math.abs(truth) * (1 + 1e-9);
}

function foldVariance(values: readonly number[]): number {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return values.reduce((a, v) => a + (v - mean) ** 2, 0) / values.length;
}

/** Values over five decades, negatives and zeros among them, in chunks (one per minute). */
const ticksArb = fc.array(
  fc.oneof(
    { weight: 1, arbitrary: fc.constant(0) },
    {
      weight: 9,
      arbitrary: fc
        .tuple(
          fc.integer({ min: -2, max: 2 }),
          fc.double({ min: 1, max: 9.99, noNaN: true }),
          fc.boolean(),
        )
        .map(([exponent, mantissa, negative]) => (negative ? -1 : 1) * mantissa * 10 ** exponent),
    },
  ),
  { minLength: 1, maxLength: 200 },
);
const chunked = fc
  .tuple(ticksArb, fc.array(fc.integer({ min: 1, max: 30 }), { minLength: 1, maxLength: 60 }))
  .map(([values, sizes]) => {
    const chunks: Tick[][] = [];
    let at = 0;
    for (let i = 0; at < values.length && i < 60; i++) {
      const size = i === 59 ? values.length - at : sizes[i % sizes.length]!;
      chunks.push(values.slice(at, at + size).map((v, k) => ({ v, w: 1 + ((k * 7) % 5) })));
      at += size;
    }
    return chunks;
  });
const phisArb = fc.uniqueArray(fc.double({ min: 0, max: 1, noNaN: true }), {
  minLength: 1,
  maxLength: 4,
});

/** An hour bucket as the store decodes it: totals without a sketch, a full aggregate per minute. */
function hourSlot(chunks: readonly Tick[][], omitTotals: { sq?: boolean } = {}): FieldSlot {
  const all = chunks.flat();
  const subSlots: SubSlotValue[] = chunks.map((chunk, index) => ({
    index,
    kind: 'aggregate',
    aggregate: aggregateOf(chunk, HOUR + index * MINUTE_MS),
  }));
  const { q: _none, ...totals } = aggregateOf(all, HOUR, omitTotals);
  return { series: SERIES, level: 'hour', start: HOUR, totals, subSlots };
}

const window = (pieces: Parameters<typeof sumPieces>[0]['pieces']) => ({
  field: 'price',
  fromMs: HOUR,
  toMs: HOUR + LEVEL_SPECS.hour.slotMs,
  pieces,
});

describe('window stats over a bucket read whole', () => {
  it('quantiles are within α of the value at their rank, from the merged minute sketches', () => {
    fc.assert(
      fc.property(chunked, phisArb, (chunks, phis) => {
        const values = chunks.flat().map((t) => t.v);
        const [row] = sumPieces(
          window([{ level: 'hour', start: HOUR }]),
          [[hourSlot(chunks)]],
          [SERIES],
          VIEW,
          { quantiles: phis },
        ).rows;
        expect(row!.coverage.sketch).toBe(values.length);
        for (const phi of phis)
          expect(withinAlpha(row!.quantiles![quantileName(phi)], trueQuantile(values, phi))).toBe(
            true,
          );
      }),
    );
  });

  it('variance, stddev and the weighted average are exact against a fold of the ticks', () => {
    fc.assert(
      fc.property(chunked, (chunks) => {
        const ticks = chunks.flat();
        const values = ticks.map((t) => t.v);
        const [row] = sumPieces(
          window([{ level: 'hour', start: HOUR }]),
          [[hourSlot(chunks)]],
          [SERIES],
          VIEW,
          { weightOf: () => 'volume' },
        ).rows;
        const meanSquare = values.reduce((a, v) => a + v * v, 0) / values.length;
        expect(Math.abs(row!.variance! - foldVariance(values))).toBeLessThanOrEqual(
          1e-12 * Math.max(1, meanSquare),
        );
        expect(row!.stddev).toBeCloseTo(Math.sqrt(row!.variance!), 12);
        const vwap = ticks.reduce((a, t) => a + t.v * t.w, 0) / ticks.reduce((a, t) => a + t.w, 0);
        expect(row!.weighted).toEqual({ by: 'volume', avg: expect.any(Number) });
        // Σx·w may cancel (negative prices): the bound is relative to Σ|x·w|/Σw.
        const scale =
          ticks.reduce((a, t) => a + Math.abs(t.v * t.w), 0) / ticks.reduce((a, t) => a + t.w, 0);
        expect(Math.abs(row!.weighted!.avg! - vwap)).toBeLessThanOrEqual(1e-9 * Math.max(1, scale));
        expect(row!.coverage).toEqual({ spread: values.length, weighted: values.length });
        expect(row!.quantiles).toBeUndefined();
      }),
    );
  });

  it('a sub-slot run merges the same way as the whole bucket', () => {
    fc.assert(
      fc.property(chunked, phisArb, (chunks, phis) => {
        const slot = hourSlot(chunks);
        const values = chunks.flat().map((t) => t.v);
        const [row] = sumPieces(
          window([{ level: 'hour', start: HOUR, sub: { from: 0, to: 60 } }]),
          [[slot]],
          [SERIES],
          VIEW,
          { quantiles: phis },
        ).rows;
        expect(row!.n).toBe(values.length);
        expect(row!.coverage).toEqual({ spread: values.length, sketch: values.length });
        for (const phi of phis)
          expect(withinAlpha(row!.quantiles![quantileName(phi)], trueQuantile(values, phi))).toBe(
            true,
          );
      }),
    );
  });
});

describe('coverage: what parts lack is said, never guessed', () => {
  const chunks: Tick[][] = [
    [
      { v: 10, w: 1 },
      { v: 20, w: 3 },
    ],
    [{ v: 30, w: 1 }],
    [
      { v: 40, w: 1 },
      { v: 50, w: 1 },
      { v: 60, w: 1 },
    ],
  ];

  it('a minute without a sketch (written before sketches) is left out of the quantiles', () => {
    const slot = hourSlot(chunks);
    const old = slot.subSlots[2]! as Extract<SubSlotValue, { kind: 'aggregate' }>;
    const { q: _gone, ...withoutSketch } = old.aggregate;
    slot.subSlots[2] = { ...old, aggregate: withoutSketch };
    const [row] = sumPieces(window([{ level: 'hour', start: HOUR }]), [[slot]], [SERIES], VIEW, {
      quantiles: [0, 1],
    }).rows;
    expect(row).toMatchObject({ n: 6, coverage: { spread: 6, sketch: 3 } });
    // The median of 10, 20, 30 — not of all six: the answer says it covers 3 of 6.
    expect(withinAlpha(row!.quantiles!['q1'], 30)).toBe(true);
    expect(withinAlpha(row!.quantiles!['q0'], 10)).toBe(true);
  });

  it('a weighted average covers the ticks that carried the weight (wn), not every tick', () => {
    const slot = hourSlot(chunks);
    // Minute 2: three ticks, only one of which carried the weight field (v 40, w 2).
    const third = slot.subSlots[2]! as Extract<SubSlotValue, { kind: 'aggregate' }>;
    slot.subSlots[2] = { ...third, aggregate: { ...third.aggregate, xw: 80, w: 2, wn: 1 } };
    const [row] = sumPieces(
      window([{ level: 'hour', start: HOUR, sub: { from: 0, to: 60 } }]),
      [[slot]],
      [SERIES],
      VIEW,
      { weightOf: () => 'volume' },
    ).rows;
    // 10·1 + 20·3 + 30·1 + 40·2 over 1 + 3 + 1 + 2: the four weighed ticks of six.
    expect(row!.coverage.weighted).toBe(4);
    expect(row!.weighted!.avg).toBeCloseTo(180 / 7, 12);
  });

  it("a sketch begun after some of a minute's ticks covers what its bins count", () => {
    const slot = hourSlot(chunks);
    const third = slot.subSlots[2]! as Extract<SubSlotValue, { kind: 'aggregate' }>;
    const later: SketchBins = {};
    addToBins(later, 60);
    slot.subSlots[2] = { ...third, aggregate: { ...third.aggregate, q: later } };
    const [row] = sumPieces(
      window([{ level: 'hour', start: HOUR, sub: { from: 0, to: 60 } }]),
      [[slot]],
      [SERIES],
      VIEW,
      { quantiles: [1] },
    ).rows;
    expect(row!.coverage.sketch).toBe(4);
    expect(withinAlpha(row!.quantiles!['q1'], 60)).toBe(true);
  });

  it('compact sub-slots count when they hold one tick (exactly), not when they hold more', () => {
    const slot: FieldSlot = {
      series: SERIES,
      level: 'hour',
      start: HOUR,
      subSlots: [
        { index: 0, kind: 'compact', n: 1, sum: 12 },
        { index: 1, kind: 'compact', n: 1, sum: 14 },
        { index: 2, kind: 'compact', n: 3, sum: 60 },
      ],
    };
    const [row] = sumPieces(
      window([{ level: 'hour', start: HOUR, sub: { from: 0, to: 60 } }]),
      [[slot]],
      [SERIES],
      VIEW,
      { quantiles: [0.5] },
    ).rows;
    expect(row).toMatchObject({ n: 5, sum: 86, coverage: { spread: 2, sketch: 2 } });
    expect(row!.variance).toBeCloseTo(1, 12);
    expect(withinAlpha(row!.quantiles!['q0.5'], 12)).toBe(true);
  });

  it('totals without Σx² (an old bucket) give no spread; a weighted field without weights none', () => {
    const [row] = sumPieces(
      window([{ level: 'hour', start: HOUR }]),
      [
        [hourSlot(chunks, { sq: true })].map((slot) => {
          const { xw: _xw, w: _w, ...totals } = slot.totals!;
          return { ...slot, totals };
        }),
      ],
      [SERIES],
      VIEW,
      { weightOf: () => 'volume' },
    ).rows;
    expect(row).toMatchObject({
      n: 6,
      variance: null,
      stddev: null,
      weighted: { by: 'volume', avg: null },
      coverage: { spread: 0, weighted: 0 },
    });
  });

  it('a series without ticks has null stats and zero coverage', () => {
    const [row] = sumPieces(window([{ level: 'hour', start: HOUR }]), [[]], [SERIES], VIEW, {
      quantiles: [0.5, 0.99],
      weightOf: () => 'volume',
    }).rows;
    expect(row).toMatchObject({
      n: 0,
      variance: null,
      stddev: null,
      quantiles: { 'q0.5': null, 'q0.99': null },
      weighted: { by: 'volume', avg: null },
      coverage: { spread: 0, sketch: 0, weighted: 0 },
    });
  });

  it('never writes into the aggregates it read (they may be a cached final bucket)', () => {
    const slot = hourSlot(chunks);
    const before = JSON.stringify(slot);
    for (let i = 0; i < 2; i++)
      sumPieces(window([{ level: 'hour', start: HOUR }]), [[slot]], [SERIES], VIEW, {
        quantiles: [0.5],
      });
    expect(JSON.stringify(slot)).toBe(before);
  });
});

describe('points carry their parts through merges', () => {
  it('merged minute points answer the quantiles and spread of all their ticks', () => {
    fc.assert(
      fc.property(chunked, phisArb, (chunks, phis) => {
        const points = chunks.map((chunk, i) =>
          chunk.length === 1
            ? pointOfSecond(HOUR + i * MINUTE_MS, chunk[0]!.v, 1, true)
            : pointOfAggregate(HOUR + i * MINUTE_MS, aggregateOf(chunk, HOUR), true),
        );
        const [merged] = mergePoints(points, LEVEL_SPECS.hour.slotMs);
        const answered = answerPoint(merged!, { quantiles: phis });
        const values = chunks.flat().map((t) => t.v);
        expect(answered).not.toHaveProperty('parts');
        expect(answered.coverage).toEqual({ spread: values.length, sketch: values.length });
        for (const phi of phis)
          expect(
            withinAlpha(answered.quantiles![quantileName(phi)], trueQuantile(values, phi)),
          ).toBe(true);
        const meanSquare = values.reduce((a, v) => a + v * v, 0) / values.length;
        expect(Math.abs(answered.variance! - foldVariance(values))).toBeLessThanOrEqual(
          1e-12 * Math.max(1, meanSquare),
        );
      }),
    );
  });

  it('a compact second of several ticks is uncovered', () => {
    const answered = answerPoint(pointOfSecond(HOUR, 30, 3, true), { quantiles: [0.5] });
    expect(answered).toMatchObject({
      n: 3,
      variance: null,
      quantiles: { 'q0.5': null },
      coverage: { spread: 0, sketch: 0 },
    });
  });
});

describe('checkQuantiles', () => {
  it('keeps each φ once, in the order given', () => {
    expect(checkQuantiles([0.99, 0.5, 0.99, 0])).toEqual([0.99, 0.5, 0]);
  });

  it.each([-0.01, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('refuses %p', (phi) => {
    let error: unknown;
    try {
      checkQuantiles([0.5, phi]);
    } catch (err) {
      error = err;
    }
    expect(error).toMatchObject({ code: QueryErrorCode.InvalidQuantile });
  });

  it('names each column q and φ as JavaScript prints it', () => {
    expect([0.5, 0.85, 0.999, 1, 0].map(quantileName)).toEqual([
      'q0.5',
      'q0.85',
      'q0.999',
      'q1',
      'q0',
    ]);
  });
});
