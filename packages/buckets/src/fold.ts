import { addMark, aggregateOf, type Aggregate } from './aggregate.js';
import { LEVEL_SPECS, type Level } from './levels.js';
import { earlier, later, type Mark } from './marks.js';
import { partitionOf } from './partitions.js';
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

export interface FieldDelta {
  total: Aggregate;
  /** Per sub-slot (second, minute or hour index). */
  sub: Map<number, Aggregate>;
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
  fields: Map<string, FieldDelta>;
  strings: Map<string, { first: Mark<string>; last: Mark<string> }>;
}

function newDelta(level: Level, input: FoldInput, id: string, start: number): BucketDelta {
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
    fields: new Map(),
    strings: new Map(),
  };
}

function addTick(delta: BucketDelta, input: FoldInput): void {
  delta.ticks += 1;
  if (input.offset < delta.minOffset) delta.minOffset = input.offset;
  if (input.offset > delta.maxOffset) delta.maxOffset = input.offset;
  const sub = Math.floor((input.ts - delta.slotStart) / LEVEL_SPECS[delta.level].subSlotMs);
  for (const name in input.fields) {
    const mark: Mark = { t: input.ts, o: input.offset, v: input.fields[name]! };
    const field = delta.fields.get(name);
    if (!field) {
      delta.fields.set(name, {
        total: aggregateOf(mark),
        sub: new Map([[sub, aggregateOf(mark)]]),
      });
      continue;
    }
    addMark(field.total, mark);
    const slot = field.sub.get(sub);
    if (slot) addMark(slot, mark);
    else field.sub.set(sub, aggregateOf(mark));
  }
  for (const name in input.strings) {
    const mark: Mark<string> = { t: input.ts, o: input.offset, v: input.strings[name]! };
    const seen = delta.strings.get(name);
    if (seen) {
      seen.first = earlier(seen.first, mark);
      seen.last = later(seen.last, mark);
    } else {
      delta.strings.set(name, { first: mark, last: mark });
    }
  }
}

/**
 * Coalesces a batch into one delta per bucket (per Kafka partition, which for a keyed topic is
 * one per bucket): however many ticks a bucket gets in a flush, it costs one database update.
 * A record delivered twice within the batch (same partition and offset) counts once.
 */
export function foldBatch(level: Level, inputs: Iterable<FoldInput>): Map<string, BucketDelta> {
  const deltas = new Map<string, BucketDelta>();
  const seen = new Map<number, Set<number>>();
  for (const input of inputs) {
    let offsets = seen.get(input.kafkaPartition);
    if (!offsets) seen.set(input.kafkaPartition, (offsets = new Set()));
    if (offsets.has(input.offset)) continue;
    offsets.add(input.offset);

    const start = slotStart(level, input.ts);
    const key = deltaKey(input.kafkaPartition, start, input.seriesKey);
    let delta = deltas.get(key);
    if (!delta) {
      delta = newDelta(level, input, bucketId(level, input.seriesKey, start), start);
      deltas.set(key, delta);
    }
    addTick(delta, input);
  }
  return deltas;
}

/**
 * Which delta of a flush a record belongs to: one per Kafka partition and bucket. Built from the
 * slot start rather than the bucket id, so the hot path formats an id once per bucket, not per tick.
 */
export function deltaKey(kafkaPartition: number, start: number, seriesKey: string): string {
  return `${kafkaPartition}/${start}/${seriesKey}`;
}
