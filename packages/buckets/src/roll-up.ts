import { sqCoversAll, type Aggregate } from './aggregate.js';
import { LEVEL_SPECS, LEVELS, type Level } from './levels.js';
import { earlier, later, type Mark } from './marks.js';
import { mergeBins, type SketchBins } from './sketch.js';
import { bucketId, slotStart, subSlot } from './slots.js';

/** The levels a roll-up can make (all but the finest): each from the level below (minute → hour → day). */
export type CoarseLevel = Exclude<Level, (typeof LEVELS)[0]>;

/** A finer level's bucket document as stored (or read back): only the fields a roll-up reads. */
export type FinerBucket = Readonly<Record<string, unknown>>;

/** An aggregate this rebuild builds: its sketch an object of its own (sketchOf), added to in place. */
type Folding = Omit<Aggregate, 'q'> & { q?: SketchBins };

interface FieldDoc extends Folding {
  [sub: string]: unknown;
}

interface Building {
  _id: string;
  series: string;
  metric: string;
  tags: unknown;
  level: CoarseLevel;
  start: Date;
  n: number;
  f: Record<string, FieldDoc>;
  s: Record<string, { first: Mark<string>; last: Mark<string> }>;
  ap: Record<string, number>;
}

function totalsOf(field: Readonly<Record<string, unknown>>): Folding {
  const totals: Folding = {
    n: field.n as number,
    sum: field.sum as number,
    min: field.min as number,
    max: field.max as number,
    first: field.first as Mark,
    last: field.last as Mark,
  };
  if (typeof field.sq === 'number' && sqCoversAll(field)) totals.sq = field.sq;
  if (typeof field.xw === 'number' && typeof field.w === 'number') {
    totals.xw = field.xw;
    totals.w = field.w;
    // A bucket written before `wn` existed counted every tick it weighed as n.
    totals.wn = typeof field.wn === 'number' ? field.wn : totals.n;
  }
  return totals;
}

/**
 * The sketch of a finer bucket's field: its totals' (a minute bucket's) or the merge of its
 * sub-slots' (an hour bucket's minutes). Shell padding holds no bins, so it adds nothing.
 */
function sketchOf(
  field: Readonly<Record<string, unknown>>,
  subKey: string,
): SketchBins | undefined {
  if (typeof field.q === 'object' && field.q !== null) return { ...(field.q as SketchBins) };
  const subs = field[subKey] as Record<string, { q?: SketchBins }> | undefined;
  let bins: SketchBins | undefined;
  for (const index in subs ?? {}) {
    const q = subs![index]!.q;
    if (q !== undefined) mergeBins((bins ??= {}), q);
  }
  return bins;
}

// The optional parts add up where present, as `$inc` adds them: a bucket written before they
// existed adds nothing to them.
function addOptional(into: Folding, add: Aggregate): void {
  if (add.sq !== undefined) into.sq = (into.sq ?? 0) + add.sq;
  if (add.xw !== undefined && add.w !== undefined) {
    into.xw = (into.xw ?? 0) + add.xw;
    into.w = (into.w ?? 0) + add.w;
    into.wn = (into.wn ?? 0) + add.wn!;
  }
  if (add.q !== undefined) mergeBins((into.q ??= {}), add.q);
}

// Finer buckets cover disjoint spans of time, so first/last of two of them never tie on time:
// earlier/later by (t, o) pick what $min/$max on {t, o, v} picked.
function merge(into: Folding, add: Aggregate): void {
  into.n += add.n;
  into.sum += add.sum;
  if (add.min < into.min) into.min = add.min;
  if (add.max > into.max) into.max = add.max;
  into.first = earlier(into.first, add.first);
  into.last = later(into.last, add.last);
  addOptional(into, add);
}

function building(level: CoarseLevel, finer: FinerBucket, start: number): Building {
  const series = finer.series as string;
  return {
    _id: bucketId(level, series, start),
    series,
    metric: finer.metric as string,
    tags: finer.tags,
    level,
    start: new Date(start),
    n: 0,
    f: {},
    s: {},
    ap: {},
  };
}

