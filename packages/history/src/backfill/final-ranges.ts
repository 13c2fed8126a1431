import { isSlotFinal, partitionOf, slotEnd, slotStart, type Level } from '@tickertape/buckets';

export type Watermarks = Readonly<Partial<Record<Level, number>>>;

/** Whether the slot of `level` holding `ts` is final under the level's watermark. */
export function isFinalAt(level: Level, ts: number, watermarks: Watermarks): boolean {
  const mark = watermarks[level];
  return mark !== undefined && isSlotFinal(level, slotStart(level, ts), mark);
}

/** Final slots a backfill writes in one live partition: slot starts in `[fromMs, toMs)`. */
export interface FinalRange {
  level: Level;
  live: string;
  fromMs: number;
  toMs: number;
}

/**
 * The final slots a backfill touches, one range per live partition, from the first to the last
 * such slot: what its shadows must hold. Per partition rather than one range per level, so a
 * file holding last year and last week does not copy every bucket in between.
 */
export class FinalRanges {
  private readonly byPartition = new Map<string, FinalRange>();

  add(level: Level, ts: number): void {
    const start = slotStart(level, ts);
    const end = slotEnd(level, start);
    const live = partitionOf(level, start).name;
    const range = this.byPartition.get(live);
    if (range === undefined) this.byPartition.set(live, { level, live, fromMs: start, toMs: end });
    else {
      if (start < range.fromMs) range.fromMs = start;
      if (end > range.toMs) range.toMs = end;
    }
  }

  list(): FinalRange[] {
    return [...this.byPartition.values()].sort(
      (a, b) => a.level.localeCompare(b.level) || a.fromMs - b.fromMs,
    );
  }
}
