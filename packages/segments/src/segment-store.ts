import type { SegmentHead, SeriesPlan } from './plan.js';
import type { SegmentRetentionPolicy } from './retention.js';
import type { SegmentDocument, SegmentPoint } from './segment-shape.js';

/** One series from one Kafka partition: what a chain of segments holds (segment-shape.ts). */
export interface Chain {
  series: string;
  partition: number;
}

/** What the store holds of the chains a flush is about to extend. */
export interface StoredHeads {
  /** The newest segment of each chain asked for that has one; a chain with none is absent. */
  heads: (Chain & { head: SegmentHead })[];
  /**
   * For each series one of whose chains has no segment: the partitions of its other stored chains
   * (a series a producer put on a second partition). Complete for those series only.
   */
  others: Map<string, number[]>;
}

export interface RawPointsQuery {
  series: string;
  fromMs: number;
  toMs: number;
  /**
   * Only this field: points without it are left out, and the neighbours are the nearest points
   * that carry it. All fields when absent.
   */
  field?: string;
}

export interface RawPointsResult {
  series: string;
  fromMs: number;
  toMs: number;
  /** Every stored point with from ≤ t < to, in time order. */
  points: SegmentPoint[];
  /** The nearest stored point before `from` and at or after `to`: what a chart draws its edges to. */
  before: SegmentPoint | null;
  after: SegmentPoint | null;
  /** Segment documents read. */
  examined: number;
}

export interface RawPointsLimits {
  /** Segment documents one read may examine. */
  maxDocuments: number;
}

export interface SegmentRetentionRun {
  /** Day collections past retention and the lateness bound, oldest first. */
  wouldDrop: string[];
  /** Of those, the ones dropped (none in a dry run). */
  dropped: string[];
}

/**
 * The segment store of exact raw points, in our words: what the segment writer, the raw reads,
 * the checker and the scheduler's retention ask of it. The planning (which segment a point goes
 * to, what is a replay, late or unchanged) is this package's and pure; a store keeps segments in
 * one collection per UTC day and applies plans under their guards. Implemented for MongoDB in
 * `@tickertape/store` (`mongoSegmentStore`).
 */
export interface SegmentStore {
  /**
   * The newest stored segment of each chain (newest day first). A flush's planning starts from
   * these; the writer keeps them between flushes while it owns the chains' partitions.
   */
  readHeads(chains: readonly Chain[]): Promise<StoredHeads>;
  /**
   * Applies a flush's plans exactly once, in two phases: first the appends to the chains' newest
   * segments (each guarded by its `minOffset`: applied only where no offset at or above it was)
   * and the closes (`nextStart`), then the new segments, oldest day first and in id order, each
   * refused if its id exists. So after a crash the newest segment stored never holds offsets
   * above points that are missing. A refused guard rejects with `SegmentConflictError`
   * (retriable): what was written stays, and the flush may be planned again from `readHeads`.
   * Resolves to the operations sent (one per segment appended to, closed or created).
   */
  appendFlush(plans: readonly SeriesPlan[]): Promise<number>;
  /**
   * Raw points of one series in `[fromMs, toMs)` with the nearest point on each side, merged
   * across the series' chains (ordered by time, then chain, then place in the chain). Refuses
   * with `SegmentBudgetError`, before reading, a range holding more segments than the limit.
   */
  readPoints(query: RawPointsQuery, limits: RawPointsLimits): Promise<RawPointsResult>;
  /** The days (`YYYYMMDD`) with a collection of segments, oldest first. */
  listDays(): Promise<string[]>;
  /** Every segment of one day, whole, in `_id` order: series, chain, first offset. */
  scanDay(day: string): AsyncIterable<SegmentDocument>;
  /** Creates a day's collection with its indexes; safe to repeat and to race. */
  ensureDay(day: string): Promise<void>;
  /**
   * Drops the days `segmentRetentionPlan` lets go at `nowMs`, listed from the store on every run
   * (a day a missed run left, or one recreated by a writer, goes with the next run). Nothing is
   * dropped in a dry run.
   */
  applyRetention(
    nowMs: number,
    policy: SegmentRetentionPolicy,
    dryRun: boolean,
  ): Promise<SegmentRetentionRun>;
}
