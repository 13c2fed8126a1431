import type { Aggregate, Level, Mark } from '@tickertape/buckets';
import type { ReadSession } from './read-session.js';

/**
 * Part of one bucket: its totals (no `sub`), or the sub-slots `[sub.from, sub.to)` of it (minutes
 * of an hour bucket, seconds of a minute one). A query's cover is made of these.
 */
export interface BucketPart {
  level: Level;
  /** The bucket's slot start, epoch ms. */
  start: number;
  sub?: { from: number; to: number };
}

/**
 * One observed sub-slot of a bucket field, as the layout holds it: a full aggregate (hour and day
 * buckets), a compact count and sum (every minute bucket, a compact hour bucket), or the last
 * value's mark of a minute bucket written before the compact layout. A sub-slot written on both
 * sides of a level-policy change appears twice (full and compact): the two add up.
 */
export type SubSlotValue =
  | { index: number; kind: 'aggregate'; aggregate: Aggregate }
  | { index: number; kind: 'compact'; n: number; sum: number }
  | { index: number; kind: 'mark'; mark: Mark };

/**
 * One bucket's values of one field, decoded by the store: the rest of the code never sees the
 * layout. `subSlots` holds what was asked for (observed sub-slots only, in index order).
 */
export interface FieldSlot {
  series: string;
  level: Level;
  /** Slot start, epoch ms. */
  start: number;
  /** The field's totals; absent when the bucket holds nothing observed of the field. */
  totals?: Aggregate;
  subSlots: SubSlotValue[];
}

/** One series' buckets of one level over slot starts `[fromMs, toMs)`, in slot order. */
export interface SlotRangeQuery {
  level: Level;
  series: string;
  field: string;
  fromMs: number;
  toMs: number;
  /** `slot`: the totals; `sub`: every observed sub-slot (the totals are not read then). */
  detail: 'slot' | 'sub';
  /** Most buckets returned (the planned count: the query's budget). */
  limit: number;
}

/**
 * One part of the listed series' buckets. `whole` reads every part of the field a bucket of the
 * level can serve (its totals and all sub-slots), what a cache of final buckets keeps.
 */
export interface PartQuery {
  part: BucketPart;
  series: readonly string[];
  field: string;
  whole: boolean;
}

/** One part of the buckets of a metric's series (tags equal), the first `limit` by series key. */
export interface MetricPartQuery {
  part: BucketPart;
  metric: string;
  tags: Readonly<Record<string, string>>;
  field: string;
  whole: boolean;
  limit: number;
}

/** Buckets with ticks of a level whose slot overlaps `[fromMs, toMs)`, by metric and tags. */
export interface BucketScope {
  level: Level;
  fromMs: number;
  toMs: number;
  metric?: string;
  tags?: Readonly<Record<string, string>>;
}

/** A series found in a scope: its names and the fields its buckets hold. */
export interface SeriesRow {
  series: string;
  metric: string;
  tags: Record<string, string>;
  fields: string[];
  /** Slot start of its newest bucket in the scope. */
  lastSlotMs: number;
}

/** A metric found in a scope, with a sample of its field and tag names. */
export interface MetricRow {
  metric: string;
  fields: string[];
  tags: string[];
}

/** A series' newest bucket with ticks at a level. */
export interface NewestBucket {
  start: number;
  /** Event time of the newest tick applied to it, over all fields; `null` if none observed. */
  lastTickMs: number | null;
}

/** How densely a metric's series sent over a span, as one level's buckets say. */
export interface MetricDensity {
  metric: string;
  /** Series with at least one tick in the span. */
  series: number;
  /** Buckets with ticks: series × slots in which they sent. */
  buckets: number;
  ticks: number;
  /** Ticks per series per minute while it sends: ticks ÷ (buckets × minutes per slot). */
  perMinute: number;
}

/** Reads of stored rollups, in our words: what the query library, the CLI and the API ask. */
export interface BucketReads {
  /** One series' buckets over a range (see SlotRangeQuery). */
  readSlots(query: SlotRangeQuery, session?: ReadSession): Promise<FieldSlot[]>;
  /** A part of the buckets of listed series (absent buckets are not returned). */
  readPart(query: PartQuery, session?: ReadSession): Promise<FieldSlot[]>;
  /** A part of the buckets of a metric's series, ordered by series key. */
  readMetricPart(query: MetricPartQuery, session?: ReadSession): Promise<FieldSlot[]>;
  /** Buckets with ticks in a scope: what a discovery would examine (budgets come first). */
  countBuckets(scope: BucketScope): Promise<number>;
  /** The series with ticks in a scope, the first `limit` by key. */
  findSeries(scope: BucketScope, limit: number): Promise<SeriesRow[]>;
  /** The metrics with ticks in a scope, with field and tag names sampled from `sample` buckets each. */
  listMetrics(scope: BucketScope, sample: number): Promise<MetricRow[]>;
  /** A series' newest bucket with ticks, searching the newest `partitions` partitions of the level. */
  newestBucket(level: Level, series: string, partitions: number): Promise<NewestBucket | undefined>;
  /** Per metric: series, buckets and ticks with data in a span (`tickertape levels --suggest`). */
  metricDensities(level: Level, fromMs: number, toMs: number): Promise<MetricDensity[]>;
}
