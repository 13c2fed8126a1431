/**
 * Quantile sketches kept with `$inc` alone (DDSketch's log-spaced bins, Masson et al., VLDB 2019):
 * a value falls in the bin of its magnitude's logarithm to the base γ = (1 + α)/(1 − α), and a
 * sketch is nothing but a count per bin. Adding two sketches adds their counts, so a sketch does
 * not depend on how ticks were split into flushes, replays or levels: the merge of a window's
 * bins is exactly the sketch of its ticks. Any value read back from a bin is within α (relative)
 * of every value that fell into it.
 *
 * Bins are keyed by strings, the form a bucket document stores them in (`q.<key>`):
 * `<i>` for a positive value in bin i, `n<i>` for a negative one (by its magnitude), `z` for a
 * magnitude below SKETCH_MIN_MAGNITUDE (zero among them). Indexes are clamped to the magnitudes
 * [SKETCH_MIN_MAGNITUDE, SKETCH_MAX_MAGNITUDE]: the collapse rule that bounds a sketch to at most
 * 2 × SKETCH_MAX_BINS_PER_SIGN + 1 bins whatever the data (in practice, the few bins its values touch).
 */

/** Relative accuracy of every value a sketch answers. */
export const SKETCH_ALPHA = 0.01;
/** Magnitudes below this count as zero. */
export const SKETCH_MIN_MAGNITUDE = 1e-9;
/** Magnitudes above this share the top bin (and lose the α guarantee). */
export const SKETCH_MAX_MAGNITUDE = 1e18;

const GAMMA = (1 + SKETCH_ALPHA) / (1 - SKETCH_ALPHA);
const LN_GAMMA = Math.log(GAMMA);
const MIN_INDEX = Math.ceil(Math.log(SKETCH_MIN_MAGNITUDE) / LN_GAMMA);
const MAX_INDEX = Math.ceil(Math.log(SKETCH_MAX_MAGNITUDE) / LN_GAMMA);
/** Bins one sign can use: the clamp's range. */
export const SKETCH_MAX_BINS_PER_SIGN = MAX_INDEX - MIN_INDEX + 1;

export const ZERO_BIN = 'z';
const NEGATIVE = 'n';

/** A sketch as stored: count per bin key. */
export type SketchBins = Record<string, number>;

function indexOf(magnitude: number): number {
  const index = Math.ceil(Math.log(magnitude) / LN_GAMMA);
  return index < MIN_INDEX ? MIN_INDEX : index > MAX_INDEX ? MAX_INDEX : index;
}

/** The bin a finite value falls in. */
export function sketchKey(value: number): string {
  const magnitude = Math.abs(value);
  if (magnitude < SKETCH_MIN_MAGNITUDE) return ZERO_BIN;
  const index = indexOf(magnitude);
  return value > 0 ? String(index) : NEGATIVE + String(index);
}

/** Where a bin sits on the number line: its sign and index. */
interface Bin {
  sign: -1 | 0 | 1;
  index: number;
}

function binOf(key: string): Bin | undefined {
  if (key === ZERO_BIN) return { sign: 0, index: 0 };
  const negative = key.startsWith(NEGATIVE);
  const index = Number(negative ? key.slice(1) : key);
  if (!Number.isInteger(index)) return undefined;
  return { sign: negative ? -1 : 1, index };
}

/** The value a bin stands for: within α of any value in it (0 for the zero bin). */
export function binValue(key: string): number {
  const bin = binOf(key);
  if (bin === undefined) throw new RangeError(`not a sketch bin: ${JSON.stringify(key)}`);
  if (bin.sign === 0) return 0;
  return (bin.sign * 2 * GAMMA ** bin.index) / (GAMMA + 1);
}

/** Adds `count` ticks of `value` to `bins` (in place). */
export function addToBins(bins: SketchBins, value: number, count = 1): void {
  const key = sketchKey(value);
  bins[key] = (bins[key] ?? 0) + count;
}

/** Adds every count of `from` to `into` (in place): the merge of two sketches. Returns the ticks added. */
export function mergeBins(into: SketchBins, from: Readonly<SketchBins>): number {
  let added = 0;
  for (const key in from) {
    const count = from[key]!;
    into[key] = (into[key] ?? 0) + count;
    added += count;
  }
  return added;
}

/** Ticks a sketch holds. */
export function binsCount(bins: Readonly<SketchBins>): number {
  let count = 0;
  for (const key in bins) count += bins[key]!;
  return count;
}

/** Number-line order: most negative first, then zero, then positives ascending. */
function compareBins(a: Bin, b: Bin): number {
  if (a.sign !== b.sign) return a.sign - b.sign;
  return a.sign < 0 ? b.index - a.index : a.index - b.index;
}

/**
 * The φ-quantile of the sketched values: the value of rank ⌊φ·(n − 1)⌋ (0-based, ascending) within
 * α, as DDSketch defines it. `undefined` for an empty sketch; φ outside [0, 1] is a RangeError.
 * Bins whose key is not one of ours, or whose count is not positive, are left out.
 */
export function quantileOfBins(bins: Readonly<SketchBins>, phi: number): number | undefined {
  return quantilesOfBins(bins, [phi])[0];
}

/** Several φ at once (one sort of the bins): the same answers as `quantileOfBins` for each. */
export function quantilesOfBins(
  bins: Readonly<SketchBins>,
  phis: readonly number[],
): (number | undefined)[] {
  for (const phi of phis)
    if (!(phi >= 0 && phi <= 1)) throw new RangeError(`a quantile is in [0, 1], not ${phi}`);
  const ordered: { key: string; bin: Bin; count: number }[] = [];
  let total = 0;
  for (const key in bins) {
    const count = bins[key]!;
    const bin = binOf(key);
    if (bin === undefined || !(count > 0)) continue;
    ordered.push({ key, bin, count });
    total += count;
  }
  if (total === 0) return phis.map(() => undefined);
  ordered.sort((a, b) => compareBins(a.bin, b.bin));
  return phis.map((phi) => {
    const rank = Math.floor(phi * (total - 1));
    let seen = 0;
    for (const { key, count } of ordered) {
      seen += count;
      if (seen > rank) return binValue(key);
    }
    return binValue(ordered[ordered.length - 1]!.key);
  });
}
