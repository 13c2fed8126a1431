import type { CheckedStore, Difference } from './truth.js';

/** A Date from any realm (the driver's and a test's may differ, so not `instanceof`). */
export function isDate(value: unknown): value is Date {
  return Object.prototype.toString.call(value) === '[object Date]';
}

/** Leaves of a document by dotted path; dates as epoch milliseconds. */
export function leaves(value: unknown, prefix = '', into = new Map<string, unknown>()) {
  if (isDate(value)) into.set(prefix, value.getTime());
  else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    for (const [key, inner] of Object.entries(value)) {
      leaves(inner, prefix === '' ? key : `${prefix}.${key}`, into);
    }
  } else into.set(prefix, value);
  return into;
}

/**
 * Sums of doubles depend on the order they were added in (the workers add per flush, the
 * checker in time order): equal within a few ulps per addend is equal. Everything else is exact.
 */
export const SUM_RELATIVE_TOLERANCE = 1e-9;

/**
 * A total (`sum`, and the spread's and weighted average's `sq`, `xw`, `w`) or a compact bucket's
 * per-sub-slot sum (`f.<field>.sec.<second>`, `f.<field>.msum.<minute>`). Sketch bins are counts:
 * exact.
 */
const SUM_PATH = /(\.sum|\.sq|\.xw|\.w|\.sec\.\d+|\.msum\.\d+)$/;

/**
 * How far two orders of adding the same values can part when they cancel (a sum near 0 has no
 * relative scale): each order is within (n-1)·u·Σ|x| of the exact sum (u = 2^-53), and Σ|x| is at
 * most n·max(|min|, |max|), taken from the nearest aggregate above the sum (`f.x` for
 * `f.x.sec.5`, `f.x.m.5` for `f.x.m.5.sum`). The counts themselves are compared exactly, so a
 * lost or doubled tick still shows.
 */
function cancellationBound(want: Map<string, unknown>, path: string): number {
  for (let end = path.lastIndexOf('.'); end > 0; end = path.lastIndexOf('.', end - 1)) {
    const prefix = path.slice(0, end);
    const n = want.get(`${prefix}.n`);
    const min = want.get(`${prefix}.min`);
    const max = want.get(`${prefix}.max`);
    if (typeof n === 'number' && typeof min === 'number' && typeof max === 'number')
      return n * n * Number.EPSILON * Math.max(Math.abs(min), Math.abs(max));
  }
  return 0;
}

function sameLeaf(path: string, expected: unknown, actual: unknown, bound: () => number): boolean {
  if (
    SUM_PATH.test(path) &&
    typeof expected === 'number' &&
    typeof actual === 'number' &&
    Number.isFinite(expected) &&
    Number.isFinite(actual)
  ) {
    const scale = Math.max(Math.abs(expected), Math.abs(actual), Number.MIN_VALUE);
    const apart = Math.abs(expected - actual);
    return apart <= SUM_RELATIVE_TOLERANCE * scale || apart <= bound();
  }
  return expected === actual || (Number.isNaN(expected) && Number.isNaN(actual));
}

/** One `wrong` difference per leaf that differs, is missing, or should not be there. */
export function compareDocuments(
  store: CheckedStore,
  id: string,
  expected: unknown,
  actual: unknown,
): Difference[] {
  const want = leaves(expected);
  const got = leaves(actual);
  const differences: Difference[] = [];
  for (const path of new Set([...want.keys(), ...got.keys()])) {
    const e = want.get(path);
    const a = got.get(path);
    if (!sameLeaf(path, e, a, () => cancellationBound(want, path)))
      differences.push({ store, kind: 'wrong', id, path, expected: e, actual: a });
  }
  return differences.sort((x, y) => (x.path! < y.path! ? -1 : x.path! > y.path! ? 1 : 0));
}
