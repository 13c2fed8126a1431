import { LEVEL_SPECS, type Level } from '@tickertape/buckets';
import {
  partitionOfSegmentId,
  segmentDayRange,
  type SegmentDocument,
  type SegmentStore,
} from '@tickertape/segments';
import type { RollupStore } from '@tickertape/store';
import { isDate } from './compare-documents.js';

/** Instants `[fromMs, toMs)`; a bucket or a segment day is checked when it lies wholly inside. */
export interface CheckedRange {
  fromMs: number;
  toMs: number;
}

export const WHOLE_TIME: CheckedRange = {
  fromMs: Number.NEGATIVE_INFINITY,
  toMs: Number.POSITIVE_INFINITY,
};

const DAY_MS = 86_400_000;

export function slotInRange(level: Level, start: number, range: CheckedRange): boolean {
  return start >= range.fromMs && start + LEVEL_SPECS[level].slotMs <= range.toMs;
}

export function dayStartOf(ts: number): number {
  return Math.floor(ts / DAY_MS) * DAY_MS;
}

export function dayInRange(dayStart: number, range: CheckedRange): boolean {
  return dayStart >= range.fromMs && dayStart + DAY_MS <= range.toMs;
}

/** Every stored bucket of `level` whose slot lies in the range, by `_id`. */
export async function storedBuckets(
  store: RollupStore,
  level: Level,
  range: CheckedRange,
): Promise<Map<string, Record<string, unknown>>> {
  const buckets = new Map<string, Record<string, unknown>>();
  for (const partition of await store.listPartitions()) {
    if (partition.level !== level) continue;
    if (partition.endMs <= range.fromMs || partition.startMs >= range.toMs) continue;
    for await (const doc of store.partition(partition.name).scan()) {
      const start = (doc as { start?: unknown }).start;
      if (isDate(start) && !slotInRange(level, start.getTime(), range)) continue;
      buckets.set(doc._id, doc);
    }
  }
  return buckets;
}

/**
 * Every stored segment of the days in the range, per series and per chain (the Kafka partition in
 * its id), in `_id` order: day, then first offset.
 */
export async function storedSegments(
  store: SegmentStore,
  range: CheckedRange,
): Promise<Map<string, Map<number, SegmentDocument[]>>> {
  const bySeries = new Map<string, Map<number, SegmentDocument[]>>();
  for (const day of await store.listDays()) {
    const days = segmentDayRange(day);
    if (days === undefined || !dayInRange(days.startMs, range)) continue;
    for await (const segment of store.scanDay(day)) {
      let chains = bySeries.get(segment.series);
      if (!chains) bySeries.set(segment.series, (chains = new Map<number, SegmentDocument[]>()));
      const partition = partitionOfSegmentId(segment._id);
      const chain = chains.get(partition);
      if (chain) chain.push(segment);
      else chains.set(partition, [segment]);
    }
  }
  return bySeries;
}
