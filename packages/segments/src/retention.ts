import { segmentCollection } from './segment-shape.js';

/**
 * Retention of the segment store, pure: which day collections (`segments_<YYYYMMDD>`) may be
 * dropped at a given time. The scheduler lists the days, asks this, and drops; nothing here
 * touches the database, so the rule is table-tested on its own.
 */

export interface SegmentRetentionPolicy {
  /** How long raw points are kept, counted from the end of their UTC day. */
  retentionMs: number;
  /** The workers' lateness bound: a day a late tick may still reach is never dropped. */
  latenessMs: number;
}

export interface SegmentDay {
  day: string;
  collection: string;
  /** First instant of the UTC day (inclusive). */
  startMs: number;
  /** First instant of the next day (exclusive). */
  endMs: number;
}

export type SegmentRetentionVerdict =
  | { drop: true; segmentDay: SegmentDay }
  | { drop: false; segmentDay: SegmentDay; reason: 'within-retention' | 'writable' };

const DAY_NAME = /^(\d{4})(\d{2})(\d{2})$/;

/** A `YYYYMMDD` day as its UTC range; `undefined` for anything that is not a real date. */
export function segmentDayRange(day: string): SegmentDay | undefined {
  const match = DAY_NAME.exec(day);
  if (!match) return undefined;
  const [year, month, date] = [match[1], match[2], match[3]].map(Number) as [
    number,
    number,
    number,
  ];
  const startMs = Date.UTC(year, month - 1, date);
  // Date.UTC rolls 20261131 over to December 1st: such a name is not one the writer makes.
  const back = new Date(startMs);
  if (
    back.getUTCFullYear() !== year ||
    back.getUTCMonth() !== month - 1 ||
    back.getUTCDate() !== date
  )
    return undefined;
  return {
    day,
    collection: segmentCollection(day),
    startMs,
    endMs: Date.UTC(year, month - 1, date + 1),
  };
}

/**
 * What may happen to one day's segments. The day goes only when both hold: it ended longer ago
 * than the retention, and longer ago than the lateness bound — otherwise a late tick could
 * still land there and the writer would recreate the collection holding a stray fragment.
 * Unlike rollup partitions there is no finality to wait for: raw points are never summarised
 * into a segment above, so nothing else depends on the day being complete.
 */
export function segmentRetentionVerdict(
  segmentDay: SegmentDay,
  nowMs: number,
  policy: SegmentRetentionPolicy,
): SegmentRetentionVerdict {
  if (segmentDay.endMs > nowMs - policy.retentionMs)
    return { drop: false, segmentDay, reason: 'within-retention' };
  if (segmentDay.endMs > nowMs - policy.latenessMs)
    return { drop: false, segmentDay, reason: 'writable' };
  return { drop: true, segmentDay };
}

/** Verdicts for every well-formed day among `days`, oldest first (malformed ones are ignored). */
export function segmentRetentionPlan(
  days: readonly string[],
  nowMs: number,
  policy: SegmentRetentionPolicy,
): SegmentRetentionVerdict[] {
  return days
    .map((day) => segmentDayRange(day))
    .filter((range): range is SegmentDay => range !== undefined)
    .sort((a, b) => a.startMs - b.startMs)
    .map((range) => segmentRetentionVerdict(range, nowMs, policy));
}
