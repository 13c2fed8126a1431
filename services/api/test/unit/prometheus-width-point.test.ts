import { describe, expect, it } from '@jest/globals';
import type { Point } from '@tickertape/query';
import { widthPointOf } from '../../src/prometheus/width-point.js';

/** A minute of three ticks: 2, 4 and 9. */
const point: Point = {
  t: 60_000,
  n: 3,
  sum: 15,
  min: 2,
  max: 9,
  open: 4,
  close: 9,
  avg: 5,
  final: true,
};
const SQ = 4 + 16 + 81;
const bins = { '35': 1, '70': 1, '111': 1 };
/** The reader's merged parts also carry the weighted average's (none here). */
const NO_WEIGHTS = { n: 0, xw: 0, w: 0 };

describe('widthPointOf', () => {
  it('maps a point without spread or sketch parts to n, sum, min, max, first and last', () => {
    expect(widthPointOf(point)).toEqual({
      t: 60_000,
      n: 3,
      sum: 15,
      min: 2,
      max: 9,
      first: 4,
      last: 9,
    });
    expect(widthPointOf({ ...point, n: null, sum: null })).toMatchObject({ n: 0, sum: 0 });
  });

  it.each([
    ['the stored parts', { sq: SQ, q: bins }],
    [
      'merged parts covering every tick',
      {
        parts: { spread: { n: 3, sum: 15, sq: SQ }, weighted: NO_WEIGHTS, sketch: { n: 3, bins } },
      },
    ],
  ])('takes Σx² and the sketch from %s', (_what, carried) => {
    expect(widthPointOf({ ...point, ...carried })).toMatchObject({ sq: SQ, q: bins });
  });

  it("takes Σx² from the point's variance when it covers every tick", () => {
    const variance = SQ / 3 - 25;
    expect(widthPointOf({ ...point, variance, coverage: { spread: 3 } }).sq).toBeCloseTo(SQ, 9);
  });

  it('leaves out parts that cover only some of the ticks: the evaluator will not guess', () => {
    // The reader's shape (its merged parts also carry the weighted average's).
    const carried = {
      ...point,
      parts: {
        spread: { n: 2, sum: 6, sq: 20 },
        weighted: NO_WEIGHTS,
        sketch: { n: 2, bins: { '35': 1, '70': 1 } },
      },
      variance: 1,
      coverage: { spread: 2 },
    };
    const partial = widthPointOf(carried);
    expect(partial).not.toHaveProperty('sq');
    expect(partial).not.toHaveProperty('q');
  });
});
