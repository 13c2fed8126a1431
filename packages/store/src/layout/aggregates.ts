import { LEVEL_SPECS, addExactValue, type Aggregate } from '@tickertape/buckets';
import type { BucketPart, FieldSlot } from '../port/bucket-reads.js';

/**
 * A compact sub-slot as an aggregate: its count and sum; its mean for min, max, first and last
 * (exact when it holds one tick), first and last dated at the sub-slot's start. With one tick
 * the sum is the value itself, so its square and its sketch are exact too; with more they are
 * unknown and left out (the reader counts such ticks as not covered).
 */
function compactAggregate(t: number, sum: number, n: number): Aggregate {
  const mean = { t, o: 0, v: sum / n };
  const aggregate: Aggregate = { n, sum, min: mean.v, max: mean.v, first: mean, last: mean };
  if (n === 1) {
    aggregate.sq = sum * sum;
    aggregate.q = {};
    addExactValue(aggregate.q, sum);
  }
  return aggregate;
}

/**
 * The aggregates `part` of a decoded bucket holds (its totals, or its observed sub-slots of
 * `part.sub`): what a window adds up. Compact sub-slots become mean aggregates; a legacy second's
 * mark has no count and adds nothing (a window covers a minute bucket by its totals).
 */
export function aggregatesOf(part: BucketPart, slot: FieldSlot): Aggregate[] {
  if (!part.sub) return slot.totals ? [slot.totals] : [];
  const { from, to } = part.sub;
  const { subSlotMs } = LEVEL_SPECS[part.level];
  const aggregates: Aggregate[] = [];
  for (const value of slot.subSlots) {
    if (value.index < from || value.index >= to) continue;
    if (value.kind === 'aggregate') aggregates.push(value.aggregate);
    else if (value.kind === 'compact')
      aggregates.push(compactAggregate(slot.start + value.index * subSlotMs, value.sum, value.n));
  }
  return aggregates;
}
