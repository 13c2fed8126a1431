import {
  LEGACY_SECOND_MARKS,
  LEVEL_SPECS,
  SECOND_COUNTS,
  SECOND_SUMS,
  type Level,
} from '@tickertape/buckets';
import type { Document } from 'mongodb';
import type { BucketPart } from '../../port/bucket-reads.js';

/** A stored aggregate's parts: the totals, spread, weighted sums and sketch (aggregatePartsOf). */
const AGGREGATE_PARTS = [
  'n',
  'sum',
  'min',
  'max',
  'first',
  'last',
  'sq',
  'sqn',
  'xw',
  'w',
  'wn',
  'q',
];

/** One field's totals (an aggregate's parts), not its sub-map. */
export function summaryProjection(field: string): Document {
  return Object.fromEntries(AGGREGATE_PARTS.map((key) => [`f.${field}.${key}`, 1]));
}

/** Reads `part` of `field` from its buckets and nothing else. */
export function partProjection(part: BucketPart, field: string): Document {
  const path = `f.${field}`;
  if (!part.sub) return summaryProjection(field);
  const { subKey, sumsKey } = LEVEL_SPECS[part.level];
  // The field's count and the ticks its Σx² covers, which say whether the sub-slots' Σx² is whole.
  const projection: Document = {
    [`${path}.n`]: 1,
    [`${path}.sqn`]: 1,
    ...(sumsKey === undefined ? {} : { [SECOND_COUNTS]: 1 }),
  };
  for (let i = part.sub.from; i < part.sub.to; i++) {
    projection[`${path}.${subKey}.${i}`] = 1;
    // An hour bucket the level policy keeps compact: a sum per minute, counts in `c`.
    if (sumsKey !== undefined) projection[`${path}.${sumsKey}.${i}`] = 1;
  }
  return projection;
}

/**
 * Every part of `field` a bucket of `level` can serve to a window: its totals and sub-slot
 * aggregates (and a compact bucket's sums and counts). A cache of final buckets keeps this, so
 * any later part of the same bucket comes from memory. A minute bucket serves only its totals.
 */
export function wholeFieldProjection(level: Level, field: string): Document {
  const spec = LEVEL_SPECS[level];
  if (spec.subKey === SECOND_SUMS) return summaryProjection(field);
  return { [`f.${field}`]: 1, ...(spec.sumsKey === undefined ? {} : { [SECOND_COUNTS]: 1 }) };
}

/** A range read's buckets: totals (`slot`), or every sub-slot form of the field (`sub`). */
export function rangeProjection(level: Level, field: string, detail: 'slot' | 'sub'): Document {
  if (detail === 'slot') return { start: 1, ...summaryProjection(field) };
  const spec = LEVEL_SPECS[level];
  const path = `f.${field}`;
  return {
    start: 1,
    [`${path}.n`]: 1,
    [`${path}.sqn`]: 1,
    [`${path}.${spec.subKey}`]: 1,
    ...(spec.sumsKey === undefined ? {} : { [`${path}.${spec.sumsKey}`]: 1, [SECOND_COUNTS]: 1 }),
    ...(spec.subKey === SECOND_SUMS ? { [`${path}.${LEGACY_SECOND_MARKS}`]: 1 } : {}),
  };
}
