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
 * magnitude below SKETCH_MIN_MAGNITUDE (zero among them). A metric sketched at an α other than
 * the default (SKETCH_ALPHA) has its α in each key, in basis points: `a200_<i>`, `a200_n<i>` at
 * α = 2 %; the zero bin is the same at every α. A key says its own scale, so bins of two α add
 * up without confusion: a window whose sketch mixes them (a policy change, or a single tick's
 * exact value, which readers add at the finest α) answers within the largest α it holds.
 * Indexes are clamped to the magnitudes [SKETCH_MIN_MAGNITUDE, SKETCH_MAX_MAGNITUDE]: the
 * collapse rule that bounds a sketch to at most 2 × SKETCH_MAX_BINS_PER_SIGN + 1 bins at the
 * default α whatever the data (in practice, the few bins its values touch).
 */

/** Relative accuracy of every value a sketch answers, unless the level policy sets another. */
export const SKETCH_ALPHA = 0.01;
/** The finest and the coarsest α a metric may be sketched at. */
export const MIN_SKETCH_ALPHA = 0.001;
export const MAX_SKETCH_ALPHA = 0.2;
/** Magnitudes below this count as zero. */
export const SKETCH_MIN_MAGNITUDE = 1e-9;
/** Magnitudes above this share the top bin (and lose the α guarantee). */
export const SKETCH_MAX_MAGNITUDE = 1e18;

export const ZERO_BIN = 'z';
const NEGATIVE = 'n';
const SCALED = 'a';
const SCALE_END = '_';
const BASIS_POINTS = 10_000;

/** A sketch as stored: count per bin key. */
export type SketchBins = Record<string, number>;

/**
 * A sketch as the store's reads decode it: its bins' keys and counts side by side. Bin keys are
 * numbers, so an object keyed by them is a sparse array to V8 — a backing store as long as the
 * largest bin index, allocated for each of the thousands of sub-slot sketches a window reads and
 * scanned whole to enumerate a dozen keys. Two arrays cost what the bins hold.
 */
export class BinList {
  constructor(
    readonly keys: readonly string[],
    readonly counts: readonly number[],
  ) {}
}

/** A sketch in either form: as stored and folded (an object), or as a read decoded it (a list). */
export type Sketch = Readonly<SketchBins> | BinList;

/** A sketch as an object of its own (a copy), whichever form it is in: to add to, or to compare. */
export function toBins(sketch: Sketch | undefined): SketchBins {
  const bins: SketchBins = {};
  if (sketch !== undefined) mergeBins(bins, sketch);
  return bins;
}

/** Calls `visit` with each bin's key and count, whichever form the sketch is in. */
export function forEachBin(sketch: Sketch, visit: (key: string, count: number) => void): void {
  if (sketch instanceof BinList) {
    const { keys, counts } = sketch;
    for (let i = 0; i < keys.length; i++) visit(keys[i]!, counts[i]!);
    return;
  }
  for (const key in sketch) visit(key, sketch[key]!);
}

/** One α's bins: γ and the clamp's index range, and the prefix its keys carry. */
interface Scale {
  alpha: number;
  gamma: number;
  lnGamma: number;
  minIndex: number;
  maxIndex: number;
  prefix: string;
}

const scales = new Map<number, Scale>();

/** α in whole basis points: the form keys carry it in (0.02 → 200). */
const basisPoints = (alpha: number): number => Math.round(alpha * BASIS_POINTS);

function scaleOfBasisPoints(bp: number): Scale {
  let scale = scales.get(bp);
  if (scale === undefined) {
    const alpha = bp / BASIS_POINTS;
    const gamma = (1 + alpha) / (1 - alpha);
    const lnGamma = Math.log(gamma);
    scale = {
      alpha,
      gamma,
      lnGamma,
      minIndex: Math.ceil(Math.log(SKETCH_MIN_MAGNITUDE) / lnGamma),
      maxIndex: Math.ceil(Math.log(SKETCH_MAX_MAGNITUDE) / lnGamma),
      prefix: bp === basisPoints(SKETCH_ALPHA) ? '' : `${SCALED}${bp}${SCALE_END}`,
    };
    scales.set(bp, scale);
  }
  return scale;
}

