import { Ends, Totals } from './aggregate.js';
import { fieldSetKey } from './field-sets.js';
import { KEEP_EVERYTHING } from './level-policy.js';
import { LEVEL_SPECS, SECOND_SUMS, type Level } from './levels.js';
import { partitionOf } from './partitions.js';
import { sketchKey } from './sketch.js';
import { bucketId, slotStart } from './slots.js';

/** One decoded tick with where it came from: what the fold needs, nothing more. */
export interface FoldInput {
  seriesKey: string;
  metric: string;
  tags: Readonly<Record<string, string>>;
  ts: number;
  fields: Readonly<Record<string, number>>;
  strings: Readonly<Record<string, string>>;
  kafkaPartition: number;
  offset: number;
}

/** What the fold reads of a decoded tick (structurally `@tickertape/tick`'s Tick). */
export interface TickFields {
  metric: string;
  tags: Readonly<Record<string, string>>;
  ts: number;
  fields: Readonly<Record<string, number>>;
  strings: Readonly<Record<string, string>>;
}

/**
 * A tick as the fold takes it, from where it came: the Kafka partition and offset on the live
 * path and in a rebuild, the input's own partition and line number in a backfill.
 */
export function foldInputOf(
  tick: TickFields,
  seriesKey: string,
  kafkaPartition: number,
  offset: number,
): FoldInput {
  const { metric, tags, ts, fields, strings } = tick;
  return { seriesKey, metric, tags, ts, fields, strings, kafkaPartition, offset };
}

/**
 * What one flush adds to one numeric field of a bucket. A bucket in the compact form (every
 * minute bucket, an hour bucket of a metric the level policy keeps compact) keeps a sum per
 * sub-slot (the counts are per field set, on the delta); the others full totals per sub-slot.
 */
export interface FieldDelta {
  total: Totals;
  /** Full form: the totals of each minute or hour, by index. */
  sub: (Totals | undefined)[];
  /** Compact form: the sum of this field's values in each sub-slot, by index; NaN = none. */
  subSums: Float64Array | undefined;
}

/**
 * Where a bucket keeps a sketched metric's sketches (docs/data-layout.md): one per minute, so a
 * minute bucket in its totals, an hour bucket in each minute's full aggregate, a day bucket in each
 * hour's. Coarser totals keep none (the merge of their sub-slots' is theirs), and a compact hour
 * none at all (a minute's sum with one tick is its value, exact; the read side adds it).
 */
export type SketchPlace = 'totals' | 'sub';

export function sketchPlace(level: Level, compact: boolean): SketchPlace | undefined {
  if (LEVEL_SPECS[level].subKey === SECOND_SUMS) return 'totals';
  return compact ? undefined : 'sub';
}

/** Everything one flush adds to one bucket, from one Kafka partition. */
export interface BucketDelta {
  level: Level;
  id: string;
  collection: string;
  seriesKey: string;
  metric: string;
  tags: Readonly<Record<string, string>>;
  slotStart: number;
  kafkaPartition: number;
  /** Lowest and highest offset folded in; the guard and the applied mark use them. */
  minOffset: number;
  maxOffset: number;
  ticks: number;
  /** Whether the bucket is in the compact form (sums and counts per sub-slot). */
  compact: boolean;
  /** Where its fields' sketches go; undefined when the metric keeps none here. */
  sketch: SketchPlace | undefined;
  /** The bin keys of the metric's α (the level policy's), for one flush. */
  sketchKeys: SketchKeys | undefined;
  /** The metric's weighted fields (field → weight field), from the level policy. */
  weights: ReadonlyMap<string, string> | undefined;
  fields: Map<string, FieldDelta>;
  /** Compact form: ticks per sub-slot, by field-set key (see field-sets.ts). */
  subCounts: Map<string, Uint32Array>;
  strings: Map<string, Ends<string>>;
}

