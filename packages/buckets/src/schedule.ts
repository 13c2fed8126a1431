import { LEVELS, LEVEL_SPECS, type Level } from './levels.js';
import {
  nextPartition,
  parsePartitionName,
  partitionOf,
  type PartitionRange,
} from './partitions.js';
import { slotStart } from './slots.js';

/**
 * Scheduling arithmetic for the scheduler's jobs, pure and integer-based like the rest of this
 * package: which partitions to create ahead, where finality stands, which partitions may go.
 */

/** The partition holding `nowMs` and the `ahead` partitions after it, in time order. */
export function partitionsAhead(level: Level, nowMs: number, ahead: number): PartitionRange[] {
  const ranges = [partitionOf(level, nowMs)];
  for (let i = 0; i < ahead; i++) ranges.push(nextPartition(ranges[ranges.length - 1]!));
  return ranges;
}

/**
 * The finality watermark of a level: every slot that ends at or before it is final (its slot
 * ended more than `graceMs` ago). Aligned down to a slot boundary, so it only moves in whole
 * slots and needs no tick to advance.
 */
export function finalityWatermark(level: Level, nowMs: number, graceMs: number): number {
  return slotStart(level, nowMs - graceMs);
}

/** Whether the slot of `level` starting at `start` is final under `watermark`. */
export function isSlotFinal(level: Level, start: number, watermark: number): boolean {
  return start + LEVEL_SPECS[level].slotMs <= watermark;
}

/** The level above (minute → hour → day), whose buckets hold a partition's totals once it is gone. */
export function levelAbove(level: Level): Level | undefined {
  return LEVELS[LEVELS.indexOf(level) + 1];
}

export interface RetentionPolicy {
  /** How long each level keeps its partitions, counted from a partition's end. */
  retentionMs: Readonly<Record<Level, number>>;
  /** The workers' lateness bound: a partition a late tick may still reach is never dropped. */
  latenessMs: number;
}

export type RetentionVerdict =
  | { drop: true; range: PartitionRange }
  | {
      drop: false;
      range: PartitionRange;
      reason: 'within-retention' | 'writable' | 'not-final' | 'above-not-final';
    };

/**
 * What may happen to one partition collection. It goes only when all hold: it ended longer ago
 * than the level's retention; no worker may still write to it (its end is older than the
 * lateness bound); it is final; and the level above — which holds its totals — is final over
 * its whole range too.
 */
export function retentionVerdict(
  range: PartitionRange,
  nowMs: number,
  policy: RetentionPolicy,
  watermarks: Readonly<Partial<Record<Level, number>>>,
): RetentionVerdict {
  if (range.endMs > nowMs - policy.retentionMs[range.level])
    return { drop: false, range, reason: 'within-retention' };
  if (range.endMs > nowMs - policy.latenessMs) return { drop: false, range, reason: 'writable' };
  const own = watermarks[range.level];
  if (own === undefined || range.endMs > own) return { drop: false, range, reason: 'not-final' };
  const above = levelAbove(range.level);
  if (above !== undefined) {
    const mark = watermarks[above];
    if (mark === undefined || range.endMs > mark)
      return { drop: false, range, reason: 'above-not-final' };
  }
  return { drop: true, range };
}

/** Verdicts for every partition among `names` (collection names that are not ours are ignored). */
export function retentionPlan(
  names: readonly string[],
  nowMs: number,
  policy: RetentionPolicy,
  watermarks: Readonly<Partial<Record<Level, number>>>,
): RetentionVerdict[] {
  return names
    .map((name) => parsePartitionName(name))
    .filter((range): range is PartitionRange => range !== undefined)
    .sort((a, b) => a.startMs - b.startMs || a.name.localeCompare(b.name))
    .map((range) => retentionVerdict(range, nowMs, policy, watermarks));
}

/**
 * The latest slot boundary, at most `wallMark`, at which `level` may be declared final given
 * what its consumer group has consumed: `consumedUpTo(boundary)` says whether no tick the live
 * path could still apply falls before that boundary (the scheduler asks Kafka). Consumption only
 * grows with time, so the predicate is monotone: true up to some boundary, false after it. The
 * search steps back from the wall-clock mark by doubling strides, then bisects, so a group days
 * behind costs a few dozen questions, a group caught up costs one. `floor` is a boundary known to
 * be final already (the current watermark): nothing below it is asked.
 */
export async function consumedWatermark(
  level: Level,
  wallMark: number,
  floor: number,
  consumedUpTo: (boundary: number) => Promise<boolean>,
): Promise<number> {
  const slot = LEVEL_SPECS[level].slotMs;
  if (wallMark <= floor || (await consumedUpTo(wallMark))) return Math.max(wallMark, floor);
  let bad = wallMark;
  let good = floor;
  for (let stride = slot; ; stride *= 2) {
    const probe = wallMark - stride;
    if (probe <= floor) break;
    if (await consumedUpTo(probe)) {
      good = probe;
      break;
    }
    bad = probe;
  }
  // Bisect on whole slots between the last boundary known consumed and the first known not.
  while (bad - good > slot) {
    const middle = good + Math.floor((bad - good) / slot / 2) * slot;
    if (await consumedUpTo(middle)) good = middle;
    else bad = middle;
  }
  return good;
}
