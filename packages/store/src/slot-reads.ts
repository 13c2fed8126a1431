import {
  LEVEL_SPECS,
  SECOND_COUNTS,
  SECOND_SUMS,
  secondCountsOf,
  type Aggregate,
  type Level,
} from '@tickertape/buckets';
import type { Document } from 'mongodb';
import { summaryProjection, type StoredBucket } from './stored.js';

/**
 * Part of one bucket: its totals (no `sub`), or the sub-slots `[sub.from, sub.to)` of it (minutes
 * of an hour bucket, seconds of a minute one). A query's cover is made of these.
 */
export interface BucketPart {
  level: Level;
  /** The bucket's slot start, epoch ms. */
  start: number;
  sub?: { from: number; to: number };
}

/** The projection that reads `part` of `field` from its buckets and nothing else. */
export function projectionOf(part: BucketPart, field: string): Document {
  const path = `f.${field}`;
  if (!part.sub) return summaryProjection(field);
  const { subKey, sumsKey } = LEVEL_SPECS[part.level];
  const projection: Document = sumsKey === undefined ? {} : { [SECOND_COUNTS]: 1 };
  for (let i = part.sub.from; i < part.sub.to; i++) {
    projection[`${path}.${subKey}.${i}`] = 1;
    // An hour bucket the level policy keeps compact: a sum per minute, counts in `c`.
    if (sumsKey !== undefined) projection[`${path}.${sumsKey}.${i}`] = 1;
  }
  return projection;
}

/**
 * The projection that reads every part of `field` a bucket of `level` can serve to a window: its
 * totals and sub-slot aggregates (and a compact bucket's sums and counts). A cache of final
 * buckets keeps this, so any later part of the same bucket comes from memory. A minute bucket
 * serves only its totals (see `aggregatesOf`).
 */
export function wholeFieldProjection(level: Level, field: string): Document {
  const spec = LEVEL_SPECS[level];
  if (spec.subKey === SECOND_SUMS) return summaryProjection(field);
  return { [`f.${field}`]: 1, ...(spec.sumsKey === undefined ? {} : { [SECOND_COUNTS]: 1 }) };
}

/**
 * A compact sub-slot as an aggregate: its count and sum; its mean for min, max, first and last
 * (exact when it holds one tick), first and last dated at the sub-slot's start.
 */
function compactAggregate(t: number, sum: number, n: number): Aggregate {
  const mean = { t, o: 0, v: sum / n };
  return { n, sum, min: mean.v, max: mean.v, first: mean, last: mean };
}

/** The aggregates `part` of a bucket holds for `field` (read with `projectionOf`). */
export function aggregatesOf(
  part: BucketPart,
  doc: Pick<StoredBucket, 'f' | 'c'>,
  field: string,
): Aggregate[] {
  const stored = doc.f?.[field];
  if (!stored) return [];
  if (!part.sub) return [stored];
  const spec = LEVEL_SPECS[part.level];
  const sub = (stored[spec.subKey] ?? {}) as Record<string, Aggregate>;
  const sums = spec.sumsKey === undefined ? undefined : stored[spec.sumsKey];
  const counts = sums === undefined ? undefined : secondCountsOf(doc.c, field);
  const aggregates: Aggregate[] = [];
  for (let i = part.sub.from; i < part.sub.to; i++) {
    const agg = sub[String(i)];
    if (agg) aggregates.push(agg);
    const n = counts?.get(i);
    const sum = sums?.[String(i)];
    if (n !== undefined && n > 0 && typeof sum === 'number')
      aggregates.push(compactAggregate(part.start + i * spec.subSlotMs, sum, n));
  }
  return aggregates;
}
