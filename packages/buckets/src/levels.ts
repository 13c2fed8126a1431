/**
 * Rollup levels: THE table of levels. Each level has a slot (the time one bucket covers), a
 * sub-slot (what the bucket keys its nested values by) and a partition span (the time one
 * collection covers), as in the seeds: minute buckets keyed by second in daily collections, hour
 * buckets keyed by minute in monthly collections, day buckets keyed by hour in yearly collections;
 * and the defaults operators start from (retention, freshness budget). Everything else about a
 * level — env variables, partition names, native widths, finality, the chart's and alerts' rows —
 * is derived from `LEVEL_SPECS` (docs/architecture.md, "Where to add": a level).
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
  /**
   * Slots start at `originMs + k × slotMs`: 0 (the epoch) aligns minutes, hours and UTC days. A
   * level of weeks would need 4 days here (1970-01-01 was a Thursday: the epoch gives Thursday
   * weeks) and a partition span that weeks divide.
   */
  readonly originMs: number;
  readonly partitionSpan: PartitionSpan;
  /** Characters of `YYYYMMDDHHmm` a bucket id keeps: minute 12, hour 10, day 8. */
  readonly stampLength: number;
  /** How long a partition is kept by default (the scheduler's `RETENTION`, docs/scheduling.md). */
  readonly retentionMs: number;
  /**
   * How long a worker may hold consumed ticks before writing them, by default: the staleness of
   * the level's newest buckets (docs/freshness.md; the workers' FRESHNESS_BUDGET_MS).
   */
  readonly freshnessBudgetMs: number;
  /** The indefinite article before the level's name in messages: `an hour boundary`. */
  readonly article: 'a' | 'an';
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
    originMs: 0,
    partitionSpan: 'day',
    stampLength: 12,
    retentionMs: 7 * DAY,
    freshnessBudgetMs: 5 * SECOND,
    article: 'a',
  },
  hour: {
    level: 'hour',
    slotMs: HOUR,
    subSlotMs: MINUTE,
    subSlots: 60,
    subKey: 'm',
    sumsKey: MINUTE_SUMS,
    originMs: 0,
    partitionSpan: 'month',
    stampLength: 10,
    retentionMs: 90 * DAY,
    freshnessBudgetMs: MINUTE,
    article: 'an',
  },
  day: {
    level: 'day',
    slotMs: DAY,
    subSlotMs: HOUR,
    subSlots: 24,
    subKey: 'h',
    sumsKey: undefined,
    originMs: 0,
    partitionSpan: 'year',
    stampLength: 8,
    retentionMs: 5 * 365 * DAY,
    // Not longer: a level's lag counts what it holds, and past a minute the held records would
    // cross TickertapeLevelBehind's 120 s (infra/prometheus/tickertape-alerts.yml).
    freshnessBudgetMs: MINUTE,
    article: 'a',
  },
};

export function isLevel(text: string): text is Level {
  return (LEVELS as readonly string[]).includes(text);
}

/** Where the points of one width come from: a level's buckets whole (`slot`) or their sub-slots. */
export interface WidthSource {
  level: Level;
  detail: 'slot' | 'sub';
}

/**
 * Every native width (a level's sub-slot or slot), finest first, with its sources best first:
 * sub-slots of the coarser level before whole buckets of the finer one (one document per 60
 * minute points instead of one per point). Derived from the table, so a new level's widths follow.
 */
export const NATIVE_WIDTHS: readonly { stepMs: number; sources: readonly WidthSource[] }[] =
  (() => {
    const widths = new Map<number, WidthSource[]>();
    const add = (stepMs: number, source: WidthSource) =>
      widths.set(stepMs, [...(widths.get(stepMs) ?? []), source]);
    // Coarsest level first, so each width lists the coarser level's sub-slots before the finer
    // level's whole buckets.
    for (const level of [...LEVELS].reverse())
      add(LEVEL_SPECS[level].subSlotMs, { level, detail: 'sub' });
    for (const level of [...LEVELS].reverse())
      add(LEVEL_SPECS[level].slotMs, { level, detail: 'slot' });
    return [...widths].sort(([a], [b]) => a - b).map(([stepMs, sources]) => ({ stepMs, sources }));
  })();