function newDelta(
  level: Level,
  input: FoldInput,
  id: string,
  start: number,
  compact: boolean,
  policy: FoldPolicy,
  sketchKeys: FlushSketchKeys,
): BucketDelta {
  const sketch = policy.sketches(input.metric) ? sketchPlace(level, compact) : undefined;
  return {
    level,
    id,
    collection: partitionOf(level, start).name,
    seriesKey: input.seriesKey,
    metric: input.metric,
    tags: input.tags,
    slotStart: start,
    kafkaPartition: input.kafkaPartition,
    minOffset: input.offset,
    maxOffset: input.offset,
    ticks: 0,
    compact,
    sketch,
    sketchKeys: sketch === undefined ? undefined : sketchKeys.at(policy.sketchAlpha(input.metric)),
    weights: policy.weightsOf(input.metric),
    fields: new Map(),
    subCounts: new Map(),
    strings: new Map(),
  };
}

function newField(total: Totals, compact: boolean, subSlots: number): FieldDelta {
  return {
    total,
    sub: compact ? [] : new Array<Totals | undefined>(subSlots),
    subSums: compact ? new Float64Array(subSlots).fill(Number.NaN) : undefined,
  };
}

/**
 * Sketch keys by value, for one flush: a bin key costs a logarithm and a string, a lookup ~20×
 * less, and readings repeat (a sensor's one decimal, a price's ticks). Bounded: cleared when full.
 */
export class SketchKeys {
  private readonly keys = new Map<number, string>();

  constructor(private readonly alpha: number) {}

  of(value: number): string {
    let key = this.keys.get(value);
    if (key === undefined) {
      if (this.keys.size >= 4096) this.keys.clear();
      this.keys.set(value, (key = sketchKey(value, this.alpha)));
    }
    return key;
  }
}

/** A flush's sketch keys, one cache per α the policy keeps a metric at. */
class FlushSketchKeys {
  private readonly byAlpha = new Map<number, SketchKeys>();

  at(alpha: number): SketchKeys {
    let keys = this.byAlpha.get(alpha);
    if (keys === undefined) this.byAlpha.set(alpha, (keys = new SketchKeys(alpha)));
    return keys;
  }
}

function addTick(delta: BucketDelta, input: FoldInput): void {
  delta.ticks += 1;
  const { ts: t, offset: o } = input;
  if (o < delta.minOffset) delta.minOffset = o;
  if (o > delta.maxOffset) delta.maxOffset = o;
  const spec = LEVEL_SPECS[delta.level];
  const { compact, sketch, sketchKeys, weights } = delta;
  const sub = Math.floor((t - delta.slotStart) / spec.subSlotMs);
  let numeric = false;
  for (const name in input.fields) {
    numeric = true;
    const v = input.fields[name]!;
    let field = delta.fields.get(name);
    if (field === undefined) {
      field = newField(new Totals(t, o, v), compact, spec.subSlots);
      delta.fields.set(name, field);
    } else {
      field.total.add(t, o, v);
    }
    let slot: Totals | undefined;
    if (field.subSums !== undefined) {
      const sum = field.subSums[sub]!;
      field.subSums[sub] = Number.isNaN(sum) ? v : sum + v;
    } else {
      slot = field.sub[sub];
      if (slot === undefined) field.sub[sub] = slot = new Totals(t, o, v);
      else slot.add(t, o, v);
    }
    if (weights !== undefined) {
      const by = weights.get(name);
      const w = by === undefined ? undefined : input.fields[by];
      if (w !== undefined) {
        field.total.weigh(v, w);
        slot?.weigh(v, w);
      }
    }
    if (sketch !== undefined) {
      const into = sketch === 'totals' ? field.total : slot;
      if (into !== undefined) {
        const bins = (into.bins ??= new Map());
        const key = sketchKeys!.of(v);
        bins.set(key, (bins.get(key) ?? 0) + 1);
      }
    }
  }
  if (compact && numeric) {
    const key = fieldSetKey(input.fields);
    let counts = delta.subCounts.get(key);
    if (counts === undefined) delta.subCounts.set(key, (counts = new Uint32Array(spec.subSlots)));
    counts[sub]! += 1;
  }
  for (const name in input.strings) {
    const v = input.strings[name]!;
    const seen = delta.strings.get(name);
    if (seen) seen.add(t, o, v);
    else delta.strings.set(name, new Ends(t, o, v));
  }
}

