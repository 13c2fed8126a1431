/**
 * Rollup levels. Each level has a slot (the time one bucket covers), a sub-slot (what the bucket
 * keys its nested values by) and a partition span (the time one collection covers), as in the
 * seeds: minute buckets keyed by second in daily collections, hour buckets keyed by minute in
 * monthly collections, day buckets keyed by hour in yearly collections.
 */
export const LEVELS = ['minute', 'hour', 'day'] as const;
export type Level = (typeof LEVELS)[number];

export type PartitionSpan = 'day' | 'month' | 'year';

/** A minute bucket field's per-second sums. */
export const SECOND_SUMS = 'sec';
/** A minute bucket's per-second tick counts, by field set (see field-sets.ts); an hour bucket's per-minute ones in the compact form. */
export const SECOND_COUNTS = 'c';
/** A compact hour bucket field's per-minute sums (the level policy's `compact`, level-policy.ts). */
export const MINUTE_SUMS = 'msum';
/**
 * Where minute buckets written before the compact layout keep the last value of each second,
 * as a `{t, o, v}` mark. Readers still read it; writers never write it (docs/data-layout.md).
 */
export const LEGACY_SECOND_MARKS = 'v';

export type SubKey = typeof SECOND_SUMS | 'm' | 'h';

export interface LevelSpec {
  readonly level: Level;
  readonly slotMs: number;
  readonly subSlotMs: number;
  /** Sub-slots per slot: 60 seconds, 60 minutes, 24 hours. */
  readonly subSlots: number;
  /**
   * Name of the nested per-sub-slot map in a bucket field: `sec` holds a minute bucket's sum per
   * second (its counts are per field set, in the bucket's `c`); `m` and `h` full totals.
   */
  readonly subKey: SubKey;
  /**
   * Name of the per-sub-slot sums map in the compact form (sums here, counts per field set in
   * the bucket's `c`): a minute bucket is always compact (`sec`); an hour bucket is when the level
   * policy says so (`msum`); a day bucket never.
   */
  readonly sumsKey: typeof SECOND_SUMS | typeof MINUTE_SUMS | undefined;
  readonly partitionSpan: PartitionSpan;
  /** Characters of `YYYYMMDDHHmm` a bucket id keeps: minute 12, hour 10, day 8. */
  readonly stampLength: number;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const LEVEL_SPECS: Readonly<Record<Level, LevelSpec>> = {
  minute: {
    level: 'minute',
    slotMs: MINUTE,
    subSlotMs: SECOND,
    subSlots: 60,
    subKey: SECOND_SUMS,
    sumsKey: SECOND_SUMS,
    partitionSpan: 'day',
    stampLength: 12,
  },
  hour: {
    level: 'hour',
    slotMs: HOUR,
    subSlotMs: MINUTE,
    subSlots: 60,
    subKey: 'm',
    sumsKey: MINUTE_SUMS,
    partitionSpan: 'month',
    stampLength: 10,
  },
  day: {
    level: 'day',
    slotMs: DAY,
    subSlotMs: HOUR,
    subSlots: 24,
    subKey: 'h',
    sumsKey: undefined,
    partitionSpan: 'year',
    stampLength: 8,
  },
};

export function isLevel(text: string): text is Level {
  return (LEVELS as readonly string[]).includes(text);
}
