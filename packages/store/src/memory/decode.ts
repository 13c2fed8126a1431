import {
  LEGACY_SECOND_MARKS,
  LEVEL_SPECS,
  SECOND_SUMS,
  secondCountsOf,
  type Aggregate,
  type Level,
  type SecondCounts,
} from '@tickertape/buckets';
import type { FieldSlot, SubSlotValue } from '../port/bucket-reads.js';
import type { BucketRecord } from '../port/partitions.js';
import { isObservedAggregate, isObservedMark } from '../stored.js';
import { startOf } from './collections.js';

/** Which parts of a field to decode: totals only, or totals and the sub-slots `[from, to)`. */
export interface DecodeParts {
  sub?: { from: number; to: number };
}

/**
 * PLACEHOLDER until the layout's decoder (packages/store/src/layout/, branch store-reads) is
 * merged: one bucket record's field as a FieldSlot — shell padding and unobserved sub-slots
 * left out, compact sub-slots as count and sum, old minute marks where a second has no count.
 */
export function decodeField(
  level: Level,
  record: BucketRecord,
  field: string,
  parts: DecodeParts,
): FieldSlot {
  const slot: FieldSlot = {
    series: String(record.series),
    level,
    start: startOf(record),
    subSlots: [],
  };
  const stored = (record.f as Record<string, Record<string, unknown>> | undefined)?.[field];
  if (stored === undefined || !isObservedAggregate(stored)) return slot;
  const { n, sum, min, max, first, last } = stored as unknown as Aggregate;
  slot.totals = { n, sum, min, max, first, last };
  if (parts.sub === undefined) return slot;
  const spec = LEVEL_SPECS[level];
  const full =
    spec.subKey === SECOND_SUMS ? undefined : (stored[spec.subKey] as Record<string, unknown>);
  const sums =
    spec.sumsKey === undefined ? undefined : (stored[spec.sumsKey] as Record<string, unknown>);
  const counts =
    sums === undefined ? undefined : secondCountsOf(record.c as SecondCounts | undefined, field);
  const legacy =
    spec.subKey === SECOND_SUMS
      ? (stored[LEGACY_SECOND_MARKS] as Record<string, unknown> | undefined)
      : undefined;
  const from = Math.max(0, parts.sub.from);
  const to = Math.min(spec.subSlots, parts.sub.to);
  for (let index = from; index < to; index++) {
    const here: SubSlotValue[] = [];
    const aggregate = full?.[String(index)];
    if (isObservedAggregate(aggregate)) {
      const { n: an, sum: asum, min: amin, max: amax, first: afirst, last: alast } = aggregate;
      here.push({
        index,
        kind: 'aggregate',
        aggregate: { n: an, sum: asum, min: amin, max: amax, first: afirst, last: alast },
      });
    }
    const count = counts?.get(index);
    const total = sums?.[String(index)];
    if (count !== undefined && typeof total === 'number')
      here.push({ index, kind: 'compact', n: count, sum: total });
    else {
      const mark = legacy?.[String(index)];
      if (here.length === 0 && isObservedMark(mark)) here.push({ index, kind: 'mark', mark });
    }
    slot.subSlots.push(...here);
  }
  return slot;
}
