import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  MAX_SKETCH_ALPHA,
  MIN_SKETCH_ALPHA,
  SKETCH_ALPHA,
  SKETCH_MAX_BINS_PER_SIGN,
  SKETCH_MAX_MAGNITUDE,
  ZERO_BIN,
  addToBins,
  addExactValue,
  binAlpha,
  binValue,
  binsCount,
  checkSketchAlpha,
  mergeBins,
  quantileOfBins,
  quantilesOfBins,
  sketchAlphaOf,
  sketchKey,
  toBins,
  forEachBin,
  BinList,
  type SketchBins,
} from '../../src/index.js';

/** Relative accuracy, with room for the rounding of one log and one power. */
const TOLERANCE = SKETCH_ALPHA * (1 + 1e-9);

function sketchOf(values: readonly number[]): SketchBins {
  const bins: SketchBins = {};
  for (const v of values) addToBins(bins, v);
  return bins;
}

function withinAlpha(estimate: number, truth: number): boolean {
  if (Math.abs(truth) < 1e-9) return estimate === 0;
  return Math.abs(estimate - truth) <= TOLERANCE * Math.abs(truth);
}

/** Values across five decades and both signs, zeros included. */
const value = fc.oneof(
  fc.constant(0),
  fc
    .tuple(fc.double({ min: -2, max: 3, noNaN: true }), fc.boolean())
    .map(([exponent, negative]) => (negative ? -1 : 1) * 10 ** exponent),
  fc.integer({ min: -1000, max: 1000 }),
);

describe('sketchKey', () => {
  it.each([
    [0, ZERO_BIN],
    [-0, ZERO_BIN],
    [5e-10, ZERO_BIN],
    [1, '0'],
    [-1, 'n0'],
    [1.02, '1'],
    [1.0203, '2'],
    [0.99, '0'],
    [0.97, '-1'],
    [-100, 'n231'],
  ])('puts %p in bin %p', (v, key) => {
    expect(sketchKey(v)).toBe(key);
  });

  it('clamps magnitudes beyond the range to the outermost bins (the collapse rule)', () => {
    expect(sketchKey(1e30)).toBe(sketchKey(SKETCH_MAX_MAGNITUDE));
    expect(sketchKey(-1e30)).toBe(`n${sketchKey(SKETCH_MAX_MAGNITUDE)}`);
    expect(SKETCH_MAX_BINS_PER_SIGN).toBeLessThan(6000);
  });

  it('gives every value back within α from its bin', () => {
    fc.assert(fc.property(value, (v) => withinAlpha(binValue(sketchKey(v)), v)));
  });
});