function addBucket(level: CoarseLevel, doc: Building, finer: FinerBucket, at: number): void {
  const { subKey } = LEVEL_SPECS[level];
  const finerSubKey = LEVEL_SPECS[LEVELS[LEVELS.indexOf(level) - 1]!].subKey;
  const index = String(subSlot(level, at));
  doc.n += finer.n as number;
  const fields = (finer.f ?? {}) as Record<string, Readonly<Record<string, unknown>>>;
  for (const [name, field] of Object.entries(fields)) {
    // A shell's field the series did not send in this sub-slot: padding, not data.
    if (!((field.n as number) > 0)) continue;
    // The coarse totals keep no sketch; the sub-slot this finer bucket becomes keeps its sketch.
    const totals = totalsOf(field);
    const q = sketchOf(field, finerSubKey);
    const sub: Folding = q === undefined ? { ...totals } : { ...totals, q };
    // The coarse field's `sqn`: the ticks whose Σx² it adds up, as the live fold's `$inc` counts.
    const sqn = totals.sq === undefined ? 0 : totals.n;
    const into = doc.f[name];
    if (into === undefined) {
      doc.f[name] = { ...totals, sqn, [subKey]: { [index]: sub } };
      continue;
    }
    merge(into, totals);
    into.sqn = (into.sqn ?? 0) + sqn;
    const subs = into[subKey] as Record<string, Folding>;
    const slot = subs[index];
    if (slot === undefined) subs[index] = sub;
    else merge(slot, sub);
  }
  const strings = (finer.s ?? {}) as Record<string, { first: Mark<string>; last: Mark<string> }>;
  for (const [name, marks] of Object.entries(strings)) {
    const into = doc.s[name];
    doc.s[name] = into
      ? { first: earlier(into.first, marks.first), last: later(into.last, marks.last) }
      : { first: marks.first, last: marks.last };
  }
  for (const [partition, offset] of Object.entries((finer.ap ?? {}) as Record<string, number>))
    doc.ap[partition] = Math.max(doc.ap[partition] ?? -1, offset);
}

/**
 * The buckets of `level` that the buckets of the level below make — hour buckets from minute
 * buckets, day buckets from hour buckets — exactly as the live fold would have written them from
 * the same ticks: counts and sums add (Σx², Σx·w and Σw too, where present), min/max and
 * first/last (by time, then offset) merge, each finer bucket's totals become its sub-slot entry
 * (`m.<minute>`, `h.<hour>`) with the finer bucket's sketch (a minute's, or the merge of an hour's
 * per-minute sketches: sketch bins add), `ap.<p>` is the
 * highest of the sources'. Any mix of series and slots may be given; the result is keyed by `_id`.
 * Shells and their padding contribute nothing, and a coarse slot with nothing but shells makes no
 * bucket. A minute bucket keeps only a sum and a count per second, but its totals are all an
 * hour's `m.<minute>` needs.
 */
export function rollUp(
  level: CoarseLevel,
  finer: Iterable<FinerBucket>,
): Map<string, Record<string, unknown>> {
  const built = new Map<string, Building>();
  for (const bucket of finer) {
    if (!((bucket.n as number) > 0)) continue;
    const at = (bucket.start as Date).getTime();
    const start = slotStart(level, at);
    const id = bucketId(level, bucket.series as string, start);
    let doc = built.get(id);
    if (doc === undefined) built.set(id, (doc = building(level, bucket, start)));
    addBucket(level, doc, bucket, at);
  }
  const out = new Map<string, Record<string, unknown>>();
  for (const [id, { f, s, ...rest }] of built) {
    // As the live path stores them: no `f` without a numeric field, no `s` without a string.
    out.set(id, {
      ...rest,
      ...(Object.keys(f).length > 0 ? { f } : {}),
      ...(Object.keys(s).length > 0 ? { s } : {}),
    });
  }
  return out;
}