/**
 * `alpha` if a sketch can be kept at it: whole basis points in [MIN_SKETCH_ALPHA,
 * MAX_SKETCH_ALPHA] (0.5 %, 1 %, 2.5 % …); a RangeError naming the bounds otherwise.
 */
export function checkSketchAlpha(alpha: number): number {
  const bp = basisPoints(alpha);
  if (
    !Number.isFinite(alpha) ||
    Math.abs(bp - alpha * BASIS_POINTS) > 1e-6 ||
    alpha < MIN_SKETCH_ALPHA ||
    alpha > MAX_SKETCH_ALPHA
  )
    throw new RangeError(
      `a sketch's relative accuracy α is a number in [${MIN_SKETCH_ALPHA}, ${MAX_SKETCH_ALPHA}] in whole basis points (0.0001), not ${String(alpha)}`,
    );
  return bp / BASIS_POINTS;
}

const DEFAULT_SCALE = scaleOfBasisPoints(basisPoints(SKETCH_ALPHA));
/** Bins one sign can use at the default α: the clamp's range. */
export const SKETCH_MAX_BINS_PER_SIGN = DEFAULT_SCALE.maxIndex - DEFAULT_SCALE.minIndex + 1;

function indexOf(magnitude: number, scale: Scale): number {
  const index = Math.ceil(Math.log(magnitude) / scale.lnGamma);
  return index < scale.minIndex ? scale.minIndex : index > scale.maxIndex ? scale.maxIndex : index;
}

/** The bin a finite value falls in, at `alpha` (checked by `checkSketchAlpha`). */
export function sketchKey(value: number, alpha = SKETCH_ALPHA): string {
  const magnitude = Math.abs(value);
  if (magnitude < SKETCH_MIN_MAGNITUDE) return ZERO_BIN;
  const scale = alpha === SKETCH_ALPHA ? DEFAULT_SCALE : scaleOfBasisPoints(basisPoints(alpha));
  const index = indexOf(magnitude, scale);
  return scale.prefix + (value > 0 ? String(index) : NEGATIVE + String(index));
}

/** Where a bin sits on the number line: its sign, index and scale. */
interface Bin {
  sign: -1 | 0 | 1;
  index: number;
  scale: Scale;
}

/**
 * Bins already parsed, by key: a read adds up thousands of sub-slot sketches whose few keys repeat,
 * so each key is parsed (and its value's power computed) once. Keys are few (about 1/α per tenfold
 * range of the values, per sign and α); the bound only guards against foreign keys.
 */
const parsed = new Map<string, { bin: Bin; value: number } | null>();
const PARSED_MAX = 100_000;

function parsedBin(key: string): { bin: Bin; value: number } | null {
  let known = parsed.get(key);
  if (known === undefined) {
    const bin = parseBin(key);
    known = bin === undefined ? null : { bin, value: valueOf(bin) };
    if (parsed.size >= PARSED_MAX) parsed.clear();
    parsed.set(key, known);
  }
  return known;
}

function binOf(key: string): Bin | undefined {
  return parsedBin(key)?.bin;
}

function parseBin(key: string): Bin | undefined {
  if (key === ZERO_BIN) return { sign: 0, index: 0, scale: DEFAULT_SCALE };
  let scale = DEFAULT_SCALE;
  let rest = key;
  if (key.startsWith(SCALED)) {
    const end = key.indexOf(SCALE_END);
    const bp = Number(key.slice(SCALED.length, end));
    if (end < 0 || !Number.isInteger(bp)) return undefined;
    const alpha = bp / BASIS_POINTS;
    if (alpha < MIN_SKETCH_ALPHA || alpha > MAX_SKETCH_ALPHA) return undefined;
    scale = scaleOfBasisPoints(bp);
    rest = key.slice(end + 1);
  }
  const negative = rest.startsWith(NEGATIVE);
  const digits = negative ? rest.slice(1) : rest;
  const index = Number(digits);
  if (digits === '' || !Number.isInteger(index)) return undefined;
  return { sign: negative ? -1 : 1, index, scale };
}

function valueOf(bin: Bin): number {
  if (bin.sign === 0) return 0;
  const { gamma } = bin.scale;
  return (bin.sign * 2 * gamma ** bin.index) / (gamma + 1);
}

