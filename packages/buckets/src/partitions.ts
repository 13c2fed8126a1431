import { LEVELS, LEVEL_SPECS, type Level, type PartitionSpan } from './levels.js';
import { stamp } from './slots.js';

/**
 * Time-partitioned collections: one per day (minute level), month (hour) or year (day), named
 * `rollup_<level>_<YYYY[MM[DD]]>`, so expiring history is a collection drop, as in seed 000.
 */
export interface PartitionRange {
  level: Level;
  name: string;
  /** First instant covered (inclusive). */
  startMs: number;
  /** First instant not covered (exclusive). */
  endMs: number;
}

const PREFIX = 'rollup_';

/**
 * What each partition span means in UTC: how many `YYYYMMDD` characters its name keeps, where
 * the span holding a date starts, and where the next one does.
 */
const SPANS: Readonly<
  Record<
    PartitionSpan,
    {
      stampLength: number;
      start: (year: number, month: number, date: number) => number;
      next: (year: number, month: number, date: number) => number;
    }
  >
> = {
  day: {
    stampLength: 8,
    start: (year, month, date) => Date.UTC(year, month, date),
    next: (year, month, date) => Date.UTC(year, month, date + 1),
  },
  month: {
    stampLength: 6,
    start: (year, month) => Date.UTC(year, month, 1),
    next: (year, month) => Date.UTC(year, month + 1, 1),
  },
  year: {
    stampLength: 4,
    start: (year) => Date.UTC(year, 0, 1),
    next: (year) => Date.UTC(year + 1, 0, 1),
  },
};

function spanAt(level: Level, ts: number, edge: 'start' | 'next'): number {
  const d = new Date(ts);
  return SPANS[LEVEL_SPECS[level].partitionSpan][edge](
    d.getUTCFullYear(),
    d.getUTCMonth(),
    d.getUTCDate(),
  );
}

const rangeStart = (level: Level, ts: number) => spanAt(level, ts, 'start');
const nextRangeStart = (level: Level, start: number) => spanAt(level, start, 'next');

/** The partition of `level` that holds instant `ts`. */
export function partitionOf(level: Level, ts: number): PartitionRange {
  const startMs = rangeStart(level, ts);
  const name = `${PREFIX}${level}_${stamp(startMs).slice(0, SPANS[LEVEL_SPECS[level].partitionSpan].stampLength)}`;
  return { level, name, startMs, endMs: nextRangeStart(level, startMs) };
}

/** The partition right after `range` (the scheduler creates it ahead of need). */
export function nextPartition(range: PartitionRange): PartitionRange {
  return partitionOf(range.level, range.endMs);
}

const NAME = new RegExp(`^${PREFIX}(${LEVELS.join('|')})_(\\d{4})(\\d{2})?(\\d{2})?$`);

/** Reads a collection name back into its range; `undefined` for anything that is not ours. */
export function parsePartitionName(name: string): PartitionRange | undefined {
  const match = NAME.exec(name);
  if (!match) return undefined;
  const level = match[1] as Level;
  const [year, month, day] = [match[2], match[3], match[4]].map((part) =>
    part === undefined ? undefined : Number(part),
  );
  const ts = Date.UTC(year ?? 1970, (month ?? 1) - 1, day ?? 1);
  const range = partitionOf(level, ts);
  // Reject names whose precision does not match the level (e.g. rollup_minute_202611).
  return range.name === name ? range : undefined;
}