/**
 * What the fold asks of the level policy (`LevelPolicy` is one): which metrics a level keeps
 * compact, which keep sketches, which fields are weighted by which. Asked once per bucket.
 */
export interface FoldPolicy {
  compacts(level: Level, metric: string): boolean;
  sketches(metric: string): boolean;
  /** The α a sketched metric's bins are kept at. */
  sketchAlpha(metric: string): number;
  weightsOf(metric: string): ReadonlyMap<string, string> | undefined;
}

/**
 * Coalesces a batch into one delta per bucket (per Kafka partition, which for a keyed topic is
 * one per bucket): however many ticks a bucket gets in a flush, it costs one database update.
 * A record delivered twice within the batch (same partition and offset) counts once. Minute
 * buckets are always compact; an hour bucket is when the policy keeps its metric compact. Every
 * aggregate keeps Σx²; the policy's weighted fields keep Σx·w and Σw, its sketched metrics sketches.
 */
export function foldBatch(
  level: Level,
  inputs: Iterable<FoldInput>,
  policy: FoldPolicy = KEEP_EVERYTHING,
): Map<string, BucketDelta> {
  const alwaysCompact = LEVEL_SPECS[level].subKey === SECOND_SUMS;
  const canCompact = LEVEL_SPECS[level].sumsKey !== undefined;
  const deltas = new Map<string, BucketDelta>();
  const sketchKeys = new FlushSketchKeys();
  // Per Kafka partition: the offsets seen, and its deltas by series key, then slot start. Nested
  // maps rather than one string key per tick: the series key is usually the same string object
  // tick after tick (the decoder's cache), so no key is built or hashed anew per tick.
  const partitions = new Map<
    number,
    { offsets: SeenOffsets; bySeries: Map<string, Map<number, BucketDelta>> }
  >();
  for (const input of inputs) {
    let partition = partitions.get(input.kafkaPartition);
    if (partition === undefined) {
      partition = { offsets: new SeenOffsets(), bySeries: new Map() };
      partitions.set(input.kafkaPartition, partition);
    }
    if (!partition.offsets.add(input.offset)) continue;

    const start = slotStart(level, input.ts);
    let bySlot = partition.bySeries.get(input.seriesKey);
    if (bySlot === undefined)
      partition.bySeries.set(input.seriesKey, (bySlot = new Map<number, BucketDelta>()));
    let delta = bySlot.get(start);
    if (delta === undefined) {
      delta = newDelta(
        level,
        input,
        bucketId(level, input.seriesKey, start),
        start,
        alwaysCompact || (canCompact && policy.compacts(level, input.metric)),
        policy,
        sketchKeys,
      );
      bySlot.set(start, delta);
      deltas.set(deltaKey(input.kafkaPartition, start, input.seriesKey), delta);
    }
    addTick(delta, input);
  }
  return deltas;
}

/**
 * The offsets of one partition seen in a batch. Kafka delivers them in increasing order, so the
 * common case is a push onto a sorted list; an offset at or below the highest seen (a replay
 * inside the batch, or a shuffled test) is looked up in that list and in the few out of order.
 */
class SeenOffsets {
  private readonly ordered: number[] = [];
  private readonly others = new Set<number>();

  /** Whether `offset` is new (and now seen). */
  add(offset: number): boolean {
    const { ordered } = this;
    if (ordered.length === 0 || offset > ordered[ordered.length - 1]!) {
      ordered.push(offset);
      return true;
    }
    if (this.others.has(offset) || sortedHas(ordered, offset)) return false;
    this.others.add(offset);
    return true;
  }
}

function sortedHas(sorted: readonly number[], value: number): boolean {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const at = sorted[mid]!;
    if (at === value) return true;
    if (at < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/**
 * Which delta of a flush a record belongs to: one per Kafka partition and bucket. Built from the
 * slot start rather than the bucket id, so the hot path formats an id once per bucket, not per tick.
 */
export function deltaKey(kafkaPartition: number, start: number, seriesKey: string): string {
  return `${kafkaPartition}/${start}/${seriesKey}`;
}