describe('quantileOfBins', () => {
  it('answers the value of rank ⌊φ(n−1)⌋ within α, on five decades, negatives and zeros', () => {
    fc.assert(
      fc.property(
        fc.array(value, { minLength: 1, maxLength: 300 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (values, phi) => {
          const sorted = [...values].sort((a, b) => a - b);
          const truth = sorted[Math.floor(phi * (sorted.length - 1))]!;
          return withinAlpha(quantileOfBins(sketchOf(values), phi)!, truth);
        },
      ),
    );
  });

  it('is the same whichever way the ticks were split and merged', () => {
    fc.assert(
      fc.property(
        fc.array(value, { maxLength: 200 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        (values, cuts) => {
          const whole = sketchOf(values);
          const bounds = [0, ...cuts.map((c) => c % (values.length + 1)), values.length].sort(
            (a, b) => a - b,
          );
          const merged: SketchBins = {};
          for (let i = bounds.length - 1; i > 0; i--)
            mergeBins(merged, sketchOf(values.slice(bounds[i - 1], bounds[i])));
          expect(merged).toEqual(whole);
          expect(binsCount(merged)).toBe(values.length);
        },
      ),
    );
  });

  it('answers nothing for an empty sketch and refuses φ outside [0, 1]', () => {
    expect(quantileOfBins({}, 0.5)).toBeUndefined();
    expect(() => quantileOfBins({ '0': 1 }, 1.5)).toThrow(RangeError);
    expect(() => quantileOfBins({ '0': 1 }, Number.NaN)).toThrow(RangeError);
  });

  it('orders negatives, zero and positives on the number line', () => {
    const values = [-50, -2, 0, 3, 400];
    const answers = quantilesOfBins(sketchOf(values), [0, 0.25, 0.5, 0.75, 1]);
    answers.forEach((answer, i) => expect(withinAlpha(answer!, values[i]!)).toBe(true));
  });

  it('leaves out keys that are not bins and counts that are not positive', () => {
    expect(quantileOfBins({ x: 4, '0': 1, '5': 0 }, 1)).toBeCloseTo(1, 1);
  });
});

describe('a metric sketched at another α', () => {
  const alphaArb = fc.constantFrom(MIN_SKETCH_ALPHA, 0.005, 0.025, 0.05, MAX_SKETCH_ALPHA);
  const within = (alpha: number) => (estimate: number, truth: number) =>
    Math.abs(truth) < 1e-9
      ? estimate === 0
      : Math.abs(estimate - truth) <= alpha * (1 + 1e-9) * Math.abs(truth);

  it('keys its bins with its α in basis points; the zero bin is shared', () => {
    expect(sketchKey(-100, 0.02)).toBe('a200_n116');
    expect(sketchKey(100, 0.02)).toBe('a200_116');
    expect(sketchKey(0, 0.02)).toBe(ZERO_BIN);
    expect(sketchKey(100, SKETCH_ALPHA)).toBe(sketchKey(100));
    expect(binAlpha('a200_116')).toBe(0.02);
    expect(binAlpha('231')).toBe(SKETCH_ALPHA);
    expect(binAlpha('a99999_1')).toBeUndefined();
  });

  it('answers every quantile within its α, on five decades, negatives and zeros', () => {
    fc.assert(
      fc.property(
        alphaArb,
        fc.array(value, { minLength: 1, maxLength: 300 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (alpha, values, phi) => {
          const bins: SketchBins = {};
          for (const v of values) addToBins(bins, v, 1, alpha);
          const sorted = [...values].sort((a, b) => a - b);
          const truth = sorted[Math.floor(phi * (sorted.length - 1))]!;
          return within(alpha)(quantileOfBins(bins, phi)!, truth);
        },
      ),
    );
  });

  it('mixed with bins of other α (a policy change, exact values), answers within the largest', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(value, alphaArb, fc.boolean()), { minLength: 1, maxLength: 300 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (ticks, phi) => {
          const bins: SketchBins = {};
          for (const [v, alpha, exact] of ticks)
            if (exact) addExactValue(bins, v);
            else addToBins(bins, v, 1, alpha);
          const largest = sketchAlphaOf(bins) ?? MIN_SKETCH_ALPHA;
          const sorted = ticks.map(([v]) => v).sort((a, b) => a - b);
          const truth = sorted[Math.floor(phi * (sorted.length - 1))]!;
          return within(largest)(quantileOfBins(bins, phi)!, truth);
        },
      ),
    );
  });

  it('refuses an α outside its bounds or finer than a basis point', () => {
    expect(checkSketchAlpha(0.025)).toBe(0.025);
    for (const alpha of [0, 0.0005, 0.3, Number.NaN, 0.01234])
      expect(() => checkSketchAlpha(alpha)).toThrow(/relative accuracy α/);
  });
});

describe('BinList: a sketch as reads decode it', () => {
  const values = fc.array(
    fc.oneof(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.constant(0)),
    { minLength: 1, maxLength: 200 },
  );
  const asList = (bins: SketchBins) => new BinList(Object.keys(bins), Object.values(bins));

  it('answers, counts, merges and iterates as the same bins in an object', () => {
    fc.assert(
      fc.property(values, values, fc.double({ min: 0, max: 1, noNaN: true }), (a, b, phi) => {
        const [left, right] = [sketchOf(a), sketchOf(b)];
        const list = asList(left);
        expect(quantilesOfBins(list, [phi])).toEqual(quantilesOfBins(left, [phi]));
        expect(binsCount(list)).toBe(binsCount(left));
        expect(sketchAlphaOf(list)).toBe(sketchAlphaOf(left));
        expect(toBins(list)).toEqual(left);
        const [fromObject, fromList] = [{ ...right }, { ...right }];
        expect(mergeBins(fromList, list)).toBe(mergeBins(fromObject, left));
        expect(fromList).toEqual(fromObject);
        const seen: [string, number][] = [];
        forEachBin(list, (key, count) => seen.push([key, count]));
        expect(seen).toEqual(Object.entries(left));
      }),
    );
  });
});
