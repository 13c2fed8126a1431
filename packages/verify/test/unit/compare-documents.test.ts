import { describe, expect, it } from '@jest/globals';
import { compareDocuments } from '../../src/index.js';

/** One field's aggregate as the minute level stores it, with the sum given. */
const minute = (n: number, sum: number, min: number, max: number, sec: Record<string, number>) => ({
  f: { b: { n, sum, min, max, sec } },
});

describe('compareDocuments: sums compared within what adding in another order can change', () => {
  it.each([
    // The failing case CI found: 1e6 − 1e6 + 5e-324 is 5e-324 in one order and 0 in another.
    ['cancelling sums, one order leaves a denormal', 5e-324, 0, true],
    ['cancelling sums, a few ulps of the addends apart', 2.3e-10, 0, true],
    ['a relative difference within the tolerance', 1000.0000000001, 1000, true],
    ['a sum off by one value', 999_999.999999998, 0, false],
    ['a sum off by far more than the addends can explain', 1e-3, 0, false],
  ])('%s', (_case, expectedSum, actualSum, same) => {
    const want = minute(3, expectedSum, -999_999.999999998, 999_999.999999998, {
      '0': expectedSum,
    });
    const got = minute(3, actualSum, -999_999.999999998, 999_999.999999998, { '0': actualSum });
    const differences = compareDocuments('minute', 'id', want, got);
    expect(differences.map((d) => d.path)).toEqual(same ? [] : ['f.b.sec.0', 'f.b.sum']);
  });

  it('counts, minima and maxima stay exact, so a lost tick shows whatever its value', () => {
    const want = minute(3, 0, -1, 1, { '0': 0 });
    const got = minute(2, 0, -1, 1, { '0': 0 });
    expect(compareDocuments('minute', 'id', want, got)).toEqual([
      { store: 'minute', kind: 'wrong', id: 'id', path: 'f.b.n', expected: 3, actual: 2 },
    ]);
  });

  it('a nested aggregate bounds its own sum (an hour bucket minute)', () => {
    const hour = (sum: number) => ({
      f: { b: { n: 2, sum: 0, min: -1, max: 1e12, m: { '5': { n: 2, sum, min: -1, max: 1 } } } },
    });
    // Within the field's bound (1e12) but not the minute's own (1): a real difference.
    expect(compareDocuments('hour', 'id', hour(0), hour(1e-3)).map((d) => d.path)).toEqual([
      'f.b.m.5.sum',
    ]);
  });
});
