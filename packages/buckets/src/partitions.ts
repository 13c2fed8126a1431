import { LEVELS, LEVEL_SPECS, type Level } from './levels.js';
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

const STAMP_LENGTH = { day: 8, month: 6, year: 4 } as const;
const PREFIX = 'rollup_';

function rangeStart(level: Level, ts: number): number {
  const d = new Date(ts);
  const year = d.getUTCFullYear();
  switch (LEVEL_SPECS[level].partitionSpan) {
    case 'day':
      return Date.UTC(year, d.getUTCMonth(), d.getUTCDate());
    case 'month':
      return Date.UTC(year, d.getUTCMonth(), 1);
    case 'year':
      return Date.UTC(year, 0, 1);
  }
}

function nextRangeStart(level: Level, start: number): number {
  const d = new Date(start);
  const year = d.getUTCFullYear();
  switch (LEVEL_SPECS[level].partitionSpan) {
    case 'day':
      return Date.UTC(year, d.getUTCMonth(), d.getUTCDate() + 1);
    case 'month':
      return Date.UTC(year, d.getUTCMonth() + 1, 1);
    case 'year':
      return Date.UTC(year + 1, 0, 1);
  }
}

/** The partition of `level` that holds instant `ts`. */
export function partitionOf(level: Level, ts: number): PartitionRange {
  const startMs = rangeStart(level, ts);
  const name = `${PREFIX}${level}_${stamp(startMs).slice(0, STAMP_LENGTH[LEVEL_SPECS[level].partitionSpan])}`;
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
