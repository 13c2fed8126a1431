import { describe, expect, it } from '@jest/globals';
import { findGaps, mergePoints, type Point } from '../../src/index.js';

const p = (t: number, v: number, n: number | null = 1, final = true): Point => ({
  t,
  n,
  sum: n === null ? null : v * n,
  min: v,
  max: v,
  open: v,
  close: v,
  avg: v,
  final,
});

describe('mergePoints', () => {
  it('merges counts, sums, extremes, open and close exactly', () => {
    const merged = mergePoints([p(0, 5, 2), p(10, 1, 1), p(20, 9, 3), p(30, 4, 1)], 20);
    expect(merged).toEqual([
      { t: 0, n: 3, sum: 11, min: 1, max: 5, open: 5, close: 1, avg: 11 / 3, final: true },
      { t: 20, n: 4, sum: 31, min: 4, max: 9, open: 9, close: 4, avg: 31 / 4, final: true },
    ]);
  });

  it('keeps counts unknown at second width and averages the values', () => {
    const [only] = mergePoints([p(0, 2, null), p(1000, 4, null, false)], 5000);
    expect(only).toMatchObject({ n: null, sum: null, avg: 3, open: 2, close: 4, final: false });
  });
});

describe('findGaps', () => {
  it.each<[string, number[], number, number, number, [number, number][]]>([
    ['no data at all', [], 0, 60, 10, [[0, 60]]],
    ['full', [0, 10, 20], 0, 30, 10, []],
    [
      'hole in the middle and at the end',
      [0, 30],
      0,
      60,
      10,
      [
        [10, 30],
        [40, 60],
      ],
    ],
    [
      'hole at the start, ragged range',
      [20],
      5,
      35,
      10,
      [
        [5, 20],
        [30, 35],
      ],
    ],
  ])('%s', (_name, times, from, to, step, gaps) => {
    expect(
      findGaps(
        times.map((t) => p(t, 1)),
        from,
        to,
        step,
      ),
    ).toEqual(gaps.map(([a, b]) => ({ from: a, to: b })));
  });
});
