import { stamp } from '@tickertape/buckets';

/**
 * Segments (seed 004): one series' raw points in time order, in size-bounded documents —
 * at most `maxPoints` points and never past the end of a UTC day — kept in one collection per
 * day, `segments_<YYYYMMDD>`, so retention is a collection drop as for the rollups.
 *
 * The segments of a series fed by one Kafka partition form a *chain*. A series normally has one;
 * a producer with another partitioner can put it on a second partition, and then each partition's
 * points go to a chain of their own — each chain has one writer, as the guards need — and reads
 * merge the chains (docs/segments.md, "One series on two partitions").
 *
 * Each segment knows where its neighbours in its chain end and start (`prevEnd`, `nextStart`;
 * ±Infinity when there is none), so one query returns the segments holding a range's points and
 * the points just outside it.
 */
export interface SegmentPoint {
  t: number;
  /** Numeric fields of the tick. */
  v: Record<string, number>;
}

export interface SegmentDocument {
  /** `<seriesKey>:<YYYYMMDD>:<kafka partition, 3 digits>:<offset of its first point, 19 digits>`. */
  _id: string;
  series: string;
  metric: string;
  tags: Record<string, string>;
  /** UTC day of every point, `YYYYMMDD`. */
  day: string;
  /** Times of the first and last point. */
  start: number;
  end: number;
  /** Time of the previous segment's last point; -Infinity for a series' first segment. */
  prevEnd: number;
  /** Time of the next segment's first point; +Infinity while this is the series' newest. */
  nextStart: number;
  n: number;
  /** Point times, in order, and the fields of each point at the same index. */
  t: number[];
  v: Record<string, number>[];
  /** The newest point (what write-on-change compares with). */
  last: SegmentPoint;
  /** Highest Kafka offset applied per partition: the replay guard, as in the rollups. */
  ap: Record<string, number>;
  /**
   * The Kafka partition every point of the segment came from: its chain. Also in the `_id`,
   * which is what readers use (segments written before this field existed lack it).
   */
  p: number;
}

export const SEGMENT_PREFIX = 'segments_';

export function dayOf(ts: number): string {
  return stamp(ts).slice(0, 8);
}

export function segmentCollection(day: string): string {
  return `${SEGMENT_PREFIX}${day}`;
}

/** The day a segment collection holds, or undefined for any other collection. */
export function parseSegmentCollection(name: string): string | undefined {
  const match = /^segments_(\d{8})$/.exec(name);
  return match?.[1];
}

export function segmentId(series: string, day: string, partition: number, offset: number): string {
  return `${series}:${day}:${String(partition).padStart(3, '0')}:${String(offset).padStart(19, '0')}`;
}

/** The Kafka partition (chain) a segment id names: the digits before the offset's 19. */
export function partitionOfSegmentId(id: string): number {
  const end = id.length - 20; // the ':' before the offset
  return Number(id.slice(id.lastIndexOf(':', end - 1) + 1, end));
}
