import {
  LEGACY_SECOND_MARKS,
  LEVEL_SPECS,
  SECOND_SUMS,
  secondCountsOf,
  sqCoversAll,
  type Level,
} from '@tickertape/buckets';
import type { FieldSlot, SubSlotValue } from '../port/bucket-reads.js';
import {
  aggregatePartsOf,
  isObservedAggregate,
  isObservedMark,
  type StoredBucket,
} from './stored-bucket.js';

/** Which part of a field to decode: its totals, and the sub-slots `[from, to)` (or all of them). */
export interface FieldPart {
  totals: boolean;
  sub?: { from: number; to: number } | 'all';
}

/**
 * THE decoder of the stored layout: `field` of one bucket (named by `bucket`; `stored` is what was
 * read of its document) as the port's FieldSlot. Every
 * implementation of the store (and only they) calls this on what it read; nothing else reads
 * `f.<field>.…` or `c`. Only observed values come out: shell padding (`n` 0, a count of 0, a
 * `{t: ±∞}` mark) is no data.
 *
 * A sub-slot may be held twice, in full (`m`, `h`) and compact (`msum` with counts in `c`), when
 * the level policy changed while its bucket was open: both come out, in that order, and add up.
 * A second written before the compact minute layout has only the last value's mark (`v`): it
 * comes out only where the second has no compact count. Σx² comes out only where it covers every
 * tick of the field (`sqCoversAll`): a read of sub-slots brings the field's `n` and `sqn` too.
 */
export function fieldSlotOf(
  bucket: { series: string; level: Level; start: number },
  stored: Pick<StoredBucket, 'f' | 'c'>,
  field: string,
  part: FieldPart,
): FieldSlot {
  const { series, level, start } = bucket;
  const slot: FieldSlot = { series, level, start, subSlots: [] };
  const values = stored.f?.[field];
  if (!values) return slot;
  const spread = sqCoversAll(values);
  if (part.totals && isObservedAggregate(values)) {
    // The totals alone: a whole read also brought the sub-maps stored beside them.
    slot.totals = aggregatePartsOf(values, spread);
  }
  if (part.sub === undefined) return slot;
  const spec = LEVEL_SPECS[level];
  const from = part.sub === 'all' ? 0 : Math.max(0, part.sub.from);
  const to = part.sub === 'all' ? spec.subSlots : Math.min(spec.subSlots, part.sub.to);
  // A minute bucket's `sec` holds sums, not aggregates: its sub-slots are compact only.
  const full = spec.subKey === SECOND_SUMS ? undefined : values[spec.subKey];
  const sums = spec.sumsKey === undefined ? undefined : values[spec.sumsKey];
  const counts = sums === undefined ? undefined : secondCountsOf(stored.c, field);
  const legacy = spec.subKey === SECOND_SUMS ? values[LEGACY_SECOND_MARKS] : undefined;
  const subSlots: SubSlotValue[] = slot.subSlots;
  for (let index = from; index < to; index++) {
    const aggregate = full?.[String(index)];
    if (isObservedAggregate(aggregate))
      subSlots.push({ index, kind: 'aggregate', aggregate: aggregatePartsOf(aggregate, spread) });
    const n = counts?.get(index);
    const sum = sums?.[String(index)];
    if (n !== undefined && typeof sum === 'number') {
      subSlots.push({ index, kind: 'compact', n, sum });
      continue;
    }
    const mark = legacy?.[String(index)];
    if (isObservedMark(mark)) subSlots.push({ index, kind: 'mark', mark });
  }
  return slot;
}
