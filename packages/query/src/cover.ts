import {
  LEVELS,
  LEVEL_SPECS,
  SECOND_SUMS,
  ceilTo,
  floorTo,
  slotStart,
  type Level,
} from '@tickertape/buckets';

/**
 * Which bucket parts add up to exactly [from, to): whole buckets where a slot lies inside the
 * window, and runs of sub-slot aggregates (an hour bucket's minutes, a day bucket's hours) for
 * the partial slots at the edges. Coarse levels first, so a 10-minute window costs one or two
 * hour buckets per series and a month costs a few day buckets, never one document per minute.
 */
export interface CoverPiece {
  level: Level;
  /** Slot start of the bucket read. */
  start: number;
  /** Sub-slot indexes [subFrom, subTo) summed; `undefined` = the bucket's totals. */
  sub?: { from: number; to: number };
}

/**
 * A minute bucket's sub-slots hold a sum and a count per second, not min, max, first and last:
 * it is read whole.
 */
export function hasAggregateSubSlots(level: Level): boolean {
  return LEVEL_SPECS[level].subKey !== SECOND_SUMS;
}

/** The granularity a window is rounded to: the finest totals any running level keeps. */
export function coverUnitMs(levels: readonly Level[]): number {
  const units = levels.map((level) =>
    hasAggregateSubSlots(level) ? LEVEL_SPECS[level].subSlotMs : LEVEL_SPECS[level].slotMs,
  );
  return Math.min(...units);
}

/**
 * Pieces covering [from, to), both multiples of `coverUnitMs(levels)`. Pure: the same window and
 * levels always give the same pieces, in time order.
 */
export function planCover(fromMs: number, toMs: number, levels: readonly Level[]): CoverPiece[] {
  const ordered = LEVELS.filter((level) => levels.includes(level)).reverse();
  const pieces: CoverPiece[] = [];
  const cover = (from: number, to: number, depth: number): void => {
    if (from >= to) return;
    const level = ordered[depth];
    if (level === undefined) return; // unreachable for aligned windows: the finest level covers its unit
    const spec = LEVEL_SPECS[level];
    for (let start = slotStart(level, from); start < to; start += spec.slotMs) {
      const lo = Math.max(from, start);
      const hi = Math.min(to, start + spec.slotMs);
      if (lo === start && hi === start + spec.slotMs) {
        pieces.push({ level, start });
        continue;
      }
      if (!hasAggregateSubSlots(level)) {
        cover(lo, hi, depth + 1);
        continue;
      }
      // Whole sub-slots inside this partial slot come from this bucket; the ragged edges from finer levels.
      const midFrom = ceilTo(lo, spec.subSlotMs);
      const midTo = floorTo(hi, spec.subSlotMs);
      if (midFrom >= midTo) {
        cover(lo, hi, depth + 1);
        continue;
      }
      cover(lo, midFrom, depth + 1);
      pieces.push({
        level,
        start,
        sub: { from: (midFrom - start) / spec.subSlotMs, to: (midTo - start) / spec.subSlotMs },
      });
      cover(midTo, hi, depth + 1);
    }
  };
  cover(fromMs, toMs, 0);
  return pieces;
}