/** The value a bin stands for: within its α of any value in it (0 for the zero bin). */
export function binValue(key: string): number {
  const known = parsedBin(key);
  if (known === null) throw new RangeError(`not a sketch bin: ${JSON.stringify(key)}`);
  return known.value;
}

/** The α a bin key was written at (the default for the zero bin); undefined for a foreign key. */
export function binAlpha(key: string): number | undefined {
  return binOf(key)?.scale.alpha;
}

/** Adds `count` ticks of `value` to `bins` (in place), at `alpha`. */
export function addToBins(bins: SketchBins, value: number, count = 1, alpha = SKETCH_ALPHA): void {
  const key = sketchKey(value, alpha);
  bins[key] = (bins[key] ?? 0) + count;
}

/**
 * The bin of a value known exactly (a sub-slot of one tick, whose sum is its value), which a
 * reader adds to a sketch: at the finest α, so it never widens the accuracy of an answer.
 */
export function exactValueKey(value: number): string {
  return sketchKey(value, MIN_SKETCH_ALPHA);
}

/** Adds one exactly known value to `bins` (in place): see `exactValueKey`. */
export function addExactValue(bins: SketchBins, value: number): void {
  const key = exactValueKey(value);
  bins[key] = (bins[key] ?? 0) + 1;
}

/** Adds every count of `from` to `into` (in place): the merge of two sketches. Returns the ticks added. */
export function mergeBins(into: SketchBins, from: Sketch): number {
  let added = 0;
  if (from instanceof BinList) {
    const { keys, counts } = from;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const count = counts[i]!;
      into[key] = (into[key] ?? 0) + count;
      added += count;
    }
    return added;
  }
  for (const key in from) {
    const count = from[key]!;
    into[key] = (into[key] ?? 0) + count;
    added += count;
  }
  return added;
}

/** Ticks a sketch holds. */
export function binsCount(bins: Sketch): number {
  let count = 0;
  if (bins instanceof BinList) for (const each of bins.counts) count += each;
  else for (const key in bins) count += bins[key]!;
  return count;
}

/**
 * The φ-quantile of the sketched values: the value of rank ⌊φ·(n − 1)⌋ (0-based, ascending) within
 * α, as DDSketch defines it. `undefined` for an empty sketch; φ outside [0, 1] is a RangeError.
 * Bins whose key is not one of ours, or whose count is not positive, are left out.
 */
export function quantileOfBins(bins: Sketch, phi: number): number | undefined {
  return quantilesOfBins(bins, [phi])[0];
}

/**
 * Several φ at once (one sort of the bins): the same answers as `quantileOfBins` for each. Bins
 * are ordered by the value they stand for, so bins of several α order as one sketch: the bin
 * holding the rank's value and the one answered are then within the largest α of each other.
 */
export function quantilesOfBins(bins: Sketch, phis: readonly number[]): (number | undefined)[] {
  for (const phi of phis)
    if (!(phi >= 0 && phi <= 1)) throw new RangeError(`a quantile is in [0, 1], not ${phi}`);
  const ordered: { value: number; count: number }[] = [];
  let total = 0;
  forEachBin(bins, (key, count) => {
    const known = parsedBin(key);
    if (known === null || !(count > 0)) return;
    ordered.push({ value: known.value, count });
    total += count;
  });
  if (total === 0) return phis.map(() => undefined);
  ordered.sort((a, b) => a.value - b.value);
  return phis.map((phi) => {
    const rank = Math.floor(phi * (total - 1));
    let seen = 0;
    for (const { value, count } of ordered) {
      seen += count;
      if (seen > rank) return value;
    }
    return ordered[ordered.length - 1]!.value;
  });
}

/** The largest α among a sketch's bins: the accuracy its quantiles are within (undefined when empty). */
export function sketchAlphaOf(bins: Sketch): number | undefined {
  let largest: number | undefined;
  forEachBin(bins, (key, count) => {
    if (key === ZERO_BIN || !(count > 0)) return;
    const alpha = binOf(key)?.scale.alpha;
    if (alpha !== undefined && (largest === undefined || alpha > largest)) largest = alpha;
  });
  return largest;
}
